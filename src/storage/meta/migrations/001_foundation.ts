import { sql, type Kysely } from 'kysely';
import { bytesType, serialPrimaryKey } from './columns.js';

// Written in the SQL SQLite and PostgreSQL share through Kysely's schema builder; the column
// definitions that differ between them come from ./columns.ts.
export async function up(db: Kysely<any>): Promise<void> {
  const serialKey = serialPrimaryKey(db);
  await db.schema
    .createTable('orgs')
    .addColumn('id', 'integer', serialKey)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sites')
    .addColumn('id', 'integer', serialKey)
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('retention_months', 'integer')
    .addColumn('honor_gpc', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_org').on('sites').column('org_id').execute();
  // One active site per domain; archived sites may share a domain with a newer active one.
  await db.schema
    .createIndex('sites_active_domain')
    .on('sites')
    .column('domain')
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'integer', serialKey)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('relay_keys')
    .addColumn('id', 'integer', serialKey)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('goals')
    .addColumn('id', 'integer', serialKey)
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('goals_site').on('goals').column('site_id').execute();

  await db.schema
    .createTable('funnels')
    .addColumn('id', 'integer', serialKey)
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('window_minutes', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('funnels_site').on('funnels').column('site_id').execute();

  await db.schema
    .createTable('funnel_versions')
    .addColumn('funnel_id', 'integer', (c) => c.notNull().references('funnels.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('funnel_versions_pk', ['funnel_id', 'version'])
    .execute();

  await db.schema
    .createTable('salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', bytesType(db), (c) => c.notNull())
    .execute();
}
