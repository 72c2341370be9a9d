import type { Kysely } from 'kysely';

// Expiring ownership shared by every process on one database. `leases` holds named leases (a site's
// rollup run, ...): a row is held by `holder` until `expires_at` (epoch ms), and a holder that
// stops renewing loses it once that passes. `webhook_deliveries.claimed_by` names the sender that
// owns a delivery while its `lease_until` lies in the future, so an attempt is recorded only by
// the sender that made it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('claimed_by', 'text').execute();
}
