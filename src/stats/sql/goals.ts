// Goals and funnels over raw events (their matching predicates are ./filters.ts's): the goal
// measures per day, the goal rows written from raw events and read under filters, and the funnel's
// statements.
import type { Matcher } from '../../core/patterns.js';
import type { Period } from '../../core/period.js';
import { dimensionColumn, type Filter, NONE_KEY } from '../../core/vocabulary.js';
import type { GoalRef } from '../../entities/goals.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { GOAL_MEASURES, measureAggregates } from '../measures.js';
import type { DaySources } from '../planner.js';
import { CARRIED_DIMENSIONS, FUNNEL_DAILY, GOAL_ROW_SUMS, GOAL_ROWS } from '../rollups/tables.js';
import { eventsRelation, keyedRowsRelation } from './events.js';
import { DAY_BUCKET } from './measures.js';
import { inSessionPart } from './session-paths.js';
import { dayRange, goalPredicate, instantBounds, type Instants, integerLiteral, matcherPredicate, needsExit } from './filters.js';

/**
 * The revenue columns of a goal's rows (GOAL_MEASURES) for its currency (`goal.currency`, '' for
 * none): the same BIGINT expressions for every goal, so that the goals' rows union with one type per
 * column; without a currency nothing matches.
 */
export function goalRevenueColumns(currency: string): Sql {
  return sql`CAST(CASE WHEN revenue_currency = ${currency} THEN 1 ELSE 0 END AS BIGINT) AS paid,
    CAST(coalesce(CASE WHEN revenue_currency = ${currency} THEN revenue_minor ELSE 0 END, 0) AS BIGINT) AS rm,
    CAST(CASE WHEN revenue_currency <> ${currency} AND ${currency} <> '' THEN 1 ELSE 0 END AS BIGINT) AS other`;
}

/**
 * The events a goal is looked for in, up to its WHERE clause's predicates: the site's events of the
 * days, or under filters the events the filters keep (as every filtered figure counts them).
 */
function goalEventsFrom(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql {
  if (filters.length === 0) return sql`events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND`;
  return sql`${eventsRelation(d, { siteId, days, filters, exit: needsExit(filters) })} WHERE`;
}

/** Where goal events are counted: before `until` (absent: the days' end), under `filters` (absent: none), within `more` (` AND …`). */
export interface GoalBounds extends Instants {
  filters?: readonly Filter[] | undefined;
  more?: Sql;
}

/**
 * Which of the goals an event row matches, one row each (`Dialect.idsWhere` unnested), and whether
 * it matches any of them (the WHERE clause that keeps the rows `goalIds` has ids for).
 */
export function goalIdsOfEvent(d: Dialect, goals: readonly GoalRef[]): { goalIds: Sql; anyGoal: Sql } {
  const predicates = goals.map((goal) => goalPredicate(d, goal));
  const cases = goals.map((goal, i) => ({ id: goal.goalId, when: predicates[i]!.text }));
  return {
    goalIds: withParams(d.unnest(d.idsWhere(cases)), ...predicates.flatMap((p) => p.params)),
    anyGoal: joinSql(predicates.map((p) => sql`(${p})`), ' OR '),
  };
}

/**
 * One row per conversion of any of the goals: b (`bucket`), visitor_id, goal_id, its revenue
 * columns (paid, rm, other), then `columns` where given: a pass per goal over the (filtered)
 * events. `bounds.more`: a further bound on the events (` AND …`).
 */
function goalEvents(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[], bounds: GoalBounds, columns: Sql | null = null): Sql {
  const extra = columns ? sql`, ${columns}` : trusted('');
  const from = goalEventsFrom(d, siteId, days, bounds.filters ?? []);
  const more = bounds.more ?? trusted('');
  const parts = goals.map(
    (goal) => sql`SELECT ${bucket} AS b, visitor_id, CAST(${integerLiteral(goal.goalId)} AS BIGINT) AS goal_id, ${goalRevenueColumns(goal.currency ?? '')}${extra} FROM ${from}
      ${goalPredicate(d, goal)}${instantBounds(bounds)}${more}`,
  );
  return joinSql(parts, ' UNION ALL ');
}

/** Per day and goal, the goal measures. Columns: b, goal_id, then the measures in registry order. */
export function measureGoals(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[], bounds: GoalBounds = {}): Sql {
  return sql`SELECT b, goal_id, ${trusted(measureAggregates(d, GOAL_MEASURES, 'events'))}
    FROM (${goalEvents(d, bucket, siteId, days, goals, bounds)}) g GROUP BY b, goal_id`;
}

/** A goal row's key columns, each as session rows hold it (an absent value as `(none)`). */
const GOAL_ROW_KEYS = CARRIED_DIMENSIONS.map((dim) => dimensionColumn(dim));

/**
 * The goal rows (GOAL_ROWS) of some days, in the table's column order: the conversions of each
 * goal, day, visitor hash and carried keys (each event's own, as a filtered raw read compares
 * them), in one select per share of the days' visitors (by hash, `share` of `shares`), so that a
 * select groups the conversions of one share.
 */
export function goalRowsOfEvents(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[], share = 0, shares = 1): Sql {
  const keys = trusted(GOAL_ROW_KEYS.map((column) => `coalesce(${column}, '${NONE_KEY}') AS g_${column}`).join(', '));
  const sums = Object.values(GOAL_MEASURES).filter((m) => GOAL_ROW_SUMS.includes(m.column));
  const grouped = trusted(GOAL_ROW_KEYS.map((column) => `g_${column}`).join(', '));
  const conversions = goalEvents(d, DAY_BUCKET, siteId, days, goals, { more: inSessionPart('visitor_id', share, shares) }, keys);
  return sql`SELECT ${siteId} AS g_site, b, goal_id, visitor_id, ${grouped}, ${trusted(sums.map((m) => `${m.aggregate(d)} AS ${m.column}`).join(', '))}
    FROM (${conversions}) g GROUP BY b, goal_id, visitor_id, ${grouped}`;
}

/**
 * Per day and goal, the goal measures of the goal rows of some days under filters (every one a key
 * sessions carry; none: every row). Columns: b (a DATE), goal_id, then the measures in registry order.
 */
export function measureGoalRows(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[], filters: readonly Filter[]): Sql {
  const ids = joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ');
  const measures = Object.values(GOAL_MEASURES).map((m) => (m === GOAL_MEASURES.uniqueConversions ? `${d.countDistinct('visitor_id')} AS ${m.column}` : `CAST(sum(${m.column}) AS BIGINT) AS ${m.column}`));
  return sql`SELECT ${DAY_BUCKET} AS b, goal_id, ${trusted(measures.join(', '))}
    FROM ${keyedRowsRelation(d, GOAL_ROWS, siteId, days, filters, [sql`goal_id IN (${ids})`])} GROUP BY b, goal_id`;
}

/**
 * Events matching any funnel step, in the order the funnel walk needs (ties in time by name and
 * page), each with the steps it matches as bits (`steps`: bit k - 1 for step k), matched here in the
 * engine so that the walk (../funnel.ts) reads no page.
 */
export function funnelEvents(d: Dialect, siteId: string, days: Period, steps: readonly Matcher[]): Sql {
  const predicates = steps.map((s) => matcherPredicate(d, s));
  const bits = joinSql(predicates.map((p, k) => sql`CASE WHEN ${p} THEN ${integerLiteral(2 ** k)} ELSE 0 END`), ' + ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ts, CAST(${bits} AS BIGINT) AS steps FROM events
    WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND (${joinSql(predicates, ' OR ')})
    ORDER BY b, visitor_id, ts, name, page`;
}

/** A funnel version's statements over some days: rollup rows (step, visitors) and raw events for the walk. */
export function funnelStatements(
  d: Dialect,
  siteId: string,
  days: DaySources,
  funnel: { id: number; version: number; steps: readonly Matcher[] },
): { rollup: Sql | null; raw: Sql | null } {
  return {
    rollup: days.rollup
      ? sql`SELECT step, sum(visitors) AS visitors FROM ${trusted(FUNNEL_DAILY.name)} WHERE site_id = ${siteId} AND funnel_id = ${integerLiteral(funnel.id)}
          AND version = ${integerLiteral(funnel.version)} AND ${dayRange(d, 'day', days.rollup)} GROUP BY step`
      : null,
    raw: days.raw ? funnelEvents(d, siteId, days.raw, funnel.steps) : null,
  };
}
