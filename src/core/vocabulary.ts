// The read API's vocabulary, declared once for the server, the dashboard (web/) and the CLI: the
// period presets and grains, the dimensions and their scopes, the metrics and their registry, the
// roles of a membership, and the shapes of the API's answers (docs/api.md, docs/admin-api.md).
//
// The dashboard bundles what it imports from here, so this module holds words, data and a few pure
// functions over them: no engine, storage or Node code. How a metric is computed is data (which
// measures, which ratio, which rounding) that src/stats interprets.

// ---- Periods ---------------------------------------------------------------------------------

export const PRESETS = ['today', 'yesterday', '7d', '30d', '90d', 'month', 'last_month', 'year'] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = '30d';

export type Grain = 'hour' | 'day' | 'week' | 'month';

/**
 * What a period's figures are compared with: the same number of days just before it (the
 * default), the same days a year earlier, or nothing.
 */
export const COMPARISONS = ['previous', 'year', 'off'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const DEFAULT_COMPARISON: Comparison = 'previous';

export function isComparison(text: string | null): text is Comparison {
  return (COMPARISONS as readonly string[]).includes(text ?? '');
}

// ---- Dimensions (docs/api.md, Dimensions) ----------------------------------------------------
//
// Event-scoped dimensions (page, event) describe one event; a filter on them keeps matching events.
// Session-scoped ones describe a whole session (copied onto each of its events at ingest, except
// `exit`, derived at query time); a filter on them keeps every event of matching sessions.

export const DIMENSIONS = [
  'page',
  'entry',
  'exit',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'region',
  'city',
  'browser',
  'os',
  'device',
  'event',
] as const;

export type Dimension = (typeof DIMENSIONS)[number];

export function isDimension(text: string): text is Dimension {
  return (DIMENSIONS as readonly string[]).includes(text);
}

/**
 * A custom property as a dimension: `prop.<key>`, the key as the tracker sends it (1 to 64
 * characters, case-sensitive). Its value on an event is the property's (a number or boolean as its
 * JSON text); `engage` events carry none (their props are the tracker's measurements).
 */
export type PropertyDimension = `prop.${string}`;
/** A dimension a breakdown or a filter names: one of DIMENSIONS, or a custom property. */
export type QueryDimension = Dimension | PropertyDimension;

export const PROPERTY_PREFIX = 'prop.';
/** The length of a property key, as the tracker keeps them (src/ingest/event-shape.ts). */
export const PROPERTY_KEY_LENGTH = { min: 1, max: 64 } as const;

export function isPropertyDimension(text: string): text is PropertyDimension {
  if (!text.startsWith(PROPERTY_PREFIX)) return false;
  const length = text.length - PROPERTY_PREFIX.length;
  return length >= PROPERTY_KEY_LENGTH.min && length <= PROPERTY_KEY_LENGTH.max;
}

export function isQueryDimension(text: string): text is QueryDimension {
  return isDimension(text) || isPropertyDimension(text);
}

/** The property key of a `prop.<key>` dimension. */
export function propertyKey(d: PropertyDimension): string {
  return d.slice(PROPERTY_PREFIX.length);
}

export type DimensionScope = 'event' | 'session';

/** Custom properties describe one event, like `page` and `event`. */
export function scopeOf(d: QueryDimension): DimensionScope {
  return d === 'page' || d === 'event' || isPropertyDimension(d) ? 'event' : 'session';
}

/** The key reported for an absent value, which a filter value `(none)` also matches. */
export const NONE_KEY = '(none)';
/** The key under which rollups fold the long tail beyond the per-day cap. */
export const OTHER_KEY = '(other)';

/**
 * A client's text as stored: one that spells a reserved key keeps its word but trades the
 * parentheses for brackets (`(none)` → `[none]`, `(other)` → `[other]`), so that it is counted as
 * a value of its own, never in the bucket of absent values or of the folded long tail.
 */
export function clientValue(text: string | null): string | null {
  return text === NONE_KEY || text === OTHER_KEY ? `[${text.slice(1, -1)}]` : text;
}

/** One `filter` parameter: `<dimension>:<value>`. */
export interface Filter {
  readonly dimension: QueryDimension;
  readonly value: string;
  /**
   * The value is a page pattern (`*`, `**`; docs/api.md, Goals' syntax), matched as goals match
   * pages: only a shared link's lock on `page` holds one (the read API's own filters are exact).
   */
  readonly pattern?: true;
}

// ---- Metrics (docs/api.md, Metrics) ----------------------------------------------------------

/** The summed traffic measures metrics are computed from (src/stats/measures.ts aggregates each). */
export type TrafficMeasureName = 'visitors' | 'pageviews' | 'events' | 'sessions' | 'bounces' | 'durationMs';
/** The summed conversions of a site's goals. */
export type GoalMeasureName = 'conversions' | 'uniqueConversions' | 'revenueMinor' | 'revenueConversions' | 'otherCurrency';

/** How a metric is computed from traffic measures summed over its days. */
export type TrafficComputation =
  /** The sum of one measure. */
  | { readonly kind: 'count'; readonly measure: TrafficMeasureName }
  /** numerator / denominator / divideBy, rounded to `digits` decimals; null when the denominator is 0. */
  | {
      readonly kind: 'ratio';
      readonly numerator: TrafficMeasureName;
      readonly denominator: TrafficMeasureName;
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

export interface MetricSpec {
  /** The name the dashboard shows. */
  readonly label: string;
  readonly computation: TrafficComputation | GoalComputation;
  readonly filters: MetricFilters;
  /** Whether a rise is good news (coloured as such on the dashboard). */
  readonly upIsGood: boolean;
  readonly format: MetricFormat;
}

/**
 * The metric registry, one entry per metric, in the order of the `stats` answer and the dashboard's
 * tiles. The query parser, the engine and the dashboard derive everything they know of metrics from it.
 */
const REGISTRY = {
  visitors: { label: 'Visitors', computation: { kind: 'count', measure: 'visitors' }, filters: 'all', upIsGood: true, format: 'count' },
  pageviews: { label: 'Pageviews', computation: { kind: 'count', measure: 'pageviews' }, filters: 'all', upIsGood: true, format: 'count' },
  sessions: { label: 'Sessions', computation: { kind: 'count', measure: 'sessions' }, filters: 'none', upIsGood: true, format: 'count' },
  bounceRate: {
    label: 'Bounce rate',
    computation: { kind: 'ratio', numerator: 'bounces', denominator: 'sessions', divideBy: 1, digits: 4 },
    filters: 'session',
    upIsGood: false,
    format: 'ratio',
  },
  avgDuration: {
    label: 'Visit duration',
    computation: { kind: 'ratio', numerator: 'durationMs', denominator: 'sessions', divideBy: 1000, digits: 1 },
    filters: 'session',
    upIsGood: true,
    format: 'duration',
  },
  conversions: { label: 'Conversions', computation: { kind: 'goals', measure: 'conversions' }, filters: 'none', upIsGood: true, format: 'count' },
} satisfies Record<string, MetricSpec>;

export type Metric = keyof typeof REGISTRY;
export const METRIC_REGISTRY: Readonly<Record<Metric, MetricSpec>> = REGISTRY;
export const METRICS = Object.keys(REGISTRY) as readonly Metric[];
export const DEFAULT_METRIC: Metric = 'visitors';

export function isMetric(text: string): text is Metric {
  return (METRICS as readonly string[]).includes(text);
}

/** Whether a metric takes the given filters (the others answer null, or 400 on a timeseries). */
export function metricTakesFilters(metric: Metric, filters: readonly Filter[]): boolean {
  if (filters.length === 0) return true;
  switch (METRIC_REGISTRY[metric].filters) {
    case 'all':
      return true;
    case 'session':
      return filters.every((f) => scopeOf(f.dimension) === 'session');
    case 'none':
      return false;
  }
}

/** Whether a change of a metric is good news: a rise of one whose rise is good, else a fall. */
export function changeIsGood(metric: Metric, deltaPct: number): boolean {
  return METRIC_REGISTRY[metric].upIsGood ? deltaPct > 0 : deltaPct < 0;
}

// ---- Roles (docs/accounts.md) ----------------------------------------------------------------
//
// Every role reads the organisation's sites; admin also changes its sites, goals, funnels, alert
// rules and API keys; owner also manages its members.

export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants at least what `needed` grants. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** A user's role in one organisation. */
export interface Membership {
  orgId: number;
  orgName: string;
  role: Role;
}

/** What GET /app/v1/session answers: the signed-in user, its CSRF token and its organisations. */
export interface SessionView {
  user: { id: number; email: string; name: string };
  csrfToken: string;
  memberships: Membership[];
  /** Whether the user signs in with a second factor; `requiredBy`: the organisations that require it while it is off. */
  twoFactor: { enabled: boolean; requiredBy: number[] };
}

// ---- Answers of the read API (/v1, and /app/v1 for the dashboard) ----------------------------

/** The period of an answer: site-local days, inclusive. */
export interface AnswerDays {
  from: string;
  to: string;
}

/** The period of a stats, timeseries or breakdown answer, with its grain and the site's zone. */
export interface AnswerPeriod extends AnswerDays {
  grain: Grain;
  tz: string;
}

export interface Kpi {
  value: number | null;
  prev: number | null;
  deltaPct: number;
}

export type Stats = Record<Metric, Kpi>;

export interface StatsAnswer {
  period: AnswerPeriod;
  stats: Stats;
}

export interface Point {
  t: number;
  value: number | null;
}

export interface TimeseriesAnswer {
  period: AnswerPeriod;
  grain: Grain;
  tz: string;
  points: Point[];
  /** The previous period's points, with `compare=true`. */
  prev?: Point[];
}

export interface BreakdownRow {
  key: string;
  visitors: number;
  views: number;
  pct: number;
  /** With `include=scrollDepth` (page breakdowns): the mean deepest scroll, in whole percent; null when nobody reported one. */
  scrollDepth?: number | null;
}

/** What a breakdown adds to its rows on request (`include=`), and the dimension each applies to. */
export const BREAKDOWN_INCLUDES = { scrollDepth: 'page' } as const satisfies Record<string, Dimension>;
export type BreakdownInclude = keyof typeof BREAKDOWN_INCLUDES;

export function isBreakdownInclude(text: string): text is BreakdownInclude {
  return Object.hasOwn(BREAKDOWN_INCLUDES, text);
}

/** The dashboard's list of the custom property keys a site's events carry over a period, most events first. */
export interface PropertyKeysAnswer {
  period: AnswerDays;
  keys: Array<{ key: string; events: number }>;
}

export interface BreakdownAnswer {
  period: AnswerPeriod;
  dimension: QueryDimension;
  rows: BreakdownRow[];
  totalKeys: number;
  totalVisitors: number;
}

/** What a goal or a funnel step matches: a page path pattern or an event name. */
export type MatchKind = 'page' | 'event';

export interface GoalResult {
  goalId: number;
  name: string;
  kind: MatchKind;
  pattern: string;
  /** Present on an event goal that requires property values. */
  props?: GoalProps;
  conversions: number;
  uniqueConversions: number;
  conversionRate: number;
  delta: number | null;
  /** Revenue goals only. */
  revenue?: GoalRevenue;
}

/**
 * The revenue of a revenue goal's conversions in its currency: `total` and `average` (over the
 * conversions that carried revenue in it) in major units, exact to the cent; `otherCurrency` counts
 * the conversions whose revenue was in another currency (counted as conversions, their revenue left out).
 */
export interface GoalRevenue {
  currency: string;
  total: number;
  average: number | null;
  otherCurrency: number;
}

/** A currency code as goals and events carry it: three capital letters (ISO 4217 style). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

export interface GoalsAnswer {
  period: AnswerDays;
  goals: GoalResult[];
}

/** How many visitors entered a funnel and completed it, and the rate between. */
export interface FunnelTotals {
  entered: number;
  completed: number;
  conversionRate: number;
}

export interface FunnelReading extends FunnelTotals {
  steps: Array<{ step: number; visitors: number; rateFromPrevious: number | null }>;
  previous: FunnelTotals;
  delta: number;
}

export interface FunnelAnswer extends FunnelReading {
  period: AnswerDays;
  funnel: { id: number; name: string; version: number; windowMinutes: number };
}

export interface RealtimeRow {
  key: string;
  visitors: number;
  views: number;
}

export interface FeedEntry {
  ts: number;
  event: string;
  path: string;
  referrer: string;
  country: string;
  city: string;
  browser: string;
  os: string;
  device: string;
}

export interface Realtime {
  generatedAt: number;
  currentVisitors: number;
  /** Pageviews of each of the last minutes, oldest first (a count, never null). */
  pageviewsPerMinute: Array<{ t: number; value: number }>;
  topPages: RealtimeRow[];
  topReferrers: RealtimeRow[];
  topCountries: RealtimeRow[];
  feed: FeedEntry[];
}

// ---- Response headers of the read answers -----------------------------------------------------

/**
 * What a planned read did with days imported from another tool: `included`, `excluded` (the read
 * is one imported aggregates cannot answer exactly) or `none` (no day read holds any).
 */
export const IMPORTED_HEADER = 'svc-imported';

/**
 * From which day the figures of each goal or funnel version of a goals or funnel answer are
 * complete: days of the site's rollups before it lack them (it was made after them, and their raw
 * events were gone). Said by the dashboard's answers (/app/v1) only, in a header so that their
 * bodies stay byte for byte those of /v1: `goal:7=2026-02-19, funnel:3:2=2026-02-19`, naming only
 * the goals and versions whose figures miss days; absent when none do.
 */
export const COUNTED_SINCE_HEADER = 'svc-counted-since';

/** How the rollups' bookkeeping and the counted-since header name a goal. */
export const goalKey = (goalId: number): string => `goal:${goalId}`;
/** How the rollups' bookkeeping and the counted-since header name a funnel version. */
export const funnelKey = (funnelId: number, version: number): string => `funnel:${funnelId}:${version}`;

/** The counted-since header's value for the first complete day of each definition (`goalKey`, `funnelKey`); undefined when none misses days. */
export function countedSinceHeader(days: ReadonlyArray<readonly [key: string, countedSince: string | null]>): string | undefined {
  const said = days.filter((entry): entry is readonly [string, string] => entry[1] !== null);
  return said.length === 0 ? undefined : said.map(([key, day]) => `${key}=${day}`).join(', ');
}

/** The first complete day of each definition a counted-since header names (none for an absent header). */
export function parseCountedSince(header: string | null | undefined): ReadonlyMap<string, string> {
  const days = new Map<string, string>();
  for (const entry of (header ?? '').split(',')) {
    const separator = entry.lastIndexOf('=');
    if (separator > 0) days.set(entry.slice(0, separator).trim(), entry.slice(separator + 1).trim());
  }
  return days;
}

// ---- Sites and funnels as the APIs answer them -----------------------------------------

export type SiteStatus = 'active' | 'archived';

/**
 * How many site-local days (today included) a site keeps its raw events: the window of the queries
 * that need them. Older days are answered from rollups.
 */
export const RAW_DAYS = { min: 30, max: 800, default: 30 } as const;

/** A site as the management API (/admin/v1, /app/v1/manage) reads and writes it. */
export interface ManagedSite {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  retentionMonths: number | null;
  rawDays: number;
  honorGpc: boolean;
  status: SiteStatus;
}

/** A site as GET /app/v1/sites lists it: one the user can see, with its organisation and role. */
export interface SiteRow {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  status: SiteStatus;
  orgId: number;
  orgName: string;
  role: Role;
  visitors24h: number;
}

/** A collection outcome of a site as /admin/v1 and /app/v1 list it (`outcome`: `accepted` or a drop reason). */
export interface RecentEvent {
  seq: number;
  ts: number;
  outcome: string;
  path: string | null;
  browser: string | null;
}

/** GET /app/v1/sites/:siteId/installation: what the dashboard shows a site waiting for its first event. */
export interface Installation {
  /** Whether the site holds an event, or figures imported from another tool. */
  hasEvents: boolean;
  siteId: string;
  scriptUrl: string;
  snippet: string;
  publicUrlSet: boolean;
  /** `scriptUrl` is on localhost, an intranet name or an address that is not public. */
  localScriptUrl: boolean;
  events: RecentEvent[];
  lastSeq: number;
}

export interface FunnelStep {
  kind: MatchKind;
  pattern: string;
}

/** How many steps a funnel has. */
export const FUNNEL_STEPS = { min: 2, max: 8 } as const;

/**
 * The custom property values an event goal also requires (all must match, each as a filter
 * `prop.<key>:<value>` matches); absent from a goal without any.
 */
export type GoalProps = Readonly<Record<string, string>>;
/** How many property values a goal may require, and the length of each value. */
export const GOAL_PROPS = { maxKeys: 10, maxValueLength: 500 } as const;

/** A goal as the management API (/admin/v1, /app/v1/manage) answers it. */
export interface ManagedGoal {
  goalId: number;
  name: string;
  kind: MatchKind;
  pattern: string;
  props?: GoalProps;
  /** Revenue goals only: the currency their revenue is counted in. */
  currency?: string;
}

/** A funnel as the read API lists it and as creating it or replacing its steps answers. */
export interface FunnelSummary {
  id: number;
  name: string;
  stepCount: number;
  windowMinutes: number;
  version: number;
  createdAt: number;
}

/** A funnel with its current steps, as the management API lists it. */
export interface FunnelDefinition extends Omit<FunnelSummary, 'stepCount'> {
  steps: FunnelStep[];
}

/** A funnel with every version of its steps, oldest first. */
export interface FunnelHistory extends Omit<FunnelSummary, 'stepCount'> {
  versions: Array<{ version: number; createdAt: number; steps: FunnelStep[] }>;
}

// ---- Imports (docs/imports.md) ------------------------------------------------------------------

/** The tools whose exports svc imports. */
export const IMPORT_SOURCES = ['plausible', 'goatcounter'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

/** An import as the admin API and /app/v1/manage list it. */
export interface ImportView {
  importId: string;
  source: ImportSource;
  status: ImportStatus;
  createdAt: number;
  /** The export's first and last day. */
  from: string | null;
  to: string | null;
  /** 0 to 1. */
  progress: number;
  rows: number;
  skippedRows: number;
  /** Rows the export marks as bots (GoatCounter's), counted in `skippedRows`. */
  skippedBots: number;
  /** Days not written because the site holds events on them. */
  skippedDays: string[];
  /** The upload's files with their table (null: not part of the export, ignored) and counts. */
  files: Array<{ name: string; table: string | null; rows: number; skippedRows: number }>;
  /** The first skipped lines and why. */
  skippedLines: Array<{ file: string; line: number; reason: string }>;
  error: string | null;
}
