// The immutable Query value: one statistics request, parsed and validated, in the site's calendar.
// Everything a client can get wrong is rejected here with the catalogue's codes; later stages
// (planner, compiler) only see well-formed values.
import { apiError, type ApiError } from './errors.js';
import {
  comparedPeriod,
  elapsedPart,
  FIRST_DAY,
  grainFor,
  isValidDay,
  LAST_DAY,
  MAX_PERIOD_DAYS,
  periodDays,
  presetPeriod,
  previousPeriod,
  type DayCut,
  type Period,
} from './period.js';
import { isValidTimeZone, localDay } from './localtime.js';
import { PAGE_PATTERN_LIMITS, pagePatternIsLiteral, pagePatternProblem, type PagePatternProblem } from './patterns.js';
import {
  BREAKDOWN_LIMIT,
  BREAKDOWN_INCLUDES,
  CONTAINS_TEXT_LENGTH,
  DEFAULT_COMPARISON,
  DEFAULT_PRESET,
  DIMENSIONS,
  FILTER_VALUES_MAX,
  FILTER_VALUES_TOTAL_MAX,
  FILTERS_MAX,
  GOAL_DIMENSION,
  goalFilterOf,
  isBreakdownInclude,
  isFilterDimension,
  lockSharesGoals,
  isQueryDimension,
  JOURNEY_DIRECTIONS,
  JOURNEY_LIMIT,
  JOURNEY_STEPS,
  PROPERTY_KEY_LENGTH,
  PROPERTY_PREFIX,
  RAW_CLIP,
  splitFilterParam,
  makeFilter,
  PAGE_VALUED_DIMENSIONS,
  PRESETS,
  type Preset,
  type BreakdownInclude,
  type Comparison,
  type QueryDimension,
  type Filter,
  type FilterGoal,
  type Grain,
  type JourneyDirection,
} from './vocabulary.js';
import { DEFAULT_METRIC, isMetric, type Metric, metricsUnder } from './metric-registry.js';
import { PERIOD_PARAMS, QUERY_PARAMS, type ChoiceParam, type IntegerParam } from './query-params.js';

export type QueryKind = 'stats' | 'timeseries' | 'breakdown' | 'goals' | 'funnel' | 'journeys';

export interface BreakdownParams {
  readonly dimension: QueryDimension;
  readonly limit: number;
  readonly offset: number;
  readonly search: string | null;
  /** What the rows add (`include=`, comma-separated), in the order asked. */
  readonly include: readonly BreakdownInclude[];
}

export interface JourneyParams {
  /** How many paths a row holds at most. */
  readonly steps: number;
  /** The path the rows start at (`next`) or end at (`previous`); null: the rows are the journeys' first paths. */
  readonly page: string | null;
  readonly direction: JourneyDirection;
  readonly limit: number;
}

export interface Query {
  readonly kind: QueryKind;
  readonly siteId: string;
  readonly tz: string;
  /** The site-local day of the request's clock. */
  readonly today: string;
  readonly now: number;
  readonly period: Period;
  /** What the period is compared with (stats and timeseries choose; other kinds compare with the previous period). */
  readonly comparison: Comparison;
  /**
   * The compared period: the previous one or the same days a year earlier, cut to the period's
   * elapsed part when asked. Under comparison `off`, the previous period, which the plan leaves unread.
   */
  readonly previous: Period;
  /** Where the compared period is an elapsed part, how much of its last day counts; null otherwise. */
  readonly previousCut: DayCut | null;
  readonly grain: Grain;
  readonly filters: readonly Filter[];
  /**
   * A shared link's lock on `page` (one of `filters`), null without one: the pages its answers may
   * name. An entry or exit page or a journey's step outside it reads as OTHER_PAGE_KEY.
   */
  readonly pageLock: Filter | null;
  readonly metric: Metric;
  readonly compare: boolean;
  readonly breakdown: BreakdownParams | null;
  readonly journey: JourneyParams | null;
  /**
   * `raw=clip` (stats, timeseries, breakdown; goals as an extension): where the read needs raw events and the period starts
   * before the raw window, the planner reads the part inside it (`clippedQuery`) instead of refusing.
   */
  readonly rawClip: boolean;
}

export type RawParams = Record<string, string | string[] | undefined>;

const FILTER_VALUE_MAX_LENGTH = 2048;

/** Kinds that take `raw=clip`. */
const CLIPPABLE: ReadonlySet<QueryKind> = new Set(['stats', 'timeseries', 'breakdown', 'journeys']);

/** Kinds that take the `filter` parameter (goals and funnels refuse it rather than ignore it). */
const FILTERABLE: Record<QueryKind, boolean> = { stats: true, timeseries: true, breakdown: true, goals: false, funnel: false, journeys: true };

/**
 * What a mount adds to the read API's parameters. `filteredGoals` (the dashboard's mount): goals
 * take `filter` and `raw=clip`, counted from raw events like a read with two filters.
 */
export interface QueryExtensions {
  readonly filteredGoals?: boolean;
}

const takesFilters = (kind: QueryKind, ext: QueryExtensions) => FILTERABLE[kind] || (kind === 'goals' && ext.filteredGoals === true);
const takesRawClip = (kind: QueryKind, ext: QueryExtensions) => CLIPPABLE.has(kind) || (kind === 'goals' && ext.filteredGoals === true);

/** A parameter given at most once. */
export function single(params: RawParams, name: string): string | undefined {
  const v = params[name];
  if (Array.isArray(v)) throw apiError('INVALID_PARAMS', 'repeated', { name });
  return v;
}

function list(params: RawParams, name: string): string[] {
  const v = params[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The additions a breakdown's rows are asked for: each one known, for its dimension and filters (BREAKDOWN_INCLUDES). */
function breakdownIncludes(texts: readonly string[], dimension: QueryDimension, filters: readonly Filter[]): BreakdownInclude[] {
  const names = [...new Set(texts.flatMap((t) => t.split(',')))];
  for (const name of names) {
    const rule = isBreakdownInclude(name) ? BREAKDOWN_INCLUDES[name] : null;
    if (!rule || (rule.dimension !== null && rule.dimension !== dimension) || (!rule.filters && filters.length > 0)) {
      throw apiError('INVALID_PARAMS', 'breakdownInclude', { include: name.slice(0, 64) });
    }
  }
  return names as BreakdownInclude[];
}

/** A decimal integer in the parameter's minimum..maximum; the bounds quoted in the error are both accepted. */
function integer(params: RawParams, { name, schema }: IntegerParam, fallback: number): number {
  const text = single(params, name);
  if (text === undefined) return fallback;
  const { minimum: min, maximum: max } = schema;
  const digits = text.replace(/^0+(?=\d)/, '');
  const n = /^\d+$/.test(digits) && digits.length <= String(max).length ? Number(digits) : NaN;
  if (!(n >= min && n <= max)) throw apiError('INVALID_PARAMS', 'outOfRange', { name, min, max });
  return n;
}

/** One of the parameter's values, or `fallback` without it. */
function choice<V extends string>(params: RawParams, { name, schema }: ChoiceParam<V>, fallback: V): V {
  const text = single(params, name) ?? fallback;
  if (!(schema.enum as readonly string[]).includes(text)) throw apiError('INVALID_PARAMS', 'oneOf', { name, values: schema.enum.join(', ') });
  return text as V;
}

/** A `true` or `false` parameter, false without it. */
function flag(params: RawParams, { name, schema }: ChoiceParam<'true' | 'false'>): boolean {
  const text = single(params, name) ?? 'false';
  if (!schema.enum.includes(text as 'true' | 'false')) throw apiError('INVALID_PARAMS', 'boolean', { name });
  return text === 'true';
}

/** A journeys request's own parameters: `steps`, `page`, `direction` and `limit`. */
function journeyParams(params: RawParams): JourneyParams {
  const page = single(params, QUERY_PARAMS.page.name);
  const { maxLength } = QUERY_PARAMS.page.schema;
  if (page !== undefined && (!page.startsWith('/') || page.length > maxLength)) throw apiError('INVALID_PARAMS', 'journeyPage', { max: maxLength });
  const asked = choice(params, QUERY_PARAMS.direction, JOURNEY_DIRECTIONS[0]);
  // Without a page, journeys' rows (docs/api.md) are the journeys' first paths whatever the direction: they end at no page.
  const direction = page === undefined ? JOURNEY_DIRECTIONS[0] : asked;
  return Object.freeze({
    steps: integer(params, QUERY_PARAMS.steps, JOURNEY_STEPS.default),
    page: page ?? null,
    direction,
    limit: integer(params, QUERY_PARAMS.journeyLimit, JOURNEY_LIMIT.default),
  });
}

export function parseFilters(texts: readonly string[]): Filter[] {
  if (texts.length > FILTERS_MAX) throw apiError('INVALID_PARAMS', 'filterCount', { max: FILTERS_MAX });
  const filters: Filter[] = [];
  let values = 0;
  for (const text of texts) {
    const { dimension, operator, value } = splitFilterParam(text) ?? { dimension: text, operator: 'is' as const, value: '' };
    if (!isFilterDimension(dimension)) {
      if (dimension.startsWith(PROPERTY_PREFIX)) throw apiError('INVALID_PARAMS', 'filterPropertyKey', PROPERTY_KEY_LENGTH);
      throw apiError('INVALID_PARAMS', 'filterDimension', { dimensions: DIMENSIONS.join(', ') });
    }
    // The whole text is bounded before it is split: a value list is read in one pass.
    if (value.length > FILTER_VALUE_MAX_LENGTH) throw apiError('INVALID_PARAMS', 'filterTooLong', { dimension, max: FILTER_VALUE_MAX_LENGTH });
    const filter = makeFilter(dimension, operator, value);
    if (filter.values.length > FILTER_VALUES_MAX) throw apiError('INVALID_PARAMS', 'filterValues', { dimension, max: FILTER_VALUES_MAX });
    if (filter.values.includes('')) throw apiError('INVALID_PARAMS', 'filterEmpty', { dimension });
    const max = operator === 'contains' ? CONTAINS_TEXT_LENGTH.max : FILTER_VALUE_MAX_LENGTH;
    if (filter.values.some((v) => v.length > max)) throw apiError('INVALID_PARAMS', 'filterTooLong', { dimension, max });
    if (dimension === GOAL_DIMENSION) checkGoalFilter(filter);
    if (filters.some((f) => f.dimension === dimension)) throw apiError('INVALID_PARAMS', 'filterTwice', { dimension });
    values += filter.values.length;
    if (values > FILTER_VALUES_TOTAL_MAX) throw apiError('INVALID_PARAMS', 'filterValuesTotal', { max: FILTER_VALUES_TOTAL_MAX });
    filters.push(Object.freeze(filter));
  }
  return filters;
}

/** A goal id as the admin API gives it: a positive integer, written without leading zeros. */
const GOAL_ID = /^[1-9]\d{0,15}$/;

/** A goal filter names goals by their ids and takes `is` only (a goal completed or not is no text to compare). */
function checkGoalFilter(filter: Filter): void {
  if (filter.operator !== undefined) throw apiError('INVALID_PARAMS', 'filterGoalOperator');
  const bad = filter.values.find((v) => !GOAL_ID.test(v));
  if (bad !== undefined) throw apiError('INVALID_PARAMS', 'filterGoalId', { value: bad.slice(0, 64) });
}

/** The kinds a goal filter is read by, and those that read it with `raw=clip` only (conversions under any filter are raw reads). */
const GOAL_FILTER_KINDS: ReadonlySet<QueryKind> = new Set(['stats', 'timeseries', 'breakdown', 'goals']);
const GOAL_FILTER_CLIPPED: ReadonlySet<QueryKind> = new Set(['stats', 'timeseries', 'breakdown']);

/** The goals a goal filter names, in its order; 400 naming the first id no goal of `goals` has. */
export function goalsOfFilter<G extends { goalId: number }>(filter: Filter, goals: readonly G[]): G[] {
  return filter.values.map((id) => {
    const goal = goals.find((g) => String(g.goalId) === id);
    if (!goal) throw apiError('INVALID_PARAMS', 'filterGoalUnknown', { goalId: id });
    return goal;
  });
}

/**
 * The query with its goal filter's goals resolved from the site's goals (`goals`, as the meta store
 * lists them), so that planning and compiling need no store; an id no goal of the site has is 400.
 * A query without a goal filter is returned as it is.
 */
export function resolveGoalFilter(q: Query, goals: readonly FilterGoal[]): Query {
  const filter = goalFilterOf(q.filters);
  if (!filter) return q;
  const resolved = goalsOfFilter(filter, goals);
  const withGoals = Object.freeze({ ...filter, goals: Object.freeze(resolved) });
  return Object.freeze({ ...q, filters: Object.freeze(q.filters.map((f) => (f === filter ? withGoals : f))) });
}

/** A page pattern's problem as the refusal a client reads, naming the request's `field`. */
export function pagePatternError(problem: PagePatternProblem, field: string): ApiError {
  switch (problem.rule) {
    case 'start':
      return apiError('INVALID_PARAMS', 'pagePatternStart', { field });
    case 'length':
      return apiError('INVALID_PARAMS', 'pagePatternLength', { field, max: PAGE_PATTERN_LIMITS.maxLength });
    case 'wildcards':
      return apiError('INVALID_PARAMS', 'pagePatternWildcards', { field, max: PAGE_PATTERN_LIMITS.maxWildcards, wildcards: problem.wildcards });
  }
}

/**
 * A shared link's locked filters (docs/accounts.md, Shared links): the read API's filters, but for a
 * `page` value with wildcards under `is`, which is a page pattern of the goals' syntax, checked by its
 * rules (the other operators take their value literally).
 */
export function parseLockedFilters(texts: readonly string[]): Filter[] {
  return parseFilters(texts).map((filter, i) => {
    // A goal filter reads the site's goals, not a value a link's reader may be limited to: no link is locked to one.
    if (filter.dimension === GOAL_DIMENSION) throw apiError('INVALID_PARAMS', 'lockedGoalFilter');
    if (filter.dimension !== 'page' || filter.operator !== undefined || filter.values.every(pagePatternIsLiteral)) return filter;
    for (const value of filter.values) {
      const problem = pagePatternProblem(value);
      if (problem) throw pagePatternError(problem, `filters[${i}]`);
    }
    return Object.freeze({ ...filter, pattern: true as const });
  });
}

export interface PeriodParams {
  period?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The period of a request: from+to take priority over a preset; 30d by default. `firstDataDay` as
 * `presetPeriod` takes it.
 */
export function resolvePeriod(params: PeriodParams, today: string, firstDataDay?: string | null): Period {
  const { from, to } = params;
  if (from !== undefined || to !== undefined) {
    if (from === undefined || to === undefined) throw apiError('INVALID_PARAMS', 'periodBounds');
    for (const [name, day] of [['from', from], ['to', to]] as const) {
      if (!isValidDay(day)) throw apiError('INVALID_PARAMS', 'day', { name, first: FIRST_DAY, last: LAST_DAY });
    }
    if (from > to) throw apiError('INVALID_PERIOD', 'reversed');
    if (periodDays({ from, to }) > MAX_PERIOD_DAYS) {
      throw apiError('INVALID_PERIOD', 'tooLong', { max: MAX_PERIOD_DAYS });
    }
    return { from, to };
  }
  const preset = params.period ?? DEFAULT_PRESET;
  if (!(PRESETS as readonly string[]).includes(preset)) {
    throw apiError('INVALID_PARAMS', 'period', { presets: PRESETS.join(', ') });
  }
  return presetPeriod(preset as Preset, today, firstDataDay);
}

export interface QuerySite {
  id: string;
  timezone: string;
  /**
   * The site's first day with data, collected or imported (null when none): what `period=all`
   * starts from, gathered by the caller for such a request (src/stats/first-data-day.ts).
   */
  firstDataDay?: string | null;
}

/** The period parameters of a request (`period`, or `from` and `to`) in the site's calendar, with the site-local day of `now`. */
export function requestPeriod(params: RawParams, site: QuerySite, now: number): { today: string; period: Period } {
  if (!isValidTimeZone(site.timezone)) throw apiError('INVALID_TIMEZONE', 'site');
  const today = localDay(now, site.timezone);
  const [period, from, to] = PERIOD_PARAMS.map((param) => single(params, param.name));
  return { today, period: resolvePeriod({ period, from, to }, today, site.firstDataDay) };
}

/**
 * Parses a request of one kind against a site and the current instant. `locked` are a shared link's
 * filters (`parseLockedFilters`): the request's own filter on a dimension locked to a value gives way
 * to it; the others (on other dimensions, or on `page` under a page pattern) add to them.
 */
export function parseQuery(kind: QueryKind, params: RawParams, site: QuerySite, now: number, locked: readonly string[] = [], ext: QueryExtensions = {}): Query {
  const { today, period } = requestPeriod(params, site, now);
  const lockedFilters = parseLockedFilters(locked);
  // A filter on a dimension locked to a value would replace it: it gives way. Under a page pattern,
  // the request's own page filter applies too (both must match), so it can only narrow the pattern.
  const lockedDimensions = new Set<string>(lockedFilters.filter((f) => !f.pattern).map((f) => f.dimension));
  const filterTexts = list(params, QUERY_PARAMS.filter.name).filter((text) => !lockedDimensions.has(splitFilterParam(text)?.dimension ?? text));
  if (!takesFilters(kind, ext) && filterTexts.length + lockedFilters.length > 0) throw apiError('INVALID_PARAMS', 'filtersRefused');
  // The request's own filters on entry and exit pages compare what the lock shows of them (`Filter.pageLock`).
  const pageLock = lockedFilters.find((f) => f.dimension === 'page') ?? null;
  const own = parseFilters(filterTexts).map((f) => (pageLock && PAGE_VALUED_DIMENSIONS.has(f.dimension) ? Object.freeze({ ...f, pageLock }) : f));
  // A link locked to pages shares no goals read (a goal's pattern may name pages outside its lock): nor goal filters.
  if (!lockSharesGoals(locked) && own.some((f) => f.dimension === GOAL_DIMENSION)) throw apiError('FORBIDDEN', 'shareLockedGoals');
  const filters = [...own, ...lockedFilters];

  let metric: Metric = DEFAULT_METRIC;
  let compare = false;
  if (kind === 'timeseries') {
    const m = single(params, QUERY_PARAMS.metric.name) ?? DEFAULT_METRIC;
    if (!isMetric(m)) throw apiError('INVALID_PARAMS', 'metric', { metrics: QUERY_PARAMS.metric.schema.enum.join(', ') });
    metric = m;
    compare = flag(params, QUERY_PARAMS.compare);
  }

  // A journeys answer compares with nothing: the plan reads no compared days for it.
  let comparison: Comparison = kind === 'journeys' ? 'off' : DEFAULT_COMPARISON;
  let elapsed = false;
  if (kind === 'stats' || kind === 'timeseries') {
    comparison = choice(params, QUERY_PARAMS.comparison, DEFAULT_COMPARISON);
    if (compare && comparison === 'off') throw apiError('INVALID_PARAMS', 'compareOff');
  }
  if (kind === 'stats') elapsed = flag(params, QUERY_PARAMS.elapsed) && comparison !== 'off';
  const compared = comparedPeriod(period, comparison) ?? previousPeriod(period);
  const part = elapsed ? elapsedPart(period, compared, now, site.timezone) : null;

  const raw = single(params, QUERY_PARAMS.raw.name);
  // A kind that takes no raw=clip refuses it as it refuses an unknown value.
  if (raw !== undefined && !takesRawClip(kind, ext)) throw apiError('INVALID_PARAMS', 'oneOf', { name: QUERY_PARAMS.raw.name, values: RAW_CLIP });
  if (raw !== undefined) choice(params, QUERY_PARAMS.raw, RAW_CLIP);
  if (goalFilterOf(filters) !== undefined) {
    if (!GOAL_FILTER_KINDS.has(kind)) throw apiError('INVALID_PARAMS', 'filterGoalKind');
    if (GOAL_FILTER_CLIPPED.has(kind) && raw !== RAW_CLIP) throw apiError('INVALID_PARAMS', 'filterGoalClip');
  }
  if (kind === 'timeseries' && !metricsUnder(filters).includes(metric)) throw apiError('INVALID_PARAMS', 'goalFilterMetric', { metric });

  let breakdown: BreakdownParams | null = null;
  if (kind === 'breakdown') {
    const dimension = single(params, QUERY_PARAMS.dimension.name);
    if (dimension === undefined) throw apiError('INVALID_PARAMS', 'required', { name: QUERY_PARAMS.dimension.name });
    if (!isQueryDimension(dimension)) {
      if (dimension.startsWith(PROPERTY_PREFIX)) throw apiError('INVALID_PARAMS', 'propertyDimension', PROPERTY_KEY_LENGTH);
      throw apiError('INVALID_PARAMS', 'dimension', { dimensions: DIMENSIONS.join(', ') });
    }
    const { name, schema } = QUERY_PARAMS.search;
    const search = single(params, name);
    if (search !== undefined && search.length > schema.maxLength) throw apiError('INVALID_PARAMS', 'tooLong', { name, max: schema.maxLength });
    breakdown = Object.freeze({
      dimension,
      limit: integer(params, QUERY_PARAMS.breakdownLimit, BREAKDOWN_LIMIT.default),
      offset: integer(params, QUERY_PARAMS.offset, 0),
      search: search === undefined || search === '' ? null : search,
      include: Object.freeze(breakdownIncludes(list(params, QUERY_PARAMS.include.name), dimension, filters)),
    });
  }

  const journey = kind === 'journeys' ? journeyParams(params) : null;

  return Object.freeze({
    kind,
    siteId: site.id,
    tz: site.timezone,
    today,
    now,
    period: Object.freeze(period),
    comparison,
    previous: Object.freeze(part?.period ?? compared),
    previousCut: part && Object.freeze(part.cut),
    grain: grainFor(period),
    filters: Object.freeze(filters),
    pageLock,
    metric,
    compare,
    breakdown,
    journey,
    rawClip: raw === RAW_CLIP,
  });
}

/**
 * The query over the days of its period from `from` on (a read clipped to the raw window): compared
 * with the period of the same length right before (none when not compared), the elapsed part and
 * the grain following the clipped days as they would for a request of them.
 */
export function clippedQuery(q: Query, from: string): Query {
  const period = { from, to: q.period.to };
  return Object.freeze({
    ...q,
    period: Object.freeze(period),
    comparison: q.comparison === 'off' ? 'off' : 'previous',
    previous: Object.freeze(previousPeriod(period)),
    previousCut: null,
    grain: grainFor(period),
  });
}
