// The read API's answers (/v1, and /app/v1 for the dashboard): stats, timeseries, breakdowns,
// goals, funnels and realtime, as the server serializes them and the dashboard and the CLI read
// them (docs/api.md). Types and a few constants only: the dashboard bundles this module.
import type { Metric } from './metric-registry.js';
import type { Grain, GoalProps, MatchKind, QueryDimension } from './vocabulary.js';

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
  /** Null only on a read clipped to the raw window (`raw=clip`) whose compared period lies outside it. */
  deltaPct: number | null;
}

/**
 * The KPIs; `timeOnPage` only on the dashboard's reads (`raw=clip`): the base API's `stats` keeps its
 * six fields. Under a goal filter, `conversionRate` (its converters over the visitors without it), and
 * `revenue` where the filter's goals are revenue goals (null when they count in several currencies).
 */
export interface Stats extends Record<Exclude<Metric, 'timeOnPage' | 'conversionRate'>, Kpi> {
  timeOnPage?: Kpi;
  conversionRate?: Kpi;
  revenue?: GoalRevenue | null;
}

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
  /** An integer, as docs/api.md types it: 0 where every day read lacks them (then `viewsUnknown`). */
  views: number;
  pct: number;
  /**
   * Present (true) where no day read knows the row's views: imported days of an older export's
   * table without pageviews (docs/imports.md). Its `views` is then 0, which is not a count.
   */
  viewsUnknown?: true;
  /** With `include=bounceRate`: the key's bounce rate, as `stats` answers it with the key's filter added; null where that is. */
  bounceRate?: number | null;
  /** With `include=avgDuration`: the key's visit duration, as `stats` answers it with the key's filter added; null where that is. */
  avgDuration?: number | null;
  /** With `include=timeOnPage` (page breakdowns, `raw=clip`): the page's time on page, as `stats` answers it with the key's filter added. */
  timeOnPage?: number | null;
  /** With `include=scrollDepth` (page breakdowns): the mean deepest scroll, in whole percent; null when nobody reported one. */
  scrollDepth?: number | null;
  /** With `include=vitals` (page breakdowns): the 75th percentiles of the page's web vitals. */
  vitals?: VitalsFigures;
  /** Under a goal filter (its `visitors` are then its converters): the completions of the filter's goals on the row. */
  conversions?: number;
  /** Under a goal filter: the row's converters over the row's visitors without it (0..1); null without any. */
  conversionRate?: number | null;
}

/**
 * Per web vital, the 75th percentile by nearest rank of the page's reports that carry it (null when
 * none does; `cls` in thousandths), and how many `engage` events of the page reported any vital.
 */
export interface VitalsFigures {
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  ttfb: number | null;
  reports: number;
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

/** One row of a journeys answer: a sequence of pages, and the sessions (and their visitors) that went through it. */
export interface JourneyRow {
  path: string[];
  sessions: number;
  visitors: number;
}

export interface JourneysAnswer {
  period: AnswerDays;
  steps: number;
  rows: JourneyRow[];
  /** The sessions that contributed at least one row (of any page of rows). */
  totalSessions: number;
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

/** A funnel as the read API lists it and as creating it or replacing its steps answers. */
export interface FunnelSummary {
  id: number;
  name: string;
  stepCount: number;
  windowMinutes: number;
  version: number;
  createdAt: number;
}

/**
 * What an answer did with days imported from another tool (its `Svc-Imported` header): `included`,
 * `excluded` (the read is one they cannot answer exactly), or `none` (no day read holds any).
 */
export const IMPORTED_ANSWERS = ['included', 'excluded', 'none'] as const;
export type ImportedAnswer = (typeof IMPORTED_ANSWERS)[number];

export function isImportedAnswer(text: string | null): text is ImportedAnswer {
  return (IMPORTED_ANSWERS as readonly string[]).includes(text ?? '');
}

/**
 * The response header that carries a refusal's reason on /app/v1 and /admin/v1: on the read API's
 * routes mounted again under /app/v1 it is the only place of the reason, since their bodies stay
 * /v1's byte for byte; elsewhere the envelope says it too.
 */
export const REASON_HEADER = 'svc-error-reason';

/** The response header of every planned read (stats, timeseries, breakdown, goals, funnel) that says its ImportedAnswer. */
export const IMPORTED_HEADER = 'svc-imported';

/** The response header of a read clipped to the raw window (`raw=clip`): `clipped; from=<the day asked>`. */
export const RAW_WINDOW_HEADER = 'svc-raw-window';
export const rawWindowHeader = (requestedFrom: string) => `clipped; from=${requestedFrom}`;

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
/**
 * How the counted-since header names the stats' conversions under filters when a `raw=clip` read
 * counts them from the raw window's first day only (the period starts before it).
 */
export const CONVERSIONS_KEY = 'conversions';
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
