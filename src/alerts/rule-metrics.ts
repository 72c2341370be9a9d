// The measurements alert rules watch, computed for many sites in one query each so that evaluating
// every rule each minute stays cheap. Definitions are the read API's (docs/api.md): visitors are distinct
// visitor ids per site-local day summed over days; conversions are events matching the goal.
// src/stats computes the same measures one site at a time (computeRealtime, measureGoals); at
// 10 000 rules a minute that is tens of thousands of queries, so these are the batched forms, over
// the same raw-event columns and the same goal matcher (core/patterns) as the read API.
import { compileMatcher, type Matcher } from '../core/patterns.js';
import { RAW_DAYS, type GoalProps } from '../core/vocabulary.js';
import { integerLiteral } from '../stats/sql/filters.js';
import { goalPredicate } from '../stats/sql/goals.js';
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
 * Conversions of each goal on one site-local day. Events are grouped by (name, page) in SQL and
 * matched in JavaScript with the same matcher the funnels use, so no engine needs regexes; a goal
 * requiring property values is counted in SQL, with the read API's predicate (src/stats/sql/goals.ts).
 */
export async function goalConversionsOnDay(events: EventStore, day: string, goals: readonly GoalCount[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(goals.map((g) => [g.goalId, 0]));
  const withProps = goals.filter((g) => g.props);
  if (withProps.length > 0) {
    const parts = withProps.map(
      (g) => sql`SELECT ${integerLiteral(g.goalId)} AS goal_id, count(*) AS n FROM events
        WHERE site_id = ${g.siteId} AND day = ${trusted(events.dialect.dateLiteral(day))} AND ${goalPredicate(events.dialect, g)}`,
    );
    const rows = await events.query<{ goal_id: bigint | number; n: bigint | number }>(joinSql(parts, ' UNION ALL '));
    for (const r of rows) counts.set(Number(r.goal_id), Number(r.n));
  }
  const byName = goals.filter((g) => !g.props);
  const siteIds = [...new Set(byName.map((g) => g.siteId))];
  if (siteIds.length === 0) return counts;
  const rows = await events.query<{ site_id: string; name: string; page: string; n: bigint | number }>(
    sql`SELECT site_id, name, page, count(*) AS n FROM events
     WHERE ${ofSites(siteIds)} AND day = ${trusted(events.dialect.dateLiteral(day))}
     GROUP BY site_id, name, page`,
  );
  const bySite = new Map<string, Array<{ goalId: number; matches: (name: string, page: string) => boolean }>>();
  for (const g of byName) bySite.set(g.siteId, [...(bySite.get(g.siteId) ?? []), { goalId: g.goalId, matches: compileMatcher(g) }]);
  for (const r of rows) {
    for (const g of bySite.get(r.site_id) ?? []) {
      if (g.matches(r.name, r.page)) counts.set(g.goalId, counts.get(g.goalId)! + Number(r.n));
    }
  }
  return counts;
}
