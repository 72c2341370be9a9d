// Query compilation: one builder per measure, written once against the Dialect. The same builders
// answer raw-event reads and fill the rollup tables, so that both paths of the planner count alike.
//
// Every per-bucket row has the columns of `MeasureRow`; every metric of docs/api.md is a sum of
// such rows over days (visitors are daily distinct counts, summed), which is what lets the planner
// take some days from rollups and the rest from raw events.
import { addDays } from '../core/localtime.js';
import type { Dialect } from '../storage/events/dialect.js';
import type { Period } from '../core/period.js';
import type { Filter } from '../core/query.js';
import { NONE_KEY, type Dimension } from '../core/dimensions.js';
import { pagePatternRegex, type Matcher } from '../core/patterns.js';
import { joinSql, sql, trusted, withParams, type Sql } from './sql.js';

/** Built-in event names; any other name is a custom event (which prevents a bounce). */
export const BUILT_IN_EVENTS = ['pageview', 'engage', 'outbound', 'download'] as const;
/** Engaged time from which a session does not bounce. */
export const NON_BOUNCE_ENGAGED_MS = 10_000;

const COLUMN: Record<Dimension, string> = {
  page: 'page',
  entry: 'entry_page',
  exit: 'exit_page',
  referrer: 'referrer',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  country: 'country',
  region: 'region',
  city: 'city',
  browser: 'browser',
  os: 'os',
  device: 'device',
  event: 'name',
};

/** The key of a dimension on an event row; absent values read as `(none)`. */
export function keyExpr(d: Dimension): Sql {
  if (d === 'page' || d === 'event') return trusted(COLUMN[d]);
  return trusted(`coalesce(${COLUMN[d]}, '${NONE_KEY}')`);
}

/** The column of a measure row that is a breakdown's `views`: occurrences for events, else pageviews. */
export function viewsColumn(dimension: Dimension): string {
  return dimension === 'event' ? 'events' : 'pageviews';
}

export function dayRange(d: Dialect, column: string, p: Period): Sql {
  return trusted(`${column} BETWEEN ${d.dateLiteral(p.from)} AND ${d.dateLiteral(p.to)}`);
}

export interface EventScope {
  siteId: string;
  days: Period;
  /** Hourly reads also bound instants: [from, to). */
  instants?: { from: number; to: number } | undefined;
  filters: readonly Filter[];
  /** Derive each session's exit page (the last pageview's page) as `exit_page`. */
  exit: boolean;
}

/** Rows of the site inside the scope's days (and instants, for hourly reads). */
function scopeBounds(d: Dialect, s: EventScope): Sql {
  const bounds = [sql`site_id = ${s.siteId}`, dayRange(d, 'day', s.days)];
  if (s.instants) bounds.push(sql`ts >= ${s.instants.from} AND ts < ${s.instants.to}`);
  return joinSql(bounds, ' AND ');
}

// A session that starts in a range may go on past its end (across local midnight): its facts (exit
// page, bounce, duration) are read over one more day, so that every path (daily rollups, raw reads
// of any range) sees the whole session. 25 hours cover a day that gains an hour.
const SESSION_OVERRUN_MS = 25 * 3_600_000;

export function sessionScope(s: EventScope): EventScope {
  return {
    ...s,
    days: { from: s.days.from, to: addDays(s.days.to, 1) },
    instants: s.instants && { from: s.instants.from, to: s.instants.to + SESSION_OVERRUN_MS },
  };
}

/**
 * Whether a row of the session-extended relation lies inside the scope itself. That relation already
 * starts where the scope starts, for the same site: only the end bounds need testing, per row.
 */
function startsInScope(d: Dialect, s: EventScope): Sql {
  const end = trusted(`day <= ${d.dateLiteral(s.days.to)}`);
  return s.instants ? sql`${end} AND ts < ${s.instants.to}` : end;
}

/**
 * The raw events of a site and time range with the filters applied, as a relation named `ev`.
 * Session-scoped filters keep whole sessions because their values are copied onto every event; the
 * exit page is the one session value derived here.
 */
export function eventsRelation(d: Dialect, s: EventScope): Sql {
  const where = scopeBounds(d, s);
  const base = s.exit
    ? sql`(SELECT e.*, x.exit_page FROM (SELECT * FROM events WHERE ${where}) e LEFT JOIN (SELECT session_id, ${trusted(
        d.argMax('page', 'ts'),
      )} AS exit_page FROM events WHERE ${scopeBounds(d, sessionScope(s))} AND name = 'pageview' GROUP BY session_id) x ON e.session_id = x.session_id)`
    : sql`(SELECT * FROM events WHERE ${where})`;
  if (s.filters.length === 0) return sql`${base} ev`;
  const predicates = s.filters.map((f) => sql`${keyExpr(f.dimension)} = ${f.value}`);
  return sql`(SELECT * FROM ${base} f WHERE ${joinSql(predicates, ' AND ')}) ev`;
}

export function needsExit(filters: readonly Filter[], breakdown?: Dimension): boolean {
  return breakdown === 'exit' || filters.some((f) => f.dimension === 'exit');
}

/**
 * Bucket of daily reads: the DATE `day` itself. Formatting it per row (dayText) costs more than the
 * aggregation; `dayRows` formats once per bucket instead.
 */
export const DAY_BUCKET: Sql = trusted('day');

/** The rows of a daily read (bucket `b` a DATE) with `b` as 'YYYY-MM-DD' text, the other columns kept. */
export function dayRows(d: Dialect, rows: Sql, columns: readonly string[]): Sql {
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, ${trusted(columns.join(', '))} FROM (${rows}) r`;
}

/** Index of the hourly bucket of an event row: `starts` ascending, the last bucket ending at `end`. */
export function hourBucket(starts: readonly number[], end: number): Sql {
  const bounds = [...starts.slice(1), end];
  const cases = bounds.map((b, i) => sql`WHEN ts < ${b} THEN ${trusted(String(i))} `);
  return sql`(CASE WHEN ts < ${starts[0] ?? end} THEN NULL ${joinSql(cases, '')}ELSE NULL END)`;
}

export interface Grouping {
  /** Bucket of an event row (day text or hour index); a session belongs to its first event's. */
  bucket: Sql;
  /** Dimension key, grouped on as `k`. */
  key?: Sql | undefined;
  /**
   * Also compute bounces and duration per session (skipped when nobody reads them): from the raw
   * events (true), or from session facts computed beforehand (rollups of many dimensions).
   */
  sessions: boolean | SessionFacts;
}

/** A relation of session facts (`sessionFactsSelect`) and, for a breakdown, the key on its rows. */
export interface SessionFacts {
  relation: Sql;
  key?: Sql;
}

const CUSTOM_EVENT = `name NOT IN (${BUILT_IN_EVENTS.map((n) => `'${n}'`).join(', ')})`;
export const IS_PAGEVIEW = `name = 'pageview'`;
const IS_ENGAGE = `name = 'engage'`;

/**
 * One aggregate per measure over event rows; the metrics of docs/api.md are ratios of their sums
 * (src/stats/engine.ts `metricValue`).
 */
const EVENT_MEASURES = {
  /** Distinct visitors of the bucket (a day's count is the day's visitors; days are summed). */
  visitors: (d: Dialect) => d.countDistinct('visitor_id'),
  pageviews: (d: Dialect) => d.countIf(IS_PAGEVIEW),
  /** Every kept event: the `views` of an event breakdown. */
  events: () => 'count(*)',
  /** Sessions whose first event is in the bucket. */
  sessions: (d: Dialect) => d.countIf('session_start'),
} as const;

/** Per-session facts, then one aggregate per session measure over them. */
const sessionFacts = (d: Dialect) => `${d.countIf(IS_PAGEVIEW)} AS pageviews,
    ${d.countIf(CUSTOM_EVENT)} AS customs,
    coalesce(${d.sumIf('engaged_ms', IS_ENGAGE)}, 0) AS engaged_ms,
    ${d.countIf(IS_ENGAGE)} AS engages,
    min(ts) AS first_ts, max(ts) AS last_ts`;
const SESSION_MEASURES = {
  /** A session bounces unless it has 2+ pageviews, a custom event, or 10+ s of engaged time. */
  bounces: (d: Dialect) => d.countIf(`NOT (pageviews >= 2 OR customs > 0 OR engaged_ms >= ${NON_BOUNCE_ENGAGED_MS})`),
  /** Engaged time, or last − first event without engagement, in ms. */
  duration_ms: () => 'sum(CASE WHEN engages > 0 THEN engaged_ms ELSE last_ts - first_ts END)',
} as const;

function selectMeasures(d: Dialect, measures: Record<string, (d: Dialect) => string>): Sql {
  return trusted(Object.entries(measures).map(([name, aggregate]) => `${aggregate(d)} AS ${name}`).join(', '));
}

/**
 * Per bucket (and key): visitors (distinct), pageviews, events, sessions started, bounces and the
 * duration sum (ms) of those sessions. Columns: b, [k,] visitors, pageviews, events, sessions,
 * bounces, duration_ms.
 */
export function measureEvents(d: Dialect, scope: EventScope, g: Grouping): Sql {
  const keySelect = g.key ? sql`, ${g.key} AS k` : trusted('');
  const keyGroup = trusted(g.key ? ', k' : '');
  const events = sql`SELECT ${g.bucket} AS b${keySelect}, ${selectMeasures(d, EVENT_MEASURES)} FROM ${eventsRelation(d, scope)} GROUP BY b${keyGroup}`;
  const keyOut = trusted(g.key ? ', a.k AS k' : '');
  if (!g.sessions) {
    return sql`SELECT a.b AS b${keyOut}, a.visitors, a.pageviews, a.events, a.sessions, 0 AS bounces, 0 AS duration_ms FROM (${events}) a`;
  }
  const facts = g.sessions === true ? { relation: sql`(${sessionFactsSelect(d, scope, g.bucket, g.key ? [{ name: 'sk', aggregate: sql`min(${g.key})` }] : [])}) x`, key: g.key && trusted('sk') } : g.sessions;
  const sessions = sql`SELECT sb AS b${facts.key ? sql`, ${facts.key} AS k` : trusted('')}, ${selectMeasures(d, SESSION_MEASURES)}
    FROM ${facts.relation} GROUP BY b${keyGroup}`;
  return sql`SELECT a.b AS b${keyOut}, a.visitors, a.pageviews, a.events, a.sessions,
    coalesce(s.bounces, 0) AS bounces, coalesce(s.duration_ms, 0) AS duration_ms
    FROM (${events}) a LEFT JOIN (${sessions}) s ON a.b = s.b${trusted(g.key ? ' AND a.k = s.k' : '')}`;
}

/**
 * One row per session that starts in the scope, with facts over its whole length (sessionScope):
 * `session_id`, its start bucket `sb`, one column per given key aggregate, then the facts the
 * session measures are computed from (pageviews, customs, engaged_ms, engages, first_ts, last_ts).
 */
export function sessionFactsSelect(d: Dialect, scope: EventScope, bucket: Sql, keys: ReadonlyArray<{ name: string; aggregate: Sql }>): Sql {
  const keyColumns = keys.map((k) => sql`${k.aggregate} AS ${trusted(k.name)}`);
  const perSession = sql`SELECT session_id, min(CASE WHEN session_start AND ${startsInScope(d, scope)} THEN ${bucket} END) AS sb,
    ${joinSql([...keyColumns, trusted(sessionFacts(d))], ', ')}
    FROM ${eventsRelation(d, sessionScope(scope))} GROUP BY session_id`;
  return sql`SELECT * FROM (${perSession}) f WHERE sb IS NOT NULL`;
}

/** A session's key of a session-scoped dimension, as an aggregate over its events. */
export function sessionKeyAggregate(d: Dialect, dimension: Dimension): Sql {
  // The exit page is the last pageview's page, which the events of the session hold no copy of.
  if (dimension === 'exit') return sql`coalesce(${trusted(d.argMaxIf('page', 'ts', IS_PAGEVIEW))}, ${NONE_KEY})`;
  return sql`min(${keyExpr(dimension)})`;
}

/** Matching predicate of a goal or funnel step on an event row. */
export function matcherPredicate(d: Dialect, m: Matcher): Sql {
  if (m.kind === 'event') return sql`name = ${m.pattern}`;
  return sql`(name = 'pageview' AND ${withParams(d.regexMatches('page'), pagePatternRegex(m.pattern))})`;
}

export interface GoalRef extends Matcher {
  goalId: number;
}

/** A literal for an id we issued ourselves (goal ids, funnel ids), never client text. */
export function integerLiteral(n: number): Sql {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return trusted(String(n));
}

/** Per day and goal: conversions and converting visitors. Columns: b, goal_id, conversions, unique_conversions. */
export function measureGoals(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[]): Sql {
  const parts = goals.map(
    (goal) => sql`SELECT ${bucket} AS b, visitor_id, ${integerLiteral(goal.goalId)} AS goal_id FROM events
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND ${matcherPredicate(d, goal)}`,
  );
  return sql`SELECT b, goal_id, count(*) AS conversions, ${trusted(d.countDistinct('visitor_id'))} AS unique_conversions
    FROM (${joinSql(parts, ' UNION ALL ')}) g GROUP BY b, goal_id`;
}

/** Events matching any funnel step, in the order the funnel walk needs. */
export function funnelEvents(d: Dialect, siteId: string, days: Period, steps: readonly Matcher[]): Sql {
  const any = joinSql(steps.map((s) => matcherPredicate(d, s)), ' OR ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ts, name, page FROM events
    WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND (${any})
    ORDER BY b, visitor_id, ts, name, page`;
}
