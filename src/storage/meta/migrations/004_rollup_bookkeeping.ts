import type { Kysely } from 'kysely';

// The rollup job's bookkeeping (src/stats/rollups): per event store and site, the last day its
// rollups cover and the goal and funnel definitions they were computed for, and the rolled-up days
// an import added events to (rewritten by the next run, then cleared). Kept here rather than beside
// the rollup rows because it changes in small transactions, which the event engines need not
// offer; keyed by the event store's id because processes that share this database may each have
// an event store of their own. Portable column types only (text, no generated keys): the primary
// keys are the natural ones.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rollup_state')
    .addColumn('store_id', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull()) // the site's public id, as in the event store
    .addColumn('watermark', 'text') // YYYY-MM-DD; null: nothing rolled up yet
    .addColumn('definitions', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rollup_state_pk', ['store_id', 'site_id'])
    .execute();
  await db.schema
    .createTable('rollup_pending')
    .addColumn('store_id', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addPrimaryKeyConstraint('rollup_pending_pk', ['store_id', 'site_id', 'day'])
    .execute();
}
