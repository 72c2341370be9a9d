import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Invitations to an organisation (src/storage/meta/kysely/invitations.ts). A row is a pending invitation:
// accepting or revoking one deletes it, so a link works once. `token_hash` is the SHA-256 of the
// link's secret: a read of this table gives no usable link. One pending invitation per organisation
// and email (`email_key`, lower-cased): inviting the email again replaces it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_org_email').on('invitations').columns(['org_id', 'email_key']).unique().execute();
  await db.schema.createIndex('invitations_expires').on('invitations').column('expires_at').execute();
}
