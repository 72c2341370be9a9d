// What a query may read, known from the query and the calendar alone: the raw-event window, the
// site's retention, and whether the query's shape forces raw events. Pure; the planner's inputs
// (./inputs.ts) ask it what to gather, the planner (./planner.ts) decides with it, and the rollup
// job (./rollups/retention.ts) keeps the same windows.
import { addDays } from '../core/localtime.js';
import { addMonths } from '../core/period.js';
import type { Query } from '../core/query.js';
import { isMetric, METRIC_REGISTRY, type TrafficComputation } from '../core/metric-registry.js';
import { countsSessions } from './measures.js';
import { DIMENSION_SPECS, DIMENSIONS, type Filter, type FilterDimension, GOAL_DIMENSION, isPropertyDimension, NONE_KEY, OTHER_KEY, type QueryDimension, scopeOf } from '../core/vocabulary.js';

/** The first day of a site's raw-event window: its last `rawDays` local days, today included. */
export function rawWindowStart(today: string, rawDays: number): string {
  return addDays(today, -(rawDays - 1));
}

export function retentionStart(today: string, retentionMonths: number | null): string | null {
  return retentionMonths === null ? null : addMonths(today, -retentionMonths);
}

/**
 * Journeys, two or more filters, a filter with another dimension's breakdown, a filter other than
 * `is` one value, a page pattern (a shared link's lock), a property filter on `(none)`, goals under filters or a goal filter:
 * rollups cannot answer them. No rollup holds a session's sequence of pages (session paths do, kept as long as raw events). Rollups hold each page's own figures, and a visitor of two matching
 * pages (or of two keys an `is_not` or `contains` filter keeps) would count twice in their sum;
 * session rows hold no page but the entry and exit; a property's rollups hold a `(none)` row only on
 * the days some event carries it; no rollup holds goals by dimension (goal rows hold them by the
 * keys sessions carry, kept as long as raw events).
 */
export function rawOnlyByFilters(q: Query): boolean {
  const [filter] = q.filters;
  return (
    q.kind === 'journeys' ||
    q.filters.length >= 2 ||
    goalsUnderFilters(q) ||
    hasPagePattern(q) ||
    hasOperator(q) ||
    (filter !== undefined && q.breakdown !== null && q.breakdown.dimension !== filter.dimension) ||
    hasPropertyNone(q) ||
    hasGoalFilter(q) ||
    countsVisits(q)
  );
}

/** Whether a query has a goal filter: no rollup, session row or imported aggregate holds goals by dimension. */
export function hasGoalFilter(q: Query): boolean {
  return q.filters.some((f) => f.dimension === GOAL_DIMENSION);
}

/**
 * Whether a read counts visits under event filters (docs/api.md's rules, for `raw=clip` reads): its
 * per-session measures are asked for (the stats always; a timeseries of a per-session metric; a
 * breakdown's `include` of one) with a filter, or a breakdown, on an event-scoped dimension. Each
 * session holding a matching event counts, with its facts over all its events: rollups and session
 * rows hold no such count, so raw events answer (./sql/visits.ts).
 */
export function countsVisits(q: Query): boolean {
  if (!q.rawClip) return false;
  const perSession = (c: TrafficComputation | { kind: 'goals' }) => c.kind !== 'goals' && countsSessions(c);
  const asked =
    q.kind === 'stats' ||
    (q.kind === 'timeseries' && perSession(METRIC_REGISTRY[q.metric].computation)) ||
    (q.breakdown?.include.some((name) => isMetric(name) && perSession(METRIC_REGISTRY[name].computation)) ?? false);
  const dimensions = [...q.filters.map((f) => f.dimension), ...(q.breakdown ? [q.breakdown.dimension] : [])];
  return asked && dimensions.some((dimension) => scopeOf(dimension) === 'event');
}

/**
 * Whether a query counts goals under filters, and nothing else: the goals read (an extension of the
 * dashboard's mount) or a timeseries of a goal metric. The stats count theirs apart (the planner's `goalSpan`).
 */
export function goalsUnderFilters(q: Query): boolean {
  if (q.filters.length === 0) return false;
  return q.kind === 'goals' || (q.kind === 'timeseries' && METRIC_REGISTRY[q.metric].computation.kind === 'goals');
}

/** Whether a query filters on the events without a property (`prop.<key>:(none)`). */
export function hasPropertyNone(q: Query): boolean {
  return q.filters.some((f) => isPropertyDimension(f.dimension) && f.values.includes(NONE_KEY));
}

/** Whether a query has a filter other than `is` one value (`is_not`, `contains`, several values). */
export function hasOperator(q: Query): boolean {
  return q.filters.some((f) => f.operator !== undefined || f.values.length > 1);
}

/** Whether a query's filters hold a page pattern. */
export function hasPagePattern(q: Query): boolean {
  return q.filters.some((f) => f.pattern);
}

/**
 * Whether a raw-path read has its period's visitors read from rollups: they are the visitors under
 * its filters alone, which rollups answer where the read is what forces raw events. A breakdown's
 * rows' shares under one `is` filter with a breakdown of another dimension; the goals read's
 * conversion rates' base under filters the stats count from rollups. Imported aggregates are left
 * out, as the rows and the conversions leave them out.
 */
export function visitorsFromRollups(q: Query): boolean {
  // `(other)` names no key of raw events: under it, rollups count the folded keys, the rows none.
  if (q.filters[0]?.values.includes(OTHER_KEY) === true || !rawOnlyByFilters(q)) return false;
  if (q.kind === 'breakdown') return !rawOnlyByFilters({ ...q, breakdown: null });
  return q.kind === 'goals' && !rawOnlyByFilters({ ...q, kind: 'stats' });
}

/**
 * The session-scoped dimensions whose keys are few on any site (a country, a browser, a campaign):
 * pair months are written under their keys. Entry and exit pages, referrers, regions and cities
 * have keys by the thousand, and pair months under them would hold rows by the million.
 */
const FEW_KEYS: ReadonlySet<FilterDimension> = new Set(['country', 'browser', 'os', 'device', 'utm_source', 'utm_medium', 'utm_campaign']);

/**
 * The dimensions pair months hold under a filter: the first tab of each of the dashboard's panels
 * (DIMENSION_SPECS), what a filtered view reads first. Pages are most of the rows (8.3 M of 9.3 M for
 * the 10.6 M events of bench/query's year, docs/performance.md): the filtered Pages panel reads
 * them instead of the year's raw events, 0.21 against 1.18 s of the service's CPU on DuckDB.
 */
const PAIRED: ReadonlySet<QueryDimension> = new Set(
  DIMENSIONS.filter((dimension, i) => DIMENSIONS.findIndex((other) => DIMENSION_SPECS[other].tab.panel === DIMENSION_SPECS[dimension].tab.panel) === i),
);

/** Whether pair months (./rollups/pairs.ts) hold `dimension` under a key of `filter`. */
export function pairsWritten(filter: FilterDimension, dimension: QueryDimension): boolean {
  return FEW_KEYS.has(filter) && PAIRED.has(dimension) && dimension !== filter;
}

/**
 * Whether pair months answer a breakdown's whole months: its one filter `is` one value of a
 * session-scoped dimension (not `(other)`, which names no key of raw events), another dimension
 * broken down (pairsWritten), no page lock, and no visits under event filters counted (raw events
 * count those).
 */
export function pairsAnswer(q: Query): boolean {
  const [filter] = q.filters;
  if (q.kind !== 'breakdown' || q.breakdown === null || q.filters.length !== 1 || filter === undefined) return false;
  if (hasOperator(q) || hasPagePattern(q) || q.pageLock !== null || countsVisits(q) || filter.values[0] === OTHER_KEY) return false;
  return pairsWritten(filter.dimension, q.breakdown.dimension);
}

/** Whether a query reads raw events only, whatever the rollups hold. */
export function needsRawEvents(q: Query): boolean {
  return (q.kind === 'timeseries' && q.grain === 'hour') || rawOnlyByFilters(q);
}

/**
 * Whether a filter is a key every event of a session carries (copied from its first event at
 * ingest): a session-scoped dimension but the exit page, which is derived per session.
 */
export function carriedBySession(f: Filter): boolean {
  return scopeOf(f.dimension) === 'session' && f.dimension !== 'exit';
}

/**
 * Whether goal rows answer a read's goals under its filters on rolled-up days: every filter a key
 * sessions carry (goal rows hold those, each conversion under its own), of days, not hours.
 */
export function goalRowsAnswer(q: Query): boolean {
  return !(q.kind === 'timeseries' && q.grain === 'hour') && q.filters.every(carriedBySession);
}

/**
 * Whether session paths answer a journeys read's rolled-up days: every filter a key the session
 * carries (session paths hold those, not pages, events, properties or the exit page), with or
 * without a `page` (each session's list holds every occurrence of it).
 */
export function sessionPathsAnswer(q: Query): boolean {
  return q.kind === 'journeys' && q.filters.every(carriedBySession);
}

/**
 * Whether session rows answer a query's raw-path days: a daily read (stats, day-or-longer
 * timeseries, breakdown, the goals read) whose filters and broken-down dimension are all
 * session-scoped; goals under filters (the goals read, a goal metric's timeseries) only where
 * every filter is a key sessions carry, for goal rows count them.
 */
export function sessionRowsAnswer(q: Query): boolean {
  if (q.kind !== 'stats' && q.kind !== 'breakdown' && q.kind !== 'goals' && !(q.kind === 'timeseries' && q.grain !== 'hour')) return false;
  if (goalsUnderFilters(q) && !goalRowsAnswer(q)) return false;
  if (q.breakdown && scopeOf(q.breakdown.dimension) !== 'session') return false;
  return q.filters.every((f) => scopeOf(f.dimension) === 'session');
}
