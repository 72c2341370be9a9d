// The first and last day of each site's imported aggregates, for the planner's inputs: asked of the
// event store once per site every few seconds rather than once per read (a read otherwise pays one
// more round trip for them, which on ClickHouse is most of a rollup read's time). An import or a
// deletion in this process forgets the site's days at once; other processes see them within
// IMPORTED_DAYS_TTL_MS.
import type { Period } from '../core/period.js';
import type { EventReader } from '../storage/events/types.js';
import { importedDaysStatement } from './sql/imported.js';

export const IMPORTED_DAYS_TTL_MS = 5_000;

interface Known {
  days: Period | null;
  at: number;
  epoch: number;
}

const known = new WeakMap<EventReader, Map<string, Known>>();
/** Per site, how many times its days were forgotten: an answer read before the last time is stale. */
const epochs = new Map<string, number>();

export async function importedDaysOf(events: EventReader, siteId: string): Promise<Period | null> {
  let sites = known.get(events);
  if (!sites) known.set(events, (sites = new Map()));
  const epoch = epochs.get(siteId) ?? 0;
  const hit = sites.get(siteId);
  if (hit && hit.epoch === epoch && performance.now() - hit.at < IMPORTED_DAYS_TTL_MS) return hit.days;
  const [row] = await events.query<{ f: string; l: string }>(importedDaysStatement(events.dialect, siteId));
  const days = row ? { from: row.f, to: row.l } : null;
  // Not kept when the site's days were forgotten while the statement ran.
  if ((epochs.get(siteId) ?? 0) === epoch) sites.set(siteId, { days, at: performance.now(), epoch });
  return days;
}

/** Called when a site's imported aggregates change (an import written, or removed). */
export function forgetImportedDays(siteId: string): void {
  epochs.set(siteId, (epochs.get(siteId) ?? 0) + 1);
}
