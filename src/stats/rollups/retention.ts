// The retention job: deletes what a site no longer keeps, raw and rolled up.
import { addDays, localDay } from '../../core/localtime.js';
import { parseComputed } from './coverage.js';
import { rawWindowStart, retentionStart } from '../windows.js';
import { forgetImportedDays } from '../imported-days.js';
import { DAILY_TABLES, DIM_MONTHLY, IMPORTED_TABLES, SESSION_PATHS, SESSION_ROWS } from './tables.js';
import { EVENTS_TABLE } from '../../storage/events/schema.js';
import { rollupKey, underSiteLease } from './key.js';
import type { RollupDeps } from './run.js';

/**
 * Raw events, session rows and session paths older than the raw window (and already rolled up) are deleted; with
 * a retention setting, every row of the days before it goes.
 */
export async function runRetention(deps: RollupDeps, now: number): Promise<void> {
  const { events, meta } = deps;
  for (const site of await meta.listAllActiveSites()) {
    await underSiteLease(meta, site.id, async () => {
      const before = (day: string) => ({ siteId: site.id, days: { from: null, to: addDays(day, -1) } });
      const today = localDay(now, site.timezone);
      const state = await meta.getRollupState(rollupKey(events, site.id));
      if (state?.watermark) {
        // Raw events are kept while rolled-up days wait for a backfill of new goals or funnel versions.
        const backfillFrom = parseComputed(state.definitions).backfill?.from;
        const rawFrom = [addDays(state.watermark, 1), rawWindowStart(today, site.rawDays), ...(backfillFrom ? [backfillFrom] : [])].sort()[0]!;
        for (const table of [EVENTS_TABLE, SESSION_ROWS, SESSION_PATHS]) await events.replaceRows(table, before(rawFrom), null);
      }
      const keepFrom = retentionStart(today, site.retentionMonths);
      if (keepFrom !== null) {
        // A month that began before the cut is partly erased: its sums (dim_monthly, imported_dim_monthly) go too.
        for (const table of [EVENTS_TABLE, ...DAILY_TABLES, ...IMPORTED_TABLES]) await events.replaceRows(table, before(keepFrom), null);
        forgetImportedDays(site.id);
        // A month that began before the cut is partly erased: its sum goes too.
        await events.replaceRows(DIM_MONTHLY, before(keepFrom), null);
      }
    });
  }
}
