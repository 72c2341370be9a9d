// What the reads add under a goal filter (docs/api.md, Goal filters): the figures under it are every
// read's (visitors are its converters), and beside them its completions (the events matching it),
// its conversion rate over the visitors of the same read without it, and its revenue goals' revenue.
import type { EventReader } from '../../storage/events/types.js';
import type { BreakdownRow, GoalRevenue } from '../../core/answers.js';
import { METRIC_REGISTRY, type GoalComputation, type Metric, type TrafficComputation } from '../../core/metric-registry.js';
import { GOAL_DIMENSION, goalFilterOf } from '../../core/vocabulary.js';
import { GOAL_MEASURES, measuresOf, round, ZERO_MEASURES, type Measures } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { filterCurrency, goalFilterRevenue, rowGoalFigures } from '../sql/goal-filter.js';
import { goalRevenue } from './goals.js';

/** The query without its goal filter, planned as it is (raw days alone): the read its conversion rates divide by. */
export function withoutGoalFilter(q: PlannedQuery): PlannedQuery {
  return { ...q, filters: q.filters.filter((f) => f.dimension !== GOAL_DIMENSION) };
}

/** The completions of a goal filter are the events it keeps. */
const COMPLETIONS: TrafficComputation = { kind: 'count', measure: 'events' };

/** How a metric is computed under a goal filter: conversions are its completions, any other metric as the registry says. */
export function goalFilterComputation(metric: Metric): TrafficComputation | GoalComputation {
  return metric === 'conversions' ? COMPLETIONS : METRIC_REGISTRY[metric].computation;
}

/** Sets each bucket's `baseVisitors` (the visitors without the goal filter) from the same buckets read without it; a bucket only that read has joins at 0. */
export function addBaseVisitors<K>(buckets: Map<K, Measures>, base: Map<K, Measures>): void {
  for (const [bucket, m] of base) {
    const own = buckets.get(bucket) ?? { ...ZERO_MEASURES };
    own.baseVisitors = m.visitors;
    buckets.set(bucket, own);
  }
}

/**
 * Compiles the revenue of a goal filter's revenue goals over the period (docs/api.md, Revenue); running
 * it gives undefined where the filter names none, null where they count in several currencies or no
 * day of the period is computable.
 */
export function goalFilterRevenueRead(events: EventReader, q: PlannedQuery): () => Promise<GoalRevenue | null | undefined> {
  const currency = filterCurrency(goalFilterOf(q.filters)?.goals ?? []);
  const days = q.plan.period.raw;
  const statement = currency && days ? goalFilterRevenue(events.dialect, q, days, currency) : null;
  return async () => {
    if (!statement) return currency === undefined ? undefined : null;
    const [row] = await events.query<Record<string, unknown>>(statement);
    return goalRevenue(currency!, measuresOf(GOAL_MEASURES, row ?? {}));
  };
}

/**
 * Compiles the rows' goal figures of a goal-filtered breakdown; running it on the page's rows adds to
 * each its completions (`conversions`) and its conversion rate: the row's converters (its `visitors`)
 * over its visitors without the goal filter.
 */
export function rowConversionsRead(events: EventReader, q: PlannedQuery): (rows: BreakdownRow[]) => Promise<void> {
  const days = q.plan.period.raw;
  const statementOf = days && rowGoalFigures(events.dialect, q, days);
  return async (rows) => {
    const found = statementOf && rows.length > 0 ? await events.query<{ k: string; base_visitors: unknown; conversions: unknown }>(statementOf(rows.map((r) => r.key))) : [];
    const byKey = new Map(found.map((r) => [r.k, r]));
    for (const row of rows) {
      const figures = byKey.get(row.key);
      const base = Number(figures?.base_visitors ?? 0);
      row.conversions = Number(figures?.conversions ?? 0);
      row.conversionRate = base > 0 ? round(row.visitors / base, 4) : null;
    }
  };
}
