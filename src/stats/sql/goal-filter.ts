// The statements only a read under a goal filter makes (docs/api.md, Goal filters): each breakdown
// row's completions and its visitors without the goal filter, and the revenue of the filter's revenue
// goals. The filtered figures themselves are every read's, the goal filter a filter like the others
// (./filters.ts matches an event against its goals).
import { type Dimension, type FilterGoal, goalFilterOf, isPropertyDimension } from '../../core/vocabulary.js';
import type { Period } from '../../core/period.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { GOAL_MEASURES, measureAggregates } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { eventsRelation } from './events.js';
import { filterPredicate, goalPredicate, keyExpr, needsExit, scopedPropertyKey } from './filters.js';
import { goalRevenueColumns } from './goals.js';

/**
 * A goal-filtered breakdown's figures of some of its keys over raw days, in one pass over the events
 * of the other filters: per key, its visitors without the goal filter (summed per day, as every
 * visitor count) and its completions, the events matching the goal filter. Compiled before the page
 * is read, the statement then made for the page's keys (columns k, base_visitors, conversions).
 */
export function rowGoalFigures(d: Dialect, q: PlannedQuery, days: Period): (keys: readonly string[]) => Sql {
  const goal = goalFilterOf(q.filters)!;
  const others = q.filters.filter((f) => f !== goal);
  const dimension = q.breakdown!.dimension;
  const property = isPropertyDimension(dimension) ? dimension : undefined;
  const scope = { siteId: q.siteId, days, filters: others, exit: needsExit(others, dimension), property };
  const key = property ? scopedPropertyKey(d) : keyExpr(dimension as Dimension);
  const events = sql`SELECT ${key} AS k, day, visitor_id, CASE WHEN ${filterPredicate(d, goal)} THEN 1 ELSE 0 END AS hit FROM ${eventsRelation(d, scope)}`;
  const visitors = trusted(d.countVisitorDays('day', 'visitor_id'));
  return (keys) => sql`SELECT k, ${visitors} AS base_visitors, CAST(sum(hit) AS BIGINT) AS conversions
    FROM (${events}) t WHERE k IN (${joinSql(keys.map((k) => sql`${k}`), ', ')}) GROUP BY k`;
}

/**
 * The currency of a goal filter's revenue goals: undefined where it names none, null where they
 * count in several currencies (no sum of them is a figure).
 */
export function filterCurrency(goals: readonly FilterGoal[]): string | null | undefined {
  const currencies = new Set(goals.flatMap((g) => (g.currency ? [g.currency] : [])));
  if (currencies.size === 0) return undefined;
  return currencies.size === 1 ? [...currencies][0]! : null;
}

/**
 * The goal measures (GOAL_MEASURES: conversions, their revenue in `currency` and those in another)
 * of the events under a query's filters, its goal filter's among them, that complete one of its
 * revenue goals, over some raw days. One row.
 */
export function goalFilterRevenue(d: Dialect, q: PlannedQuery, days: Period, currency: string): Sql {
  const goal = goalFilterOf(q.filters)!;
  const paying = goal.goals!.filter((g) => g.currency === currency).map((g) => sql`(${goalPredicate(d, g)})`);
  const scope = { siteId: q.siteId, days, filters: q.filters, exit: needsExit(q.filters) };
  return sql`SELECT ${trusted(measureAggregates(d, GOAL_MEASURES, 'events'))}
    FROM (SELECT visitor_id, ${goalRevenueColumns(currency)} FROM ${eventsRelation(d, scope)} WHERE ${joinSql(paying, ' OR ')}) g`;
}
