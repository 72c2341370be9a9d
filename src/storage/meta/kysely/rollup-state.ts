// The rollups' bookkeeping (migration 004_rollup_bookkeeping): per event store and site, the
// watermark and definitions, and the rolled-up days pending a rewrite.
import type { Kysely } from 'kysely';
import type { MetaDatabase } from '../schema.js';
import type { MetaStore, RollupKey, RollupState } from '../types.js';

/** Rollup state and pending days. */
export function rollupStateRecords(db: Kysely<MetaDatabase>) {
  return {
    async getRollupState(key: RollupKey): Promise<RollupState | undefined> {
      const row = await db
        .selectFrom('rollup_state')
        .select(['watermark', 'definitions'])
        .where('store_id', '=', key.storeId)
        .where('site_id', '=', key.siteId)
        .executeTakeFirst();
      return row && { watermark: row.watermark, definitions: row.definitions };
    },

    async setRollupState(key: RollupKey, state: RollupState): Promise<void> {
      const row = { watermark: state.watermark, definitions: state.definitions };
      await db
        .insertInto('rollup_state')
        .values({ store_id: key.storeId, site_id: key.siteId, ...row })
        .onConflict((oc) => oc.columns(['store_id', 'site_id']).doUpdateSet(row))
        .execute();
    },

    async addRollupPending(key: RollupKey, days: readonly string[]): Promise<void> {
      if (days.length === 0) return;
      await db
        .insertInto('rollup_pending')
        .values([...new Set(days)].map((day) => ({ store_id: key.storeId, site_id: key.siteId, day })))
        .onConflict((oc) => oc.columns(['store_id', 'site_id', 'day']).doNothing())
        .execute();
    },

    async listRollupPending(key: RollupKey): Promise<string[]> {
      const rows = await db
        .selectFrom('rollup_pending')
        .select('day')
        .where('store_id', '=', key.storeId)
        .where('site_id', '=', key.siteId)
        .orderBy('day')
        .execute();
      return rows.map((r) => r.day);
    },

    async clearRollupPending(key: RollupKey, day: string): Promise<void> {
      await db.deleteFrom('rollup_pending').where('store_id', '=', key.storeId).where('site_id', '=', key.siteId).where('day', '=', day).execute();
    },
  } satisfies Partial<MetaStore>;
}
