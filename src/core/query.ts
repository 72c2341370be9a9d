// The immutable Query value: one statistics request, parsed and validated, in the site's calendar.
// Everything a client can get wrong is rejected here with the catalogue's codes; later stages
// (planner, compiler) only see well-formed values.
import { ApiError, invalidParams } from './errors.js';
import { DIMENSIONS, isDimension, type Dimension } from './dimensions.js';
import { grainFor, previousPeriod, resolvePeriod, type Grain, type Period } from './period.js';
import { isValidTimeZone, localDay } from './localtime.js';

export const METRICS = ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions'] as const;
export type Metric = (typeof METRICS)[number];

export type QueryKind = 'stats' | 'timeseries' | 'breakdown' | 'goals' | 'funnel';

export interface Filter {
  readonly dimension: Dimension;
  readonly value: string;
}

export interface BreakdownParams {
  readonly dimension: Dimension;
  readonly limit: number;
  readonly offset: number;
  readonly search: string | null;
}

/** What the planner decided (see src/stats/planner.ts); absent until planned. */
export interface Plan {
  /** `rollup`: rollups up to the watermark, raw events after it. `raw`: raw events only. */
  readonly path: 'rollup' | 'raw';
  /** Last day covered by rollups; null when none yet. */
  readonly watermark: string | null;
  /** First day of the raw-event window (today − 29). */
  readonly rawWindowStart: string;
  /** First day kept by the site's retention; null for unlimited. */
  readonly retentionStart: string | null;
}

export interface Query {
  readonly kind: QueryKind;
  readonly siteId: string;
  readonly tz: string;
  /** The site-local day of the request's clock. */
  readonly today: string;
  readonly now: number;
  readonly period: Period;
  readonly previous: Period;
  readonly grain: Grain;
  readonly filters: readonly Filter[];
  readonly metric: Metric;
  readonly compare: boolean;
  readonly breakdown: BreakdownParams | null;
  readonly plan: Plan | null;
}

export type RawParams = Record<string, string | string[] | undefined>;

export const BREAKDOWN_LIMIT = { min: 1, max: 1000, default: 100 } as const;
export const BREAKDOWN_OFFSET_MAX = 1_000_000_000;
export const SEARCH_MAX_LENGTH = 256;
const FILTER_VALUE_MAX_LENGTH = 2048;

/** Kinds that take the `filter` parameter (goals and funnels refuse it rather than ignore it). */
const FILTERABLE: Record<QueryKind, boolean> = { stats: true, timeseries: true, breakdown: true, goals: false, funnel: false };

function single(params: RawParams, name: string): string | undefined {
  const v = params[name];
  if (Array.isArray(v)) throw invalidParams(`${name} must be given at most once`);
  return v;
}

function list(params: RawParams, name: string): string[] {
  const v = params[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** A decimal integer in min..max; the bounds quoted in the error are both accepted. */
function integer(text: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  const digits = text.replace(/^0+(?=\d)/, '');
  const n = /^\d+$/.test(digits) && digits.length <= String(max).length ? Number(digits) : NaN;
  if (!(n >= min && n <= max)) throw invalidParams(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

export function parseFilters(texts: readonly string[]): Filter[] {
  const filters: Filter[] = [];
  for (const text of texts) {
    const colon = text.indexOf(':');
    const dimension = colon < 0 ? text : text.slice(0, colon);
    if (!isDimension(dimension)) throw invalidParams(`unknown filter dimension; expected one of ${DIMENSIONS.join(', ')}`);
    const value = colon < 0 ? '' : text.slice(colon + 1);
    if (value === '') throw invalidParams(`filter ${dimension} has an empty value`);
    if (value.length > FILTER_VALUE_MAX_LENGTH) throw invalidParams(`filter ${dimension} value is too long`);
    if (filters.some((f) => f.dimension === dimension)) throw invalidParams(`filter ${dimension} is given twice`);
    filters.push(Object.freeze({ dimension, value }));
  }
  return filters;
}

export interface QuerySite {
  id: string;
  timezone: string;
}

/** Parses a request of one kind against a site and the current instant. */
export function parseQuery(kind: QueryKind, params: RawParams, site: QuerySite, now: number): Query {
  if (!isValidTimeZone(site.timezone)) throw new ApiError('INVALID_TIMEZONE', 'the site has an invalid time zone');
  const today = localDay(now, site.timezone);
  const period = resolvePeriod(
    { period: single(params, 'period'), from: single(params, 'from'), to: single(params, 'to') },
    today,
  );
  const filterTexts = list(params, 'filter');
  if (!FILTERABLE[kind] && filterTexts.length > 0) throw invalidParams(`filters are not accepted here`);
  const filters = parseFilters(filterTexts);

  let metric: Metric = 'visitors';
  let compare = false;
  if (kind === 'timeseries') {
    const m = single(params, 'metric') ?? 'visitors';
    if (!(METRICS as readonly string[]).includes(m)) throw invalidParams(`unknown metric; expected one of ${METRICS.join(', ')}`);
    metric = m as Metric;
    const c = single(params, 'compare') ?? 'false';
    if (c !== 'true' && c !== 'false') throw invalidParams('compare must be true or false');
    compare = c === 'true';
  }

  let breakdown: BreakdownParams | null = null;
  if (kind === 'breakdown') {
    const dimension = single(params, 'dimension');
    if (dimension === undefined) throw invalidParams('dimension is required');
    if (!isDimension(dimension)) throw invalidParams(`unknown dimension; expected one of ${DIMENSIONS.join(', ')}`);
    const search = single(params, 'search');
    if (search !== undefined && search.length > SEARCH_MAX_LENGTH) {
      throw invalidParams(`search must be at most ${SEARCH_MAX_LENGTH} characters`);
    }
    breakdown = Object.freeze({
      dimension,
      limit: integer(single(params, 'limit'), 'limit', BREAKDOWN_LIMIT.min, BREAKDOWN_LIMIT.max, BREAKDOWN_LIMIT.default),
      offset: integer(single(params, 'offset'), 'offset', 0, BREAKDOWN_OFFSET_MAX, 0),
      search: search === undefined || search === '' ? null : search,
    });
  }

  return Object.freeze({
    kind,
    siteId: site.id,
    tz: site.timezone,
    today,
    now,
    period: Object.freeze(period),
    previous: Object.freeze(previousPeriod(period)),
    grain: grainFor(period),
    filters: Object.freeze(filters),
    metric,
    compare,
    breakdown,
    plan: null,
  });
}

/** Which filters a metric takes (docs/api.md, Metrics). */
export function metricTakesFilters(metric: Metric, filters: readonly Filter[]): boolean {
  if (filters.length === 0) return true;
  switch (metric) {
    case 'visitors':
    case 'pageviews':
      return true;
    case 'bounceRate':
    case 'avgDuration':
      return filters.every((f) => f.dimension !== 'page' && f.dimension !== 'event');
    case 'sessions':
    case 'conversions':
      return false;
  }
}
