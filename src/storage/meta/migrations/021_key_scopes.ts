import type { Kysely } from 'kysely';

// An API key's scope (docs/admin-api.md): `read` (the read API, every key made before) or `manage`
// (also its organisation's sites through /app/v1/manage).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('scope', 'text', (c) => c.notNull().defaultTo('read')).execute();
}
