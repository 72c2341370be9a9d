import { sql, type Kysely } from 'kysely';

// Confirmed emails (docs/accounts.md): single sign-on takes over only an account whose email svc
// knows to be confirmed. `users.email_confirmed` is 1 once a mailed link was followed or single
// sign-on signed the account in; an account single sign-on made (no password) is confirmed, every
// other one starts unconfirmed. `email_confirmations` holds the mailed links (their token's SHA-256)
// with the email each confirms: the current one, or a new one that replaces it when followed.
// `sso_flows` gains the client network that started a flow (flows are bounded per network) and the
// SHA-256 of the secret of the cookie that binds it to its browser.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE users SET email_confirmed = 1 WHERE password_hash = 'single-sign-on'`.execute(db);
  await db.schema
    .createTable('email_confirmations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_confirmations_user').on('email_confirmations').column('user_id').execute();
  await db.schema.alterTable('sso_flows').addColumn('network', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('sso_flows').addColumn('browser_hash', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('sso_flows_network').on('sso_flows').column('network').execute();
}
