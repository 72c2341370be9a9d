// The retention job: deletes what a site no longer keeps, raw and rolled up.
import { addDays, localDay } from '../../core/localtime.js';
import { rawCut } from './coverage.js';
import { retentionStart } from '../windows.js';
import { forgetImportedDays } from '../imported-days.js';
import { DAILY_TABLES, DIM_MONTHLY, GOAL_ROWS, IMPORTED_TABLES, PAIR_MONTHLY, SESSION_PATHS, SESSION_ROWS } from './tables.js';
import { EVENTS_TABLE } from '../../storage/events/schema.js';
import { rollupKey, underSiteLease } from './key.js';
import type { RollupDeps } from './run.js';
import { ANY_DAY, daysOfImports } from '../../storage/events/import-events.js';
import type { Period } from '../../core/period.js';

/**
 * Raw events, session rows, session paths, goal rows and pair months before `rawCut` are deleted, but the raw events of the
 * days an import's events (GoatCounter's, Umami's) lie on: deleting or replacing the import rewrites
 * those days from their raw events, which must be whole. With a retention setting, every row of
 * the days before it goes.
 */
export async function runRetention(deps: RollupDeps, now: number): Promise<void> {
  const { events, meta } = deps;
  for (const site of await meta.listAllActiveSites()) {
    await underSiteLease(meta, site.id, async () => {
      const before = (day: string) => ({ siteId: site.id, days: { from: null, to: addDays(day, -1) } });
      const today = localDay(now, site.timezone);
      const rawFrom = rawCut(await meta.getRollupState(rollupKey(events, site.id)), today, site.rawDays);
      if (rawFrom !== null) {
        const cut = { from: ANY_DAY.from, to: addDays(rawFrom, -1) };
        for (const days of between(cut, await daysOfImports(events, site.id, null, cut))) await events.replaceRows(EVENTS_TABLE, { siteId: site.id, days }, null);
        // A month of pair rows that began before the cut holds days no longer whole: it goes too.
        for (const table of [SESSION_ROWS, SESSION_PATHS, GOAL_ROWS, PAIR_MONTHLY]) await events.replaceRows(table, before(rawFrom), null);
      }
      const keepFrom = retentionStart(today, site.retentionMonths);
      if (keepFrom !== null) {
        for (const table of [EVENTS_TABLE, ...DAILY_TABLES, ...IMPORTED_TABLES]) await events.replaceRows(table, before(keepFrom), null);
        forgetImportedDays(site.id);
        // A month that began before the cut is partly erased: its sum goes too.
        for (const table of [DIM_MONTHLY, PAIR_MONTHLY]) await events.replaceRows(table, before(keepFrom), null);
      }
    });
  }
}

/** The runs of days of `days` that are not among `kept` (ascending), in order. */
function between(days: Period, kept: readonly string[]): Period[] {
  const runs: Period[] = [];
  let from = days.from;
  for (const day of kept) {
    if (from < day) runs.push({ from, to: addDays(day, -1) });
    from = addDays(day, 1);
  }
  if (from <= days.to) runs.push({ from, to: days.to });
  return runs;
}
