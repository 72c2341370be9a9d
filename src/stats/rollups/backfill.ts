// The backfill of new goals and funnel versions (and of session rows, session paths and goal rows) over days already
// rolled up, and the removal of the rows of those gone: the bookkeeping of which definitions the rollups were computed for.
import type { EventStore } from '../../storage/events/types.js';
import type { RollupState } from '../../storage/meta/types.js';
import { addDays } from '../../core/localtime.js';
import { funnelKey, goalKey } from '../../core/answer-headers.js';
import { definitionKeys, parseComputed, SESSION_PATHS_KEY, SESSION_ROWS_KEY, type Backfill, type ComputedDefinitions, type Definitions } from './coverage.js';
import { sql, trusted } from '../../sql/sql.js';
import { FUNNEL_DAILY, GOAL_DAILY, GOAL_ROWS, SITE_DAILY } from './tables.js';
import { eventDays, latestPassStart } from './passes.js';
import { writeGoalsAndFunnels, writeSessionPaths, writeSessionRows } from './write.js';

/** Days of goal and funnel rollups a run recounts for new definitions: the whole raw window at once. */
export const BACKFILL_DAYS = 31;

/** Whether the site's rollups hold a day with data before `day`. */
async function rolledUpBefore(events: EventStore, siteId: string, day: string): Promise<boolean> {
  const d = events.dialect;
  const rows = await events.query<{ d: string }>(
    sql`SELECT ${trusted(d.dayText('day'))} AS d FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId} AND day < ${trusted(d.dateLiteral(day))} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * The bookkeeping of the current definitions, given what the rollups were computed for: the
 * definitions added since the watermark was set lack its days; those whose raw events the site
 * still keeps (from `firstRaw`) join the backfill, and the days before them are lost for good where
 * they hold data (`since`).
 */
export async function nextComputed(events: EventStore, siteId: string, state: RollupState, defs: Definitions, firstRaw: string | null): Promise<ComputedDefinitions> {
  const known = parseComputed(state.definitions);
  const keys = definitionKeys(defs);
  const live = (key: string) => keys.includes(key);
  const since = Object.fromEntries(Object.entries(known.since ?? {}).filter(([key]) => live(key)));
  const old = known.backfill && { ...known.backfill, keys: known.backfill.keys.filter(live) };
  let backfill = old && old.keys.length > 0 ? old : undefined;
  const previous = definitionKeys(known);
  const added = keys.filter((key) => !previous.includes(key));
  const watermark = state.watermark;
  if (added.length > 0 && watermark !== null) {
    const start = firstRaw !== null && firstRaw <= watermark ? firstRaw : addDays(watermark, 1);
    if (await rolledUpBefore(events, siteId, start)) for (const key of added) since[key] = start;
    if (start <= watermark) {
      backfill = backfill
        ? { from: backfill.from < start ? backfill.from : start, to: watermark, keys: [...backfill.keys, ...added] }
        : { from: start, to: watermark, keys: added };
    }
  }
  return { ...defs, ...(backfill ? { backfill } : {}), since };
}

/** Removes every rollup row of the goals and funnel versions the rollups were computed for that are gone. */
export async function dropRemoved(events: EventStore, siteId: string, known: Definitions, defs: Definitions, today: string): Promise<void> {
  const keys = definitionKeys(defs);
  const all = { from: null, to: today };
  for (const g of known.goals.filter((g) => !keys.includes(goalKey(g.goalId)))) {
    for (const table of [GOAL_DAILY, GOAL_ROWS]) await events.replaceRows(table, { siteId, days: all, where: { goal_id: g.goalId } }, null);
  }
  for (const f of known.funnels.filter((f) => !keys.includes(funnelKey(f.id, f.version)))) {
    await events.replaceRows(FUNNEL_DAILY, { siteId, days: all, where: { funnel_id: f.id, version: f.version } }, null);
  }
}

/** Recounts the goal and funnel rollups (goal rows among them, and session rows and paths) of the backfill's latest pass (at most `days` days); returns what remains of it. */
export async function backfillPart(events: EventStore, siteId: string, defs: Definitions, backfill: Backfill, days: number): Promise<Backfill | undefined> {
  const first = addDays(backfill.to, -(days - 1));
  const latest = { from: first > backfill.from ? first : backfill.from, to: backfill.to };
  const from = latestPassStart(latest, await eventDays(events, siteId, latest));
  if (backfill.keys.includes(SESSION_ROWS_KEY)) await writeSessionRows(events, siteId, { from, to: backfill.to });
  if (backfill.keys.includes(SESSION_PATHS_KEY)) await writeSessionPaths(events, siteId, { from, to: backfill.to });
  await writeGoalsAndFunnels(events, siteId, { from, to: backfill.to }, defs);
  return from > backfill.from ? { ...backfill, to: addDays(from, -1) } : undefined;
}
