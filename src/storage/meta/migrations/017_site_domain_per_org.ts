import { sql, type Kysely } from 'kysely';

// A domain is unique among an organisation's active sites, not across organisations: collection
// knows a site by its public id, and a unique index across organisations told an owner which
// domains others track and let one claim a domain before its real owner (docs/security.md).
// Every database satisfies the new index: the one it replaces was stricter.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sites_active_domain').execute();
  await db.schema
    .createIndex('sites_active_org_domain')
    .on('sites')
    .columns(['org_id', 'domain'])
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
}
