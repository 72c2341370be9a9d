// Runs planned queries: fetches per-day (or per-hour) measures from rollups and raw events, merges
// them, and folds them into the answers of each endpoint. Serialization stays in src/http/v1.
import type { EventStore } from '../storage/events/types.js';
import type { FunnelVersion, Goal } from '../storage/meta/types.js';
import { addDays, localDay } from '../core/localtime.js';
import { dayBuckets, hourBuckets, type Period } from '../core/period.js';
import { metricTakesFilters, type Metric, type Query } from '../core/query.js';
import {
  DAY_BUCKET,
  dayRows,
  dayRange,
  eventsRelation,
  funnelEvents,
  hourBucket,
  integerLiteral,
  keyExpr,
  measureEvents,
  measureGoals,
  needsExit,
  viewsColumn,
} from './compile.js';
import { walkFunnel, type FunnelEventRow } from './funnel.js';
import {
  addMeasures,
  GOAL_MEASURES,
  IS_PAGEVIEW,
  measureColumns,
  measuresOf,
  METRIC_VALUES,
  round,
  TRAFFIC_MEASURES,
  ZERO_MEASURES,
  zeroOf,
  type GoalCounts,
  type Measures,
  type TrafficMetric,
} from './measures.js';
import { daySources, fullyComputable, splitMonths, type DaySources } from './planner.js';
import { DIM_DAILY, DIM_MONTHLY, FUNNEL_DAILY, GOAL_DAILY, SITE_DAILY } from './rollups/tables.js';
import { joinSql, sql, trusted, withParams, type Sql } from '../sql/sql.js';

/** A measure row of a read: its bucket (day text or hour index) and the traffic measure columns. */
type MeasureRow = { b: string | number | null } & Record<string, unknown>;

const MEASURE_COLUMNS = measureColumns(TRAFFIC_MEASURES);
const GOAL_COLUMNS = measureColumns(GOAL_MEASURES);
const toMeasures = (r: MeasureRow): Measures => measuresOf(TRAFFIC_MEASURES, r);

function read<T>(events: EventStore, q: Sql): Promise<T[]> {
  return events.query<T>(q);
}

/** Rounded to 1 decimal; 0 when both are 0 or either is null; 100 from a zero base. */
export function deltaPct(value: number | null, prev: number | null): number {
  if (value === null || prev === null) return 0;
  if (prev === 0) return value > 0 ? 100 : 0;
  return round(((value - prev) / prev) * 100, 1);
}

/** Metric value of summed measures; null where it is not computable. */
function metricValue(metric: TrafficMetric, m: Measures): number | null {
  return METRIC_VALUES[metric].value(m);
}

/**
 * Per-day measures of a range, from rollups up to the watermark and raw events after it. Readers of
 * visitors only skip the per-session part (bounces, duration) of raw reads.
 */
export async function dailyMeasures(
  events: EventStore,
  q: Query,
  range: Period,
  need: { sessions: boolean } = { sessions: true },
): Promise<{ days: Map<string, Measures>; sources: DaySources }> {
  const d = events.dialect;
  const sources = daySources(q, range);
  const parts: Array<Promise<MeasureRow[]>> = [];
  if (sources.rollup) {
    const [filter] = q.filters;
    const table = filter
      ? sql`${trusted(DIM_DAILY.name)} WHERE site_id = ${q.siteId} AND dimension = ${filter.dimension} AND key = ${filter.value} AND`
      : sql`${trusted(SITE_DAILY.name)} WHERE site_id = ${q.siteId} AND`;
    parts.push(
      read(
        events,
        sql`SELECT ${trusted(d.dayText('day'))} AS b, ${trusted(MEASURE_COLUMNS.join(', '))}
          FROM ${table} ${dayRange(d, 'day', sources.rollup)}`,
      ),
    );
  }
  if (sources.raw) {
    const days = sources.raw;
    const measures = measureEvents(d, { siteId: q.siteId, days, filters: q.filters, exit: needsExit(q.filters) }, {
      bucket: DAY_BUCKET,
      sessions: need.sessions,
    });
    parts.push(read(events, dayRows(d, measures, MEASURE_COLUMNS)));
  }
  const out = new Map<string, Measures>();
  for (const rows of await Promise.all(parts)) for (const r of rows) out.set(String(r.b), toMeasures(r));
  return { days: out, sources };
}

function sumDays(days: Map<string, Measures>, from: string, to: string): Measures {
  let total = ZERO_MEASURES;
  for (const [day, m] of days) if (day >= from && day <= to) total = addMeasures(total, m);
  return total;
}

/** Per-day conversions of each goal. */
async function dailyGoals(events: EventStore, q: Query, range: Period, goals: readonly Goal[]): Promise<Map<string, Map<number, GoalCounts>>> {
  const out = new Map<string, Map<number, GoalCounts>>();
  if (goals.length === 0) return out;
  const d = events.dialect;
  const sources = daySources(q, range);
  const parts: Array<Promise<Array<{ b: string; goal_id: unknown } & Record<string, unknown>>>> = [];
  if (sources.rollup) {
    const ids = joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ');
    parts.push(
      read(
        events,
        sql`SELECT ${trusted(d.dayText('day'))} AS b, goal_id, ${trusted(GOAL_COLUMNS.join(', '))} FROM ${trusted(GOAL_DAILY.name)}
          WHERE site_id = ${q.siteId} AND ${dayRange(d, 'day', sources.rollup)} AND goal_id IN (${ids})`,
      ),
    );
  }
  if (sources.raw) {
    const goalRows = measureGoals(d, DAY_BUCKET, q.siteId, sources.raw, goals);
    parts.push(read(events, dayRows(d, goalRows, ['goal_id', ...GOAL_COLUMNS])));
  }
  for (const rows of await Promise.all(parts)) {
    for (const r of rows) {
      let day = out.get(r.b);
      if (!day) out.set(r.b, (day = new Map()));
      day.set(Number(r.goal_id), measuresOf(GOAL_MEASURES, r));
    }
  }
  return out;
}

function sumGoal(daily: Map<string, Map<number, GoalCounts>>, from: string, to: string, goalId?: number): GoalCounts {
  let total = zeroOf(GOAL_MEASURES);
  for (const [day, goals] of daily) {
    if (day < from || day > to) continue;
    for (const [id, c] of goals) {
      if (goalId === undefined || id === goalId) total = addMeasures(total, c);
    }
  }
  return total;
}

export interface Kpi {
  value: number | null;
  prev: number | null;
  deltaPct: number;
}

function kpi(value: number | null, prev: number | null): Kpi {
  return { value, prev, deltaPct: deltaPct(value, prev) };
}

export type Stats = Record<Metric, Kpi>;

export async function computeStats(events: EventStore, q: Query, goals: readonly Goal[]): Promise<Stats> {
  const range = { from: q.previous.from, to: q.period.to };
  const [{ days }, goalDays] = await Promise.all([
    dailyMeasures(events, q, range),
    q.filters.length === 0 ? dailyGoals(events, q, range, goals) : Promise.resolve(new Map()),
  ]);
  const current = daySources(q, q.period).firstComputable !== null;
  const previous = fullyComputable(q, q.previous);
  const now = sumDays(days, q.period.from, q.period.to);
  const before = sumDays(days, q.previous.from, q.previous.to);
  const pick = (metric: TrafficMetric): Kpi => {
    if (!metricTakesFilters(metric, q.filters)) return kpi(null, null);
    return kpi(current ? metricValue(metric, now) : null, previous ? metricValue(metric, before) : null);
  };
  const conversionsComputable = goals.length > 0 && q.filters.length === 0;
  return {
    visitors: pick('visitors'),
    pageviews: pick('pageviews'),
    sessions: pick('sessions'),
    bounceRate: pick('bounceRate'),
    avgDuration: pick('avgDuration'),
    conversions: conversionsComputable
      ? kpi(
          current ? sumGoal(goalDays, q.period.from, q.period.to).conversions : null,
          previous ? sumGoal(goalDays, q.previous.from, q.previous.to).conversions : null,
        )
      : kpi(null, null),
  };
}

export interface Point {
  t: number;
  value: number | null;
}

/** Day, week or month points of a period; null for future buckets and days not computable. */
async function dayPoints(events: EventStore, q: Query, period: Period, goals: readonly Goal[]): Promise<Point[]> {
  const grain = q.grain === 'hour' ? 'day' : q.grain;
  const buckets = dayBuckets(period, grain, q.tz);
  const firstComputable = daySources(q, period).firstComputable;
  const valueOf =
    q.metric === 'conversions'
      ? await (async () => {
          if (goals.length === 0) return () => null;
          const daily = await dailyGoals(events, q, period, goals);
          return (from: string, to: string) => sumGoal(daily, from, to).conversions;
        })()
      : await (async () => {
          const metric = q.metric as TrafficMetric;
          const { days } = await dailyMeasures(events, q, period, { sessions: METRIC_VALUES[metric].perSession });
          return (from: string, to: string) => metricValue(metric, sumDays(days, from, to));
        })();
  return buckets.map((b) => {
    const from = firstComputable !== null && firstComputable > b.from ? firstComputable : b.from;
    const to = b.to < q.today ? b.to : q.today;
    if (firstComputable === null || from > to) return { t: b.t, value: null };
    return { t: b.t, value: valueOf(from, to) };
  });
}

/** Hourly points from raw events; hours before the raw window or retention, or in the future, are null. */
async function hourPoints(events: EventStore, q: Query, period: Period): Promise<Point[]> {
  const d = events.dialect;
  const { starts, end } = hourBuckets(period, q.tz);
  const firstComputable = daySources(q, period).firstComputable;
  const scope = {
    siteId: q.siteId,
    days: { from: addDays(period.from, -1), to: period.to },
    instants: { from: starts[0] ?? end, to: end },
    filters: q.filters,
    exit: needsExit(q.filters),
  };
  const rows = await read<MeasureRow>(events, measureEvents(d, scope, { bucket: hourBucket(starts, end), sessions: true }));
  const byBucket = new Map<number, Measures>();
  for (const r of rows) if (r.b !== null) byBucket.set(Number(r.b), toMeasures(r));
  const metric = q.metric as TrafficMetric;
  return starts.map((t, i) => {
    const day = localDay(t, q.tz);
    if (t > q.now || firstComputable === null || day < firstComputable) return { t, value: null };
    return { t, value: metricValue(metric, byBucket.get(i) ?? ZERO_MEASURES) };
  });
}

export async function computeTimeseries(events: EventStore, q: Query, goals: readonly Goal[]): Promise<{ points: Point[]; prev: Point[] | null }> {
  const series = (period: Period) => (q.grain === 'hour' ? hourPoints(events, q, period) : dayPoints(events, q, period, goals));
  const [points, prev] = await Promise.all([series(q.period), q.compare ? series(q.previous) : Promise.resolve(null)]);
  return { points, prev };
}

export interface BreakdownRow {
  key: string;
  visitors: number;
  views: number;
  pct: number;
}

export async function computeBreakdown(
  events: EventStore,
  q: Query,
): Promise<{ rows: BreakdownRow[]; totalKeys: number; totalVisitors: number }> {
  const bd = q.breakdown;
  if (!bd) throw new Error('computeBreakdown needs a breakdown query');
  const d = events.dialect;
  const sources = daySources(q, q.period);
  const parts: Sql[] = [];
  const views = trusted(viewsColumn(bd.dimension));
  if (sources.rollup) {
    const [filter] = q.filters; // on the rollup path, a filter is on the broken-down dimension
    const only = filter ? sql` AND key = ${filter.value}` : trusted('');
    const { head, months, tail } = splitMonths(sources.rollup);
    for (const days of [head, tail]) {
      if (days) {
        parts.push(
          sql`SELECT key AS k, visitors, ${views} AS views FROM ${trusted(DIM_DAILY.name)} WHERE site_id = ${q.siteId} AND dimension = ${bd.dimension}
            AND ${dayRange(d, 'day', days)}${only}`,
        );
      }
    }
    if (months) {
      parts.push(
        sql`SELECT key AS k, visitors, ${views} AS views FROM ${trusted(DIM_MONTHLY.name)} WHERE site_id = ${q.siteId} AND dimension = ${bd.dimension}
          AND ${dayRange(d, 'month', months)}${only}`,
      );
    }
  }
  if (sources.raw) {
    const days = sources.raw;
    const measures = measureEvents(
      d,
      { siteId: q.siteId, days, filters: q.filters, exit: needsExit(q.filters, bd.dimension) },
      { bucket: DAY_BUCKET, key: keyExpr(bd.dimension), sessions: false },
    );
    parts.push(sql`SELECT k, visitors, ${views} AS views FROM (${measures}) r`);
  }
  const conditions: Sql[] = [];
  if (bd.dimension === 'event') conditions.push(trusted(`k <> 'engage'`));
  if (bd.search !== null) conditions.push(withParams(d.containsInsensitive('k'), bd.search));
  const where = conditions.length > 0 ? sql` WHERE ${joinSql(conditions, ' AND ')}` : trusted('');
  const totals = dailyMeasures(events, q, q.period, { sessions: false });
  if (parts.length === 0) {
    const { days } = await totals;
    return { rows: [], totalKeys: 0, totalVisitors: sumDays(days, q.period.from, q.period.to).visitors };
  }
  const union = sql`(${joinSql(parts, ' UNION ALL ')}) u${where}`;
  const countAll = d.countOverAll();
  // Where the engine has window functions, the key count rides along with the page (taken before
  // LIMIT cuts the keys): one pass instead of two.
  const page = read<{ k: string; visitors: unknown; views: unknown; total_keys?: unknown }>(
    events,
    sql`SELECT k, visitors, views${trusted(countAll ? `, ${countAll} AS total_keys` : '')}
      FROM (SELECT k, sum(visitors) AS visitors, sum(views) AS views FROM ${union} GROUP BY k) g
      ORDER BY visitors DESC, views DESC, k ASC LIMIT ${bd.limit} OFFSET ${bd.offset}`,
  );
  const countApart = () => read<{ n: unknown }>(events, sql`SELECT ${trusted(d.countDistinct('k'))} AS n FROM ${union}`).then((r) => Number(r[0]?.n ?? 0));
  const [rows, { days }, counted] = await Promise.all([page, totals, countAll ? null : countApart()]);
  // A page past the last key has no row to carry the count.
  const totalKeys = counted ?? (rows.length > 0 ? Number(rows[0]!.total_keys) : await countApart());
  const totalVisitors = sumDays(days, q.period.from, q.period.to).visitors;
  return {
    rows: rows.map((r) => ({
      key: r.k,
      visitors: Number(r.visitors),
      views: Number(r.views),
      pct: totalVisitors > 0 ? round(Number(r.visitors) / totalVisitors, 4) : 0,
    })),
    totalKeys,
    totalVisitors,
  };
}

export interface GoalResult {
  goalId: number;
  name: string;
  kind: 'page' | 'event';
  pattern: string;
  conversions: number;
  uniqueConversions: number;
  conversionRate: number;
  delta: number | null;
}

export async function computeGoals(events: EventStore, q: Query, goals: readonly Goal[]): Promise<GoalResult[]> {
  const range = { from: q.previous.from, to: q.period.to };
  const [daily, { days }] = await Promise.all([dailyGoals(events, q, range, goals), dailyMeasures(events, q, q.period, { sessions: false })]);
  const visitors = sumDays(days, q.period.from, q.period.to).visitors;
  const previous = fullyComputable(q, q.previous);
  return goals.map((g) => {
    const now = sumGoal(daily, q.period.from, q.period.to, g.goalId);
    const before = previous ? sumGoal(daily, q.previous.from, q.previous.to, g.goalId).conversions : 0;
    return {
      goalId: g.goalId,
      name: g.name,
      kind: g.kind,
      pattern: g.pattern,
      conversions: now.conversions,
      uniqueConversions: now.uniqueConversions,
      conversionRate: visitors > 0 ? round(now.uniqueConversions / visitors, 4) : 0,
      delta: before > 0 ? deltaPct(now.conversions, before) : null,
    };
  });
}

/** Visitors reaching each step over a period. */
async function funnelSteps(events: EventStore, q: Query, period: Period, funnel: FunnelVersion): Promise<number[]> {
  const d = events.dialect;
  const sources = daySources(q, period);
  const totals = funnel.steps.map(() => 0);
  const rollup = sources.rollup
    ? read<{ step: unknown; visitors: unknown }>(
        events,
        sql`SELECT step, sum(visitors) AS visitors FROM ${trusted(FUNNEL_DAILY.name)} WHERE site_id = ${q.siteId} AND funnel_id = ${integerLiteral(funnel.id)}
          AND version = ${integerLiteral(funnel.version)} AND ${dayRange(d, 'day', sources.rollup)} GROUP BY step`,
      )
    : Promise.resolve([]);
  const raw = sources.raw ? read<FunnelEventRow>(events, funnelEvents(d, q.siteId, sources.raw, funnel.steps)) : Promise.resolve([]);
  const [rollupRows, rawRows] = await Promise.all([rollup, raw]);
  for (const r of rollupRows) {
    const i = Number(r.step) - 1;
    if (i >= 0 && i < totals.length) totals[i]! += Number(r.visitors);
  }
  for (const counts of walkFunnel(rawRows, funnel.steps, funnel.windowMinutes).values()) {
    counts.forEach((n, i) => (totals[i]! += n));
  }
  return totals;
}

export interface FunnelReading {
  steps: Array<{ step: number; visitors: number; rateFromPrevious: number | null }>;
  entered: number;
  completed: number;
  conversionRate: number;
  previous: { entered: number; completed: number; conversionRate: number };
  delta: number;
}

function funnelTotals(counts: number[]) {
  const entered = counts[0] ?? 0;
  const completed = counts[counts.length - 1] ?? 0;
  return { entered, completed, conversionRate: entered > 0 ? round(completed / entered, 4) : 0 };
}

export async function computeFunnel(events: EventStore, q: Query, funnel: FunnelVersion): Promise<FunnelReading> {
  const [now, before] = await Promise.all([funnelSteps(events, q, q.period, funnel), funnelSteps(events, q, q.previous, funnel)]);
  const current = funnelTotals(now);
  const previous = funnelTotals(before);
  return {
    steps: now.map((visitors, i) => ({
      step: i + 1,
      visitors,
      rateFromPrevious: i === 0 ? null : now[i - 1]! > 0 ? round(visitors / now[i - 1]!, 4) : 0,
    })),
    ...current,
    previous,
    delta: deltaPct(current.conversionRate, previous.conversionRate),
  };
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
  pageviewsPerMinute: Point[];
  topPages: RealtimeRow[];
  topReferrers: RealtimeRow[];
  topCountries: RealtimeRow[];
  feed: FeedEntry[];
}

export const REALTIME = { currentMs: 5 * 60_000, minutes: 30, topSize: 10, feedSize: 50 } as const;

/** The realtime panel: raw events of the last 30 minutes, bounded by site and time. */
export async function computeRealtime(events: EventStore, siteId: string, tz: string, now: number): Promise<Realtime> {
  const d = events.dialect;
  const lastMinute = Math.floor(now / 60_000) * 60_000;
  const from = lastMinute - (REALTIME.minutes - 1) * 60_000;
  const scope = {
    siteId,
    days: { from: addDays(localDay(from, tz), -1), to: localDay(now, tz) },
    instants: { from, to: lastMinute + 60_000 },
    filters: [],
    exit: false,
  };
  const top = (key: Sql) =>
    read<{ k: string; visitors: unknown; views: unknown }>(
      events,
      sql`SELECT ${key} AS k, ${trusted(TRAFFIC_MEASURES.visitors.aggregate(d))} AS visitors, ${trusted(TRAFFIC_MEASURES.pageviews.aggregate(d))} AS views
        FROM ${eventsRelation(d, scope)} GROUP BY k ORDER BY visitors DESC, views DESC, k ASC LIMIT ${REALTIME.topSize}`,
    ).then((rows) => rows.map((r) => ({ key: r.k, visitors: Number(r.visitors), views: Number(r.views) })));
  const [current, minutes, topPages, topReferrers, topCountries, feed] = await Promise.all([
    read<{ n: unknown }>(
      events,
      sql`SELECT ${trusted(TRAFFIC_MEASURES.visitors.aggregate(d))} AS n FROM ${eventsRelation(d, scope)} WHERE ts >= ${now - REALTIME.currentMs} AND ts <= ${now}`,
    ),
    read<{ m: unknown; n: unknown }>(
      events,
      sql`SELECT floor((ts - ${from}) / 60000) AS m, count(*) AS n FROM ${eventsRelation(d, scope)} WHERE ${trusted(IS_PAGEVIEW)} GROUP BY m`,
    ),
    top(keyExpr('page')),
    top(keyExpr('referrer')),
    top(keyExpr('country')),
    // Events of one millisecond are ordered by their fields, so every engine answers the same feed.
    read<Record<string, unknown>>(
      events,
      sql`SELECT ts, name, page, referrer, country, city, browser, os, device FROM ${eventsRelation(d, scope)}
        WHERE name <> 'engage' ORDER BY ts DESC, name, page, referrer, country, city, browser, os, device LIMIT ${REALTIME.feedSize}`,
    ),
  ]);
  const perMinute = new Map(minutes.map((r) => [Number(r.m), Number(r.n)]));
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    generatedAt: now,
    currentVisitors: Number(current[0]?.n ?? 0),
    pageviewsPerMinute: Array.from({ length: REALTIME.minutes }, (_, i) => ({ t: from + i * 60_000, value: perMinute.get(i) ?? 0 })),
    topPages,
    topReferrers,
    topCountries,
    feed: feed.map((r) => ({
      ts: Number(r.ts),
      event: text(r.name),
      path: text(r.page),
      referrer: text(r.referrer),
      country: text(r.country),
      city: text(r.city),
      browser: text(r.browser),
      os: text(r.os),
      device: text(r.device),
    })),
  };
}

/** Unique visitors of a site over the `windowMs` before `now` (the dashboard's list of sites: 24 hours). */
export async function computeRecentVisitors(events: EventStore, siteId: string, tz: string, now: number, windowMs: number): Promise<number> {
  const d = events.dialect;
  const from = now - windowMs;
  const scope = { siteId, days: { from: addDays(localDay(from, tz), -1), to: localDay(now, tz) }, instants: { from, to: now + 1 }, filters: [], exit: false };
  const rows = await read<{ n: unknown }>(events, sql`SELECT ${trusted(d.countDistinct('visitor_id'))} AS n FROM ${eventsRelation(d, scope)}`);
  return Number(rows[0]?.n ?? 0);
}
