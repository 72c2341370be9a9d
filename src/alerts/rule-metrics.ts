// The measurements alert rules watch, computed for many sites in one query each so that evaluating
// every rule each minute stays cheap. Definitions are the read API's (docs/api.md): visitors are distinct
// visitor ids per site-local day summed over days; conversions are events matching the goal.
// src/stats computes the same measures one site at a time (computeRealtime, measureGoals); at
// 10 000 rules a minute that is tens of thousands of queries, so these are the batched forms, over
// the same raw-event columns and the same goal predicate (src/stats/sql/goals.ts) as the read API.
import type { Matcher } from '../core/patterns.js';
import { RAW_DAYS, type GoalProps } from '../core/vocabulary.js';
import { goalIdsOfEvent } from '../stats/sql/goals.js';
import { joinSql, sql, trusted, type Sql } from '../sql/sql.js';
import type { EventStore } from '../storage/events/types.js';

/**
 * How far back raw events reach on every site: the raw window is at least RAW_DAYS.min site-local
 * days, today included, which start less than this many 24-hour days before now (give or take a DST hour).
 */
export const RAW_WINDOW_MS = RAW_DAYS.min * 86_400_000;

/** `site_id IN (…)` over the given sites, each a parameter. */
function ofSites(siteIds: readonly string[]): Sql {
  return sql`site_id IN (${joinSql(siteIds.map((id) => sql`${id}`), ', ')})`;
}

/**
 * Visitors of each site over [from, to] (both ends included, as the realtime panel's
 * currentVisitors in src/stats): per-day distinct visitors, summed across the days.
 */
export async function visitorsInWindow(events: EventStore, siteIds: readonly string[], from: number, to: number): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  if (siteIds.length === 0) return totals;
  const rows = await events.query<{ site_id: string; visitors: bigint | number }>(
    sql`SELECT site_id, ${trusted(events.dialect.countDistinct('visitor_id'))} AS visitors FROM events
     WHERE ${ofSites(siteIds)} AND ts >= ${from} AND ts <= ${to}
     GROUP BY site_id, day`,
  );
  for (const r of rows) totals.set(r.site_id, (totals.get(r.site_id) ?? 0) + Number(r.visitors));
  return totals;
}

/** Time of each site's most recent event within the raw window (absent: none in it). */
export async function lastEventTimes(events: EventStore, siteIds: readonly string[], now: number): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (siteIds.length === 0) return result;
  const rows = await events.query<{ site_id: string; last_ts: bigint | number }>(
    sql`SELECT site_id, max(ts) AS last_ts FROM events
     WHERE ${ofSites(siteIds)} AND ts >= ${now - RAW_WINDOW_MS} AND ts <= ${now}
     GROUP BY site_id`,
  );
  for (const r of rows) result.set(r.site_id, Number(r.last_ts));
  return result;
}

export interface GoalCount extends Matcher {
  goalId: number;
  siteId: string;
  props?: GoalProps | null | undefined;
}

/**
 * How long counting one site's goals on a day may run (its statement, in the engine). Past it the
 * engine cancels the statement and that site's goals have a `StatementTimeout` for a count: their
 * rules are skipped this minute, and their `Send test` is refused, while every other site's count.
 */
export const GOAL_COUNT_DEADLINE_MS = 10_000;

/**
 * Conversions of each goal on one site-local day, or the error that failed their site's count (a
 * `StatementTimeout` past the deadline). Each site's goals are counted in one statement of their own,
 * matched in the engine with the read API's predicate (src/stats/sql/goals.ts: RE2, linear time), so
 * that a page pattern costs the process nothing and one site's slow or failing count fails that
 * site's rules only, never another tenant's.
 */
export async function goalConversionsOnDay(
  events: EventStore,
  day: string,
  goals: readonly GoalCount[],
  deadlineMs = GOAL_COUNT_DEADLINE_MS,
): Promise<Map<number, number | Error>> {
  const counts = new Map<number, number | Error>();
  const bySite = new Map<string, GoalCount[]>();
  for (const g of goals) bySite.set(g.siteId, [...(bySite.get(g.siteId) ?? []), g]);
  // One site at a time: the evaluation holds at most one of the engine's read connections.
  for (const [siteId, ofSite] of bySite) {
    const { goalIds, anyGoal } = goalIdsOfEvent(events.dialect, ofSite);
    try {
      const rows = await events.query<{ goal_id: bigint | number; n: bigint | number }>(
        sql`SELECT goal_id, count(*) AS n FROM (SELECT ${goalIds} AS goal_id FROM events
          WHERE site_id = ${siteId} AND day = ${trusted(events.dialect.dateLiteral(day))} AND (${anyGoal})) g GROUP BY goal_id`,
        { deadlineMs },
      );
      for (const g of ofSite) counts.set(g.goalId, 0);
      for (const r of rows) counts.set(Number(r.goal_id), Number(r.n));
    } catch (err) {
      const failure = err instanceof Error ? err : new Error(String(err));
      for (const g of ofSite) counts.set(g.goalId, failure);
    }
  }
  return counts;
}
