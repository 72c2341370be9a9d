// The read API's metrics (docs/api.md, Metrics; not Prometheus's, which are prometheus.ts): one
// registry entry per metric, from which the query parser, the engine and the dashboard derive all
// they know of metrics. How a metric is computed is data (which measures, which ratio, which
// rounding) that src/stats interprets; the dashboard bundles this module, so no engine code here.
import { type Filter, type FilterDimension, GOAL_DIMENSION, scopeOf } from './vocabulary.js';

/** The summed traffic measures metrics are computed from (src/stats/measures.ts aggregates each). */
export type TrafficMeasureName = 'visitors' | 'pageviews' | 'events' | 'sessions' | 'bounces' | 'durationMs';
/**
 * The measures only a read of visits under event filters counts (src/stats/sql/visits.ts; no rollup
 * holds them): the sessions whose bounces count (their landing matched the page and hostname
 * filters; elsewhere every session), and the engaged time of the matching pageviews with the number
 * of them that reported one.
 */
export type VisitMeasureName = 'landings' | 'engagedMs' | 'engagedViews';
/**
 * The visitors of a read with a goal filter counted without it (a goal filter's conversion rate's
 * denominator: src/stats/read/goal-filter.ts reads it apart); no other read has it.
 */
export type BaseMeasureName = 'baseVisitors';
/** What a traffic metric is computed from. */
export type ReadMeasureName = TrafficMeasureName | VisitMeasureName | BaseMeasureName;
/** The summed conversions of a site's goals. */
export type GoalMeasureName = 'conversions' | 'uniqueConversions' | 'revenueMinor' | 'revenueConversions' | 'otherCurrency';

/** How a metric is computed from traffic measures summed over its days. */
export type TrafficComputation =
  /** The sum of one measure. */
  | { readonly kind: 'count'; readonly measure: ReadMeasureName }
  /** numerator / denominator / divideBy, rounded to `digits` decimals; null when the denominator is 0. */
  | {
      readonly kind: 'ratio';
      readonly numerator: ReadMeasureName;
      readonly denominator: ReadMeasureName;
      readonly divideBy: number;
      readonly digits: number;
    };

/** A metric counted over the site's goals (all of them, summed); not computable without goals. */
export interface GoalComputation {
  readonly kind: 'goals';
  readonly measure: GoalMeasureName;
}

/**
 * Which filters a metric takes: any, session-scoped dimensions only (a per-session figure cannot
 * be cut by the events of a session), or none.
 */
export type MetricFilters = 'all' | 'session' | 'none';

/** How the dashboard writes a value: a count, a ratio 0..1 as a percentage, seconds as a duration. */
export type MetricFormat = 'count' | 'ratio' | 'duration';

/** A metric's name on screen is the catalogue's, keyed by the metric (src/core/messages/en/common.ts). */
export interface MetricSpec {
  readonly computation: TrafficComputation | GoalComputation;
  readonly filters: MetricFilters;
  /** Whether a rise is good news (coloured as such on the dashboard). */
  readonly upIsGood: boolean;
  readonly format: MetricFormat;
  /**
   * A figure shown (on the dashboard's tiles, in reports) in another metric's place under a filter on
   * a dimension, and not shown elsewhere.
   */
  readonly shownFor?: { readonly instead: string; readonly filter: FilterDimension };
  /** Not shown (on the dashboard's tiles, in reports) under a filter on this dimension, where another figure says it. */
  readonly hiddenFor?: FilterDimension;
  /** A goal filter's figure only (docs/api.md, Goal filters): answered under one, asked for without one 400. */
  readonly goalFilterOnly?: true;
}

/**
 * The metric registry, one entry per metric, in the order of the `stats` answer and the dashboard's
 * tiles. The query parser, the engine and the dashboard derive everything they know of metrics from it.
 */
const REGISTRY = {
  visitors: { computation: { kind: 'count', measure: 'visitors' }, filters: 'all', upIsGood: true, format: 'count' },
  // Under a goal filter the conversions say it: a page goal's pageviews are its conversions, an event goal has none.
  pageviews: { computation: { kind: 'count', measure: 'pageviews' }, filters: 'all', upIsGood: true, format: 'count', hiddenFor: GOAL_DIMENSION },
  sessions: { computation: { kind: 'count', measure: 'sessions' }, filters: 'none', upIsGood: true, format: 'count' },
  bounceRate: {
    computation: { kind: 'ratio', numerator: 'bounces', denominator: 'landings', divideBy: 1, digits: 4 },
    filters: 'session',
    upIsGood: false,
    format: 'ratio',
  },
  avgDuration: {
    computation: { kind: 'ratio', numerator: 'durationMs', denominator: 'sessions', divideBy: 1000, digits: 1 },
    filters: 'session',
    upIsGood: true,
    format: 'duration',
  },
  // Counted where visits are read under event filters (`raw=clip`), else null: no rollup holds engaged time per page.
  timeOnPage: {
    computation: { kind: 'ratio', numerator: 'engagedMs', denominator: 'engagedViews', divideBy: 1000, digits: 1 },
    filters: 'all',
    upIsGood: true,
    format: 'duration',
    shownFor: { instead: 'avgDuration', filter: 'page' },
  },
  // Under filters, within the raw window (src/stats/planner.ts, `goalSpan`): from goal rows where sessions carry every filter, else raw events.
  conversions: { computation: { kind: 'goals', measure: 'conversions' }, filters: 'all', upIsGood: true, format: 'count' },
  // Under a goal filter only (`raw=clip`): its converters over the visitors of the same read without it.
  conversionRate: {
    computation: { kind: 'ratio', numerator: 'visitors', denominator: 'baseVisitors', divideBy: 1, digits: 4 },
    filters: 'all',
    upIsGood: true,
    format: 'ratio',
    shownFor: { instead: 'bounceRate', filter: GOAL_DIMENSION },
    goalFilterOnly: true,
  },
} satisfies Record<string, MetricSpec>;

export type Metric = keyof typeof REGISTRY;
export const METRIC_REGISTRY: Readonly<Record<Metric, MetricSpec>> = REGISTRY;
export const METRICS = Object.keys(REGISTRY) as readonly Metric[];
export const DEFAULT_METRIC: Metric = 'visitors';

/**
 * The metrics shown under these filters, in registry order: a metric shown for a filter (`shownFor`)
 * takes the place of the one it stands in for where the filters hold its dimension, and is left out
 * elsewhere; one hidden for a filter (`hiddenFor`) is left out under it.
 */
export function shownMetrics(filters: readonly Filter[]): Metric[] {
  const shown = (m: Metric) => {
    const stand = METRIC_REGISTRY[m].shownFor;
    return stand !== undefined && filters.some((f) => f.dimension === stand.filter);
  };
  return METRICS.flatMap((m) => {
    const hiddenFor = METRIC_REGISTRY[m].hiddenFor;
    if (METRIC_REGISTRY[m].shownFor || (hiddenFor !== undefined && filters.some((f) => f.dimension === hiddenFor))) return [];
    const standIn = METRICS.find((other) => METRIC_REGISTRY[other].shownFor?.instead === m && shown(other));
    return [standIn ?? m];
  });
}

/** The metrics a request under these filters answers (`stats`) or may ask for (`timeseries`): a goal filter's own only under one. */
export function metricsUnder(filters: readonly Filter[]): Metric[] {
  const goal = filters.some((f) => f.dimension === GOAL_DIMENSION);
  return METRICS.filter((m) => goal || METRIC_REGISTRY[m].goalFilterOnly !== true);
}

export function isMetric(text: string): text is Metric {
  return (METRICS as readonly string[]).includes(text);
}

/**
 * Whether a metric takes the given filters (the others answer null, or 400 on a timeseries). A read
 * with `raw=clip` (the dashboard's) takes every filter for every metric: visits, bounce rate and
 * duration are then counted over the sessions holding a matching event (src/stats/sql/visits.ts).
 */
export function metricTakesFilters(metric: Metric, filters: readonly Filter[], rawClip = false): boolean {
  if (filters.length === 0 || rawClip) return true;
  switch (METRIC_REGISTRY[metric].filters) {
    case 'all':
      return true;
    case 'session':
      return filters.every((f) => scopeOf(f.dimension) === 'session');
    case 'none':
      return false;
  }
}

/** Two ratios' difference in percentage points, rounded to the tenth it is written with. */
export const pointsBetween = (value: number, prev: number): number => Math.round((value - prev) * 1000) / 10;

/** Whether a change of a metric is good news: a rise of one whose rise is good, else a fall. */
export function changeIsGood(metric: Metric, deltaPct: number): boolean {
  return METRIC_REGISTRY[metric].upIsGood ? deltaPct > 0 : deltaPct < 0;
}
