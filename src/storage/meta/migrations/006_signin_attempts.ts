import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Sign-in attempts (src/storage/meta/kysely/signin-attempts.ts reserveAttempt): every attempt is counted
// before its password is checked, so the table holds attempts, not only failures, and counts them by
// client group (an IPv4 address, an IPv6 /64) instead of by address. The failures of 005 carry over
// as attempts of their address (an IPv4 address is its own group; an IPv6 row leaves the 15-minute
// window soon after the upgrade).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signin_attempts')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('client_group', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signin_attempts_email').on('signin_attempts').columns(['email_key', 'at']).execute();
  await db.schema.createIndex('signin_attempts_client').on('signin_attempts').columns(['client_group', 'at']).execute();
  await db.schema.createIndex('signin_attempts_at').on('signin_attempts').column('at').execute();
  await db
    .insertInto('signin_attempts')
    .columns(['email_key', 'client_group', 'at'])
    .expression(db.selectFrom('login_failures').select(['email_key', 'address', 'at']))
    .execute();
  await db.schema.dropTable('login_failures').execute();
}
