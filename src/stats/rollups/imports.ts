// An import's commit into days already rolled up, and their rewrite once it is in.
import { rollupKey, underSiteLease } from './key.js';
import { rollupSiteNow, type RollupDeps, type RollupOptions } from './run.js';

/** Marks the rolled-up days (under the watermark) among `days` pending: the next run rewrites them. */
async function markImportedDays(deps: RollupDeps, siteId: string, days: readonly string[]): Promise<void> {
  const key = rollupKey(deps.events, siteId);
  const watermark = (await deps.meta.getRollupState(key))?.watermark ?? null;
  if (watermark === null) return;
  await deps.meta.addRollupPending(key, days.filter((day) => day <= watermark));
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
