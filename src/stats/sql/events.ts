// The relations the measures are counted over: a site's raw events in a scope (days, instants,
// filters, the exit page derived), the same scope stretched over whole sessions, and the session
// rows (or goal rows) of some days. Every measure builder (./measures.ts) reads one of them.
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import { dimensionColumn, type Filter, type FilterDimension, GOAL_DIMENSION, isPropertyDimension, type PropertyDimension } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import type { TableSpec } from '../../storage/events/types.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { IS_PAGEVIEW } from '../measures.js';
import { CARRIES_NO_PROPERTIES, propertyToken } from '../properties.js';
import { SESSION_ROWS } from '../rollups/tables.js';
import { dayRange, filterPredicate, keyMatches } from './filters.js';

export interface EventScope {
  siteId: string;
  days: Period;
  /** Hourly reads also bound instants: [from, to). */
  instants?: { from: number; to: number } | undefined;
  filters: readonly Filter[];
  /** Derive each session's exit page (the last pageview's page) as `exit_page`. */
  exit: boolean;
  /** Keep only the events a property breakdown counts (every one but `engage`), this property's value's JSON text as `prop_token` ('' without it). */
  property?: PropertyDimension | undefined;
}

/** Rows of the site inside the scope's days (and instants, for hourly reads). */
export function scopeBounds(d: Dialect, s: EventScope): Sql {
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
 * The days an exit page is looked for in: the session-extended scope and the day before it, so that
 * a session that began before the range (across midnight) exits on its last pageview wherever the
 * range starts, as in the daily rollups and the session rows.
 */
function exitScope(s: EventScope): EventScope {
  const later = sessionScope(s);
  return {
    ...later,
    days: { from: addDays(s.days.from, -1), to: later.days.to },
    instants: later.instants && { from: later.instants.from - SESSION_OVERRUN_MS, to: later.instants.to },
  };
}

/**
 * Whether a row of the session-extended relation lies inside the scope itself. That relation already
 * starts where the scope starts, for the same site: only the end bounds need testing, per row.
 */
export function startsInScope(d: Dialect, s: EventScope): Sql {
  const end = trusted(`day <= ${d.dateLiteral(s.days.to)}`);
  return s.instants ? sql`${end} AND ts < ${s.instants.to}` : end;
}

/**
 * Per session of the events `where` selects: `session_id`, its exit page `exit_page` (the page of its
 * last pageview in `exitScope`; of two at the same instant, the least) and `matched` (1). The last
 * instant is found first and its page after, so that the aggregate holds one page per session: an
 * argMax over pages keeps a copy of each page that was the latest so far (DuckDB: three times a
 * day's pages for sessions of three pageviews, past its pool with pages of 2 KB).
 */
function exitPages(d: Dialect, s: EventScope, where: Sql): Sql {
  const pageviews = sql`${scopeBounds(d, exitScope(s))} AND ${trusted(IS_PAGEVIEW)}`;
  // Every column of the joined relations has a name of its own (ClickHouse 18.16 resolves clashing names on its own terms).
  const last = sql`SELECT session_id AS l_session, max(ts) AS l_ts FROM events
    WHERE ${pageviews} AND session_id IN (SELECT session_id FROM events WHERE ${where}) GROUP BY session_id`;
  return sql`SELECT p.p_session AS session_id, min(p.p_page) AS exit_page, 1 AS matched
    FROM (SELECT session_id AS p_session, ts AS p_ts, page AS p_page FROM events WHERE ${pageviews}) p
    JOIN (${last}) l ON p.p_session = l.l_session AND p.p_ts = l.l_ts GROUP BY p.p_session`;
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
      LEFT JOIN (${exitPages(d, s, where)}) x ON e.session_id = x.session_id)`
    : sql`(SELECT * FROM events WHERE ${where})`;
  const predicates = s.filters.map((f) => filterPredicate(d, f));
  const filtered = predicates.length === 0 ? base : sql`(SELECT * FROM ${base} f WHERE ${joinSql(predicates, ' AND ')})`;
  if (!s.property) return sql`${filtered} ev`;
  return sql`(SELECT *, ${propertyToken(d, s.property)} AS prop_token FROM ${filtered} c WHERE NOT ${trusted(CARRIES_NO_PROPERTIES)}) ev`;
}

/** The key of a session-scoped dimension on a session row, which holds an absent value as `(none)`. */
export function sessionRowKey(dimension: FilterDimension): Sql {
  // The planner reads session rows for session-scoped dimensions only.
  if (isPropertyDimension(dimension) || dimension === GOAL_DIMENSION) throw new Error(`session rows hold no ${dimension}`);
  return trusted(dimensionColumn(dimension));
}

/** The session rows of a site, days and filters (every one session-scoped), as a relation named `ev`. */
export function sessionRowsRelation(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql {
  return keyedRowsRelation(d, SESSION_ROWS, siteId, days, filters);
}

/**
 * The rows of a table keyed as session rows are (session-scoped keys under the events table's column
 * names, an absent value as `(none)`: session rows, goal rows) of a site, days and filters, and
 * `where` (more bounds), as a relation named `ev`.
 */
export function keyedRowsRelation(d: Dialect, table: TableSpec, siteId: string, days: Period, filters: readonly Filter[], where: readonly Sql[] = []): Sql {
  const bounds = [sql`site_id = ${siteId}`, dayRange(d, 'day', days), ...where];
  const chosen = filters.map((f) => keyMatches(d, sessionRowKey(f.dimension), f));
  const first = d.readFirst();
  if (first === null || chosen.length === 0) return sql`(SELECT * FROM ${trusted(table.name)} WHERE ${joinSql([...bounds, ...chosen], ' AND ')}) ev`;
  return sql`(SELECT * FROM ${trusted(table.name)} ${trusted(first)} ${joinSql(chosen, ' AND ')} WHERE ${joinSql(bounds, ' AND ')}) ev`;
}
