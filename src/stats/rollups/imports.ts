// An import's commit into days already rolled up, and their rewrite once it is in; and the removal
// of an import's events, the same way.
import { ANY_DAY, daysOfImports, removeImportEvents } from '../../storage/events/import-events.js';
import { rollupKey, underSiteLease } from './key.js';
import { dropPairMonthsOf } from './pairs.js';
import { rollupSiteNow, type RollupDeps, type RollupOptions } from './run.js';

/**
 * Marks the rolled-up days (under the watermark) among `days` pending: the next run rewrites them.
 * Their pair months go meanwhile (the run writes them again after the days).
 */
async function markImportedDays(deps: RollupDeps, siteId: string, days: readonly string[]): Promise<void> {
  const key = rollupKey(deps.events, siteId);
  const watermark = (await deps.meta.getRollupState(key))?.watermark ?? null;
  if (watermark === null) return;
  const rolledUp = days.filter((day) => day <= watermark);
  await deps.meta.addRollupPending(key, rolledUp);
  await dropPairMonthsOf(deps.events, siteId, rolledUp);
}

/**
 * An import's commit, under the site's rollup lease, its rolled-up days marked pending first: if the
 * process stops between the commit and their rewrite (`recomputeRollups`), the next run still
 * rewrites them, and no run can come between the marking and the commit (to clear the mark, or
 * move the watermark past an unmarked day, before the events are there). If the commit fails, the
 * days are rewritten for nothing, which changes nothing.
 */
export function commitImport(deps: RollupDeps, siteId: string, days: readonly string[], commit: () => Promise<void>): Promise<void> {
  return underSiteLease(deps.meta, siteId, async () => {
    await markImportedDays(deps, siteId, days);
    await commit();
  });
}

/**
 * Makes the given days' rollups exact again after events were added to them (imports): days under
 * the watermark are marked pending and rewritten, later closed days are rolled up as usual.
 */
export async function recomputeRollups(deps: RollupDeps, siteId: string, days: readonly string[], now: number, options: RollupOptions = {}): Promise<void> {
  const site = await deps.meta.getSite(siteId);
  if (!site) return;
  // Under the site's lease: a run under way may move the watermark past these days (even clear them
  // as empty, having looked before the events arrived), so the watermark is read once it is done.
  await underSiteLease(deps.meta, siteId, async () => {
    await markImportedDays(deps, siteId, days);
    await rollupSiteNow(deps, site, now, options);
  });
}

/**
 * Removes the events an import of raw events (GoatCounter's, Umami's) wrote, as an import adds its
 * own: the removal committed with its days marked pending, then those days rewritten (rollups,
 * session rows and paths) within the memory the store gives imports, so that they read as the
 * events left give them.
 */
export async function removeImportedEvents(deps: RollupDeps, siteId: string, importId: string, now: number): Promise<void> {
  const days = await daysOfImports(deps.events, siteId, [importId], ANY_DAY);
  if (days.length === 0) return;
  await commitImport(deps, siteId, days, () => removeImportEvents(deps.events, siteId, [importId], { from: days[0]!, to: days.at(-1)! }));
  await deps.events.whileImporting(() => recomputeRollups(deps, siteId, days, now));
}
