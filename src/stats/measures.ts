// The measure registry: every number the statistics are made of, declared once with the aggregate
// that computes it and the column that holds it. The compiler's select lists (src/stats/sql),
// the row addition of the read modules (src/stats/read), and the rollup tables' columns and insert
// lists (src/stats/rollups) are generated from these declarations.
//
// Every measure is a sum over days of a daily value (visitors are a day's distinct count, summed),
// which is what lets the planner take some days from rollups and the rest from raw events; the
// metrics of docs/api.md are those sums or ratios of them, as the metric registry
// (src/core/metric-registry.ts) declares and `metricValue` computes.
import type { BaseMeasureName, GoalMeasureName, ReadMeasureName, TrafficComputation, TrafficMeasureName, VisitMeasureName } from '../core/metric-registry.js';
import { BUILT_IN_EVENTS } from '../ingest/event-shape.js';
import type { Dialect } from '../sql/dialect.js';

/** Engaged time from which a session does not bounce. */
export const NON_BOUNCE_ENGAGED_MS = 10_000;

export const IS_PAGEVIEW = `name = 'pageview'`;
export const IS_ENGAGE = `name = 'engage'`;
/**
 * Rows counted as a signed 64-bit integer, as every count of the Dialect is: measure rows of rollups
 * (BIGINT) and of raw events are unioned, and ClickHouse's own count (UInt64) unions with no signed type.
 */
const COUNT_ROWS = 'CAST(count(*) AS BIGINT)';
/** Any name but the built-in ones is a custom event (which prevents a bounce). */
const CUSTOM_EVENT = `name NOT IN (${BUILT_IN_EVENTS.map((n) => `'${n}'`).join(', ')})`;

export interface MeasureSpec {
  /** The column of measure rows and rollup tables that holds it. */
  readonly column: string;
  /** What it is aggregated over: event rows, or one row of facts per session (`SESSION_FACTS`). */
  readonly over: 'events' | 'sessions';
  /** The aggregate, as SQL text of the dialect. */
  aggregate(d: Dialect): string;
}

/** The traffic measures, in the column order of measure rows and rollup tables. */
export const TRAFFIC_MEASURES = {
  /** Distinct visitors of the bucket (a day's count is the day's visitors; days are summed). */
  visitors: { column: 'visitors', over: 'events', aggregate: (d) => d.countDistinct('visitor_id') },
  pageviews: { column: 'pageviews', over: 'events', aggregate: (d) => d.countIf(IS_PAGEVIEW) },
  /** Every kept event: the `views` of an event breakdown. */
  events: { column: 'events', over: 'events', aggregate: () => COUNT_ROWS },
  /** Sessions whose first event is in the bucket. */
  sessions: { column: 'sessions', over: 'events', aggregate: (d) => d.countIf('session_start') },
  bounces: { column: 'bounces', over: 'sessions', aggregate: (d) => d.countIf(sessionBounced('')) },
  durationMs: { column: 'duration_ms', over: 'sessions', aggregate: () => `sum(${sessionDuration('')})` },
} as const satisfies Record<TrafficMeasureName, MeasureSpec>;

/** A session bounces unless it has at least so much of one of its facts: 2 pageviews, a custom event, 10 s of engaged time. */
const KEPT_FROM = [
  ['pageviews', 2],
  ['customs', 1],
  ['engaged_ms', NON_BOUNCE_ENGAGED_MS],
] as const satisfies ReadonlyArray<readonly [FactColumn, number]>;

/** Whether a session bounces, over its facts (SESSION_FACTS, their columns named with `prefix`). */
export function sessionBounced(prefix: string): string {
  return `NOT (${KEPT_FROM.map(([fact, least]) => `${prefix}${fact} >= ${least}`).join(' OR ')})`;
}

/** A session's duration over its facts: engaged time, or last − first event without engagement, in ms. */
export function sessionDuration(prefix: string): string {
  return `CASE WHEN ${prefix}engages > 0 THEN ${prefix}engaged_ms ELSE ${prefix}last_ts - ${prefix}first_ts END`;
}

/** The fact columns of rows that carry a session's facts beside other columns, prefixed: ClickHouse would read an alias named as a column (`engaged_ms`) inside the aggregates. */
export const PART_FACT_PREFIX = 'f_';

type FactColumn = (typeof SESSION_FACTS)[number]['column'];

/**
 * Every traffic measure over session rows (src/stats/rollups/tables.ts, SESSION_ROWS): one row per
 * session and local day it has events on, holding that day's visitor hash and counts, and, on the
 * row of the day it starts (`starts` 1), whether the session bounced and its duration. The same
 * sums as over raw events, per day (`bucket` 'day') or over all the days read at once ('days').
 */
export const SESSION_ROW_AGGREGATES: Record<TrafficMeasure, (d: Dialect, bucket: 'day' | 'days') => string> = {
  // Over several days, the distinct (day, visitor hash) pairs: the sum of the days' distinct visitors.
  visitors: (d, bucket) => (bucket === 'day' ? d.countDistinct('visitor_id') : d.countVisitorDays('day', 'visitor_id')),
  pageviews: () => 'sum(pageviews)',
  events: () => 'sum(events)',
  sessions: () => 'sum(starts)',
  bounces: () => 'sum(bounces)',
  durationMs: () => 'sum(duration_ms)',
};

/** `aggregate AS column, …` of every traffic measure over session rows, in registry order; the per-session ones 0 without `sessions`. */
export function sessionRowAggregates(d: Dialect, bucket: 'day' | 'days', sessions: boolean): string {
  return (Object.entries(TRAFFIC_MEASURES) as Array<[TrafficMeasure, MeasureSpec]>)
    .map(([name, m]) => `${sessions || m.over === 'events' ? SESSION_ROW_AGGREGATES[name](d, bucket) : '0'} AS ${m.column}`)
    .join(', ');
}

export type TrafficMeasure = keyof typeof TRAFFIC_MEASURES;

/**
 * The columns of the measures that only reads of visits under event filters count (./sql/visits.ts),
 * after the traffic measures' columns of their rows.
 */
export const VISIT_MEASURE_COLUMNS = { landings: 'landings', engagedMs: 'page_engaged_ms', engagedViews: 'page_engages' } as const satisfies Record<VisitMeasureName, string>;
const VISIT_COLUMN_LIST: ReadonlyArray<[VisitMeasureName, string]> = Object.entries(VISIT_MEASURE_COLUMNS) as Array<[VisitMeasureName, string]>;

/**
 * Summed traffic measures of some days (or one day, or one hour). A measure is null where every row
 * summed lacks it: imported aggregates of a table without its column hold it unknown (NULL), which a
 * sum leaves out (docs/imports.md, "Older exports"). Every table has visitors. The visit measures
 * are there where the rows are visits under event filters.
 */
export type Measures = Record<TrafficMeasure, number | null> & { visitors: number } & Partial<Record<VisitMeasureName | BaseMeasureName, number>>;

/**
 * Conversions of a goal per day: events matching it, and distinct visitors among them; for a revenue
 * goal, the revenue in its currency (minor units), the conversions that carried it, and those whose
 * revenue was in another currency. Aggregated over goal rows (src/stats/sql/goals.ts, measureGoals):
 * `paid` 1 for revenue in the goal's currency and `rm` its minor units (else 0), `other` 1 for revenue
 * in another currency.
 */
export const GOAL_MEASURES = {
  conversions: { column: 'conversions', over: 'events', aggregate: () => COUNT_ROWS },
  uniqueConversions: { column: 'unique_conversions', over: 'events', aggregate: (d) => d.countDistinct('visitor_id') },
  revenueMinor: { column: 'revenue_minor', over: 'events', aggregate: () => 'CAST(coalesce(sum(rm), 0) AS BIGINT)' },
  revenueConversions: { column: 'revenue_conversions', over: 'events', aggregate: () => 'CAST(sum(paid) AS BIGINT)' },
  otherCurrency: { column: 'other_currency', over: 'events', aggregate: () => 'CAST(sum(other) AS BIGINT)' },
} as const satisfies Record<GoalMeasureName, MeasureSpec>;

export type GoalMeasure = keyof typeof GOAL_MEASURES;
export type GoalCounts = Record<GoalMeasure, number>;

type Registry = Record<string, MeasureSpec>;

/** The columns of a registry's measures, in order (optionally only those aggregated over `over`). */
export function measureColumns(registry: Registry, over?: MeasureSpec['over']): string[] {
  return Object.values(registry)
    .filter((m) => over === undefined || m.over === over)
    .map((m) => m.column);
}

/** `aggregate AS column, …` of a registry's measures aggregated over `over`. */
export function measureAggregates(d: Dialect, registry: Registry, over: MeasureSpec['over']): string {
  return Object.values(registry)
    .filter((m) => m.over === over)
    .map((m) => `${m.aggregate(d)} AS ${m.column}`)
    .join(', ');
}

/** Each registry's measure names with their columns, listed once: a read converts a row per day. */
const namedColumns = new WeakMap<Registry, Array<[string, string]>>();

function columnsOf(registry: Registry): Array<[string, string]> {
  let columns = namedColumns.get(registry);
  if (!columns) namedColumns.set(registry, (columns = Object.entries(registry).map(([name, m]) => [name, m.column])));
  return columns;
}

/** The measures of a result row (engines return counts as bigints or numbers). */
export function measuresOf<R extends Registry>(registry: R, row: Record<string, unknown>): Record<keyof R, number> {
  const out = {} as Record<string, number>;
  for (const [name, column] of columnsOf(registry)) out[name] = Number(row[column]);
  return out as Record<keyof R, number>;
}

/** The traffic measures of a result row, a NULL (a measure imported aggregates lack) as null. */
export function trafficOf(row: Record<string, unknown>): Measures {
  const out = {} as Record<string, number | null>;
  for (const [name, column] of columnsOf(TRAFFIC_MEASURES)) out[name] = row[column] === null ? null : Number(row[column]);
  if (VISIT_MEASURE_COLUMNS.landings in row) for (const [name, column] of VISIT_COLUMN_LIST) out[name] = Number(row[column]);
  return out as Measures;
}

export function addMeasures<M extends Record<string, number | null>>(a: M, b: M): M {
  const out = { ...a };
  addInto(out, b);
  return out;
}

/** Adds `b` into `total`, a sum being built (never a value shared with others); a null (unknown) part is left out, as SQL's sum() does. */
export function addInto<M extends Record<string, number | null>>(total: M, b: M): void {
  for (const name in b) {
    const [x, y] = [total[name], b[name]!];
    total[name] = (x === null || x === undefined ? y : y === null ? x : x + y) as M[typeof name];
  }
}

/** Every measure of a registry at 0. */
export function zeroOf<R extends Registry>(registry: R): Record<keyof R, number> {
  return Object.fromEntries(Object.keys(registry).map((name) => [name, 0])) as Record<keyof R, number>;
}

export const ZERO_MEASURES: Measures = Object.freeze(zeroOf(TRAFFIC_MEASURES));

/** A fact of one session: an aggregate over its events, and how the facts of its parts (one per day) make the session's. */
interface SessionFact {
  readonly column: string;
  aggregate(d: Dialect): string;
  readonly combine: 'sum' | 'min' | 'max';
}

/**
 * The facts of one session that its measures are aggregated from (`over: 'sessions'`), in the
 * column order of session-facts rows.
 */
export const SESSION_FACTS = [
  { column: 'pageviews', aggregate: (d: Dialect) => d.countIf(IS_PAGEVIEW), combine: 'sum' },
  { column: 'customs', aggregate: (d: Dialect) => d.countIf(CUSTOM_EVENT), combine: 'sum' },
  { column: 'engaged_ms', aggregate: (d: Dialect) => `coalesce(${d.sumIf('engaged_ms', IS_ENGAGE)}, 0)`, combine: 'sum' },
  { column: 'engages', aggregate: (d: Dialect) => d.countIf(IS_ENGAGE), combine: 'sum' },
  { column: 'first_ts', aggregate: () => 'min(ts)', combine: 'min' },
  { column: 'last_ts', aggregate: () => 'max(ts)', combine: 'max' },
] as const satisfies readonly SessionFact[];

export const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * The mean of `count` whole numbers ≥ 0 summing to `total`, rounded half up to a whole number, in
 * integer arithmetic (an average in minor units, a mean scroll depth in percent).
 */
export function meanHalfUp(total: number, count: number): number {
  const [sum, n] = [BigInt(total), BigInt(count)];
  return Number((2n * sum + n) / (2n * n));
}

/** A traffic metric's value over summed measures; null where it is not computable, or unknown. */
export function metricValue(c: TrafficComputation, m: Measures): number | null {
  if (c.kind === 'count') return measureOf(m, c.measure);
  const [numerator, denominator] = [measureOf(m, c.numerator), measureOf(m, c.denominator)];
  return numerator !== null && denominator !== null && denominator > 0 ? round(numerator / denominator / c.divideBy, c.digits) : null;
}

/**
 * A measure of summed rows. Rows that are not visits under event filters have no visit measures:
 * every session's bounce counts there (its landings are its sessions), and no engaged time per page is known.
 */
function measureOf(m: Measures, name: ReadMeasureName): number | null {
  if (name === 'baseVisitors') return m.baseVisitors ?? null;
  if (!isVisitMeasure(name)) return m[name];
  return m[name] ?? (name === 'landings' ? m.sessions : null);
}

const isVisitMeasure = (name: ReadMeasureName): name is VisitMeasureName => name in VISIT_MEASURE_COLUMNS;

/** Whether a traffic metric is counted over sessions: a count of them, or a figure of their facts. */
export function countsSessions(c: TrafficComputation): boolean {
  return needsSessions(c) || (c.kind === 'count' ? c.measure === 'sessions' : c.denominator === 'sessions');
}

/** Whether a traffic metric needs the per-session measures (those aggregated over session facts, and the visit measures). */
export function needsSessions(c: TrafficComputation): boolean {
  const measures = c.kind === 'count' ? [c.measure] : [c.numerator, c.denominator];
  return measures.some((name) => name !== 'baseVisitors' && (isVisitMeasure(name) || TRAFFIC_MEASURES[name].over === 'sessions'));
}
