import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Segments (named sets of a site's filters) and annotations (notes on a site's days), docs/api.md.
// A segment is shared with the site's members (`shared` 1) or personal to `owner_user_id` (the user
// who made it; null for the operator's); `filters` a JSON array of filter parameters. An annotation's
// `day` is site-local, YYYY-MM-DD. Both go with their site (ON DELETE CASCADE).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('segments')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull())
    .addColumn('owner_user_id', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('segments_site').on('segments').column('site_id').execute();
  await db.schema
    .createTable('annotations')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('annotations_site_day').on('annotations').columns(['site_id', 'day']).execute();
}
