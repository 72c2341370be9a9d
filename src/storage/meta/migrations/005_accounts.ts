import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Dashboard accounts (src/storage/meta/kysely/users.ts, memberships.ts, sessions.ts): users, their memberships of organisations, server-side
// sessions and the failed sign-ins the lockout counts. `email_key` is the lower-cased email, so the
// unique index compares emails case-insensitively on every dialect.
export async function up(db: Kysely<any>): Promise<void> {
  const serialKey = serialPrimaryKey(db);
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', serialKey)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  // `id` is the SHA-256 of the cookie's secret: a read of this table gives no usable cookie.
  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'integer', serialKey)
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_email').on('login_failures').columns(['email_key', 'at']).execute();
  await db.schema.createIndex('login_failures_address').on('login_failures').columns(['address', 'at']).execute();
  await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();

  // A lock on one email or one client address (`subject` is `email:<key>` or `address:<ip>`).
  await db.schema
    .createTable('login_locks')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .execute();
}
