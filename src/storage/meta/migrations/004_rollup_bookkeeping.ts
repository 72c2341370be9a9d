import type { Kysely } from 'kysely';

// The rollup job's bookkeeping (src/stats/rollups): per site, the last day its rollups cover and
// the goal and funnel definitions they were computed for, and the rolled-up days an import added
// events to (rewritten by the next run, then cleared). Kept here rather than beside the rollup
// rows because it changes in small transactions, which the event engines need not offer. Portable
// column types only (text, no generated keys): the primary keys are the natural ones.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rollup_state')
    .addColumn('site_id', 'text', (c) => c.primaryKey()) // the site's public id, as in the event store
    .addColumn('watermark', 'text') // YYYY-MM-DD; null: nothing rolled up yet
    .addColumn('definitions', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('rollup_pending')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addPrimaryKeyConstraint('rollup_pending_pk', ['site_id', 'day'])
    .execute();
}

