import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Shared links to a site's dashboard (src/accounts/shared-links.ts). `token_hash` is the SHA-256 of
// the link's secret (the link is shown once); `password_hash` an scrypt hash when the link has a
// password; `filters` and `embed_domains` JSON arrays of text. Revoking a link deletes it with its
// grants. A grant is one opening of a link (after its password, if any): `id` is the SHA-256 of the
// access token the page sends with each read.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shared_links')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('embed_domains', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('shared_links_site').on('shared_links').column('site_id').execute();
  await db.schema
    .createTable('shared_link_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'integer', (c) => c.notNull().references('shared_links.id'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shared_link_grants_link').on('shared_link_grants').column('link_id').execute();
}
