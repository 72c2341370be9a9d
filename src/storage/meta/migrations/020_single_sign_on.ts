import type { Kysely } from 'kysely';

// Single sign-on (src/accounts/single-sign-on.ts). `sso_flows` holds the flows started and not yet
// finished: the SHA-256 of their `state` (the browser carries the state itself), the `nonce` and
// PKCE verifier the callback checks the provider's answer with, and the same-origin path to land on;
// a row is deleted when its callback comes or it expires. `org_sign_in` holds an organisation's
// `Require single sign-on`, `org_sign_in_domains` the email domains whose unknown users single
// sign-on admits as viewers. `user_sessions.single_sign_on` marks a session single sign-on made
// (no two-factor sign-in asked of it).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_flows')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_flows_expires').on('sso_flows').column('expires_at').execute();
  await db.schema
    .createTable('org_sign_in')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('require_sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('org_sign_in_domains')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_sign_in_domains_pk', ['org_id', 'domain'])
    .execute();
  await db.schema.createIndex('org_sign_in_domains_domain').on('org_sign_in_domains').column('domain').execute();
  await db.schema.alterTable('user_sessions').addColumn('single_sign_on', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
