// Query compilation: the measures of src/stats/measures.ts over raw events, written once against
// the Dialect. The same builders answer raw-event reads and fill the rollup tables, so that both
// paths of the planner count alike.
//
// Every per-bucket row has the columns `b`, [`k`,] and one per traffic measure, in the registry's
// order; every metric of docs/api.md is a sum of such rows over days, or a ratio of sums.
import { addDays } from '../core/localtime.js';
import type { Dialect } from '../sql/dialect.js';
import type { Period } from '../core/period.js';
import type { Filter } from '../core/query.js';
import { NONE_KEY, type Dimension } from '../core/dimensions.js';
import { pagePatternRegex, type Matcher } from '../core/patterns.js';
import { joinSql, sql, trusted, withParams, type Sql } from '../sql/sql.js';
import { GOAL_MEASURES, IS_PAGEVIEW, measureAggregates, measureColumns, SESSION_FACTS, TRAFFIC_MEASURES } from './measures.js';

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
  // An event of a session without a pageview has no exit page: `x.matched` tells, since engines
  // differ on what an unmatched LEFT JOIN row holds (NULL in DuckDB, the type's default in ClickHouse).
  const base = s.exit
    ? sql`(SELECT e.*, CASE WHEN x.matched = 1 THEN x.exit_page END AS exit_page FROM (SELECT * FROM events WHERE ${where}) e
      LEFT JOIN (SELECT session_id, ${trusted(d.argMax('page', 'ts'))} AS exit_page, 1 AS matched FROM events
      WHERE ${scopeBounds(d, sessionScope(s))} AND ${trusted(IS_PAGEVIEW)} GROUP BY session_id) x ON e.session_id = x.session_id)`
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

const EVENT_COLUMNS = measureColumns(TRAFFIC_MEASURES, 'events');
const SESSION_COLUMNS = measureColumns(TRAFFIC_MEASURES, 'sessions');
/** The measure columns of the events part `a` of a measure row, prefixed. */
const fromEvents = trusted(EVENT_COLUMNS.map((c) => `a.${c}`).join(', '));

/**
 * Per bucket (and key), every traffic measure (src/stats/measures.ts); the per-session ones count
 * the sessions that start in the bucket. Columns: b, [k,] then the measures in registry order.
 */
export function measureEvents(d: Dialect, scope: EventScope, g: Grouping): Sql {
  const keySelect = g.key ? sql`, ${g.key} AS k` : trusted('');
  const keyGroup = trusted(g.key ? ', k' : '');
  const events = sql`SELECT ${g.bucket} AS b${keySelect}, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))}
    FROM ${eventsRelation(d, scope)} GROUP BY b${keyGroup}`;
  const keyOut = trusted(g.key ? ', a.k AS k' : '');
  if (!g.sessions) {
    return sql`SELECT a.b AS b${keyOut}, ${fromEvents}, ${trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '))} FROM (${events}) a`;
  }
  const facts = g.sessions === true ? { relation: sql`(${sessionFactsSelect(d, scope, g.bucket, g.key ? [{ name: 'sk', aggregate: sql`min(${g.key})` }] : [])}) x`, key: g.key && trusted('sk') } : g.sessions;
  const sessions = sql`SELECT sb AS b${facts.key ? sql`, ${facts.key} AS k` : trusted('')}, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'sessions'))}
    FROM ${facts.relation} GROUP BY b${keyGroup}`;
  // A bucket without a starting session has no row in `s`: its per-session measures are 0 (the
  // coalesce covers an engine that gives NULL there, and one that gives the type's default).
  return sql`SELECT a.b AS b${keyOut}, ${fromEvents}, ${trusted(SESSION_COLUMNS.map((c) => `coalesce(s.${c}, 0) AS ${c}`).join(', '))}
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
    ${joinSql([...keyColumns, ...SESSION_FACTS.map((f) => trusted(`${f.aggregate(d)} AS ${f.column}`))], ', ')}
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

/** Per day and goal, the goal measures. Columns: b, goal_id, then the measures in registry order. */
export function measureGoals(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[]): Sql {
  const parts = goals.map(
    (goal) => sql`SELECT ${bucket} AS b, visitor_id, ${integerLiteral(goal.goalId)} AS goal_id FROM events
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND ${matcherPredicate(d, goal)}`,
  );
  return sql`SELECT b, goal_id, ${trusted(measureAggregates(d, GOAL_MEASURES, 'events'))}
    FROM (${joinSql(parts, ' UNION ALL ')}) g GROUP BY b, goal_id`;
}

/** Events matching any funnel step, in the order the funnel walk needs. */
export function funnelEvents(d: Dialect, siteId: string, days: Period, steps: readonly Matcher[]): Sql {
  const any = joinSql(steps.map((s) => matcherPredicate(d, s)), ' OR ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ts, name, page FROM events
    WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND (${any})
    ORDER BY b, visitor_id, ts, name, page`;
}
