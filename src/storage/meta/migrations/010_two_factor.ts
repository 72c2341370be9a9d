import type { Kysely } from 'kysely';

// Two-factor sign-in (src/accounts/two-factor.ts). `user_two_factor` holds a user's TOTP secret
// (base32; the server needs it to compute codes, so it is stored as it is), `enabled_at` once a
// code confirmed it (null while set-up is pending) and `last_step`, the last 30-second step whose
// code was accepted: a code is accepted only for a later step, so none is accepted twice.
// `recovery_codes` holds the SHA-256 of each unused recovery code; using one deletes its row.
// `org_two_factor` lists the organisations whose owners require two-factor sign-in of every member.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('org_two_factor')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('required_since', 'bigint', (c) => c.notNull())
    .execute();
}
