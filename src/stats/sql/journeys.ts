// Journeys (docs/api.md, Journeys): the sessions that start in the read days, each one's pageview
// paths in time order with consecutive repeats collapsed, cut into rows of at most `steps` paths,
// counted per row. One statement, its work in the engine: over sorted rows with window functions
// where the engine has them (DuckDB), else over a list (array) per session (ClickHouse 18.16 has
// none). The engine answers the top rows only, and the number of sessions that contributed a row
// beside them (a window over the groups on DuckDB, the totals row on ClickHouse).
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import type { JourneyParams } from '../../core/query.js';
import { type Filter, scopeOf } from '../../core/vocabulary.js';
import { type Dialect, integerText, type SessionLists } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { IS_PAGEVIEW } from '../measures.js';
import { eventsRelation } from './events.js';
import { dayRange, filterPredicate, needsExit } from './filters.js';

/** The columns of a page of rows: the path, its sessions and visitors, and `firsts`, whose sum over every row is the sessions that contributed one. */
export interface JourneyRowColumns {
  jp: unknown;
  sessions: unknown;
  visitors: unknown;
  firsts: unknown;
  /** DuckDB only: the sum of `firsts` over every row, on each row of the page. */
  total_sessions?: unknown;
}

/**
 * Whether a filter is a value every event of a session carries (copied from its first event at
 * ingest): it selects the session's events directly. The others (a page, an event, a property, the
 * exit page derived per session) select the sessions holding an event that matches.
 */
function carriedBySession(f: Filter): boolean {
  return scopeOf(f.dimension) === 'session' && !needsExit([f]);
}

/**
 * The request's filters as predicates on the events of the sessions read: a session is read when
 * one of its events matches every filter. The one place where a journeys read takes its filters.
 */
function sessionsChosen(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql[] {
  const carried = filters.filter(carriedBySession).map((f) => filterPredicate(d, f));
  if (filters.every(carriedBySession)) return carried;
  const matching = eventsRelation(d, { siteId, days, filters, exit: needsExit(filters) });
  return [...carried, sql`session_id IN (SELECT session_id FROM ${matching})`];
}

/**
 * The events of the sessions read, over the days and one more (a session that starts in the days
 * may go on past their end), and the condition of a session's first event in the days: its start.
 */
function sessionEvents(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], page: string | null): { where: Sql; starts: Sql } {
  const read = { from: days.from, to: addDays(days.to, 1) };
  const bounds = [sql`site_id = ${siteId}`, dayRange(d, 'day', read)];
  // With a page, only the sessions that visited it give rows: the others are left out before their pages are ordered.
  const visited = page === null ? [] : [sql`session_id IN (SELECT session_id FROM events WHERE ${joinSql(bounds, ' AND ')} AND ${trusted(IS_PAGEVIEW)} AND page = ${page})`];
  const where = joinSql([...bounds, ...sessionsChosen(d, siteId, read, filters), ...visited], ' AND ');
  return { where, starts: trusted(`session_start AND day <= ${d.dateLiteral(days.to)}`) };
}

/** An aggregate per session of its start event in the days (`starts`): of `day`, its start day `sb`; of `visitor_id`, its visitor `sv` (a visitor's id is the day's). NULL for a session that does not start in the days. */
const startOf = (starts: Sql, column: string) => sql`min(CASE WHEN ${starts} THEN ${trusted(column)} END)`;

/**
 * On an engine without window functions (ClickHouse 18.16): per session that starts in the days,
 * `sb`, `sv` and `pv`, its pageviews' paths in time order (then by path, for pageviews of one
 * instant) with consecutive repeats collapsed, as a list.
 */
function sessionPaths(d: Dialect, l: SessionLists, siteId: string, days: Period, filters: readonly Filter[], page: string | null): Sql {
  const { where, starts } = sessionEvents(d, siteId, days, filters, page);
  // Only the rows read are grouped: the pageviews, and the start event (which may be another event).
  const perSession = sql`SELECT ${startOf(starts, 'day')} AS sb, ${startOf(starts, 'visitor_id')} AS sv, ${trusted(l.orderedListIf('page', 'ts', IS_PAGEVIEW))} AS ps
    FROM events WHERE ${where} AND (${trusted(IS_PAGEVIEW)} OR ${starts}) GROUP BY session_id`;
  const kept = d.listFilter(l.listPositions('ps'), 'ji', 'ji = 1 OR ps[ji] <> ps[ji - 1]');
  return sql`SELECT sb, sv, ${trusted(l.listMap(kept, 'ji', 'ps[ji]'))} AS pv FROM (${perSession}) s WHERE sb IS NOT NULL`;
}

/**
 * On lists: a session's rows, distinct: from each position where a row starts or ends, the paths
 * from there on (`next`) or up to there (`previous`), at most `steps`. The positions are those of
 * `page`, or without one the first position (none in a journey without pageviews). Columns: sb,
 * sv, jp (a row) and `first`, 1 on one row of each session.
 */
function rowsOnLists(d: Dialect, l: SessionLists, siteId: string, days: Period, filters: readonly Filter[], j: JourneyParams): Sql {
  const steps = integerText(j.steps);
  const positions = j.page === null ? trusted(d.listFilter(l.listPositions('pv'), 'ji', 'ji = 1')) : withParams(d.listFilter(l.listPositions('pv'), 'ji', 'pv[ji] = ?'), j.page);
  const from = j.direction === 'next' ? 'ji' : `greatest(ji, ${steps}) - ${steps} + 1`;
  const length = j.direction === 'next' ? steps : `least(ji, ${steps})`;
  const rows = withParams(l.listDistinct(l.listMap(positions.text, 'ji', l.listSlice('pv', from, length))), ...positions.params);
  const perSession = sql`SELECT sb, sv, ${rows} AS jr FROM (${sessionPaths(d, l, siteId, days, filters, j.page)}) p`;
  return sql`SELECT sb, sv, jp, CASE WHEN jp = jr[1] THEN 1 ELSE 0 END AS first FROM (SELECT sb, sv, jr, ${trusted(d.unnest('jr'))} AS jp FROM (${perSession}) r) u`;
}

/**
 * On an engine with window functions (DuckDB), the same rows as `rowsOnLists`, counted from sorted
 * rows (which the engine spills to disk past its memory) rather than from a list per session held
 * in memory: each session's pageviews ordered, repeats dropped, each kept pageview's row read from
 * the ones after (`lead`) or before (`lag`) it.
 */
function rowsOnWindows(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], j: JourneyParams): Sql {
  const { where, starts } = sessionEvents(d, siteId, days, filters, j.page);
  const session = trusted('PARTITION BY session_id');
  const ordered = trusted('WINDOW o AS (PARTITION BY session_id ORDER BY ts, page)');
  // The sessions' starts apart (a row per session), so that only pageviews are sorted.
  const started = sql`SELECT session_id, min(day) AS sb, min(visitor_id) AS sv FROM events WHERE ${where} AND ${starts} GROUP BY session_id`;
  const pageviews = sql`SELECT session_id, ts, page, sb, sv, lag(page) OVER o AS pp
    FROM (SELECT session_id, ts, page FROM events WHERE ${where} AND ${trusted(IS_PAGEVIEW)}) e JOIN (${started}) s USING (session_id) ${ordered}`;
  const others = Array.from({ length: j.steps - 1 }, (_, i) => `${j.direction === 'next' ? 'lead' : 'lag'}(page, ${integerText(i + 1)}) OVER o`);
  const items = j.direction === 'next' ? ['page', ...others] : [...others.reverse(), 'page'];
  const row = d.listFilter(`[${items.join(', ')}]`, 'ji', 'ji IS NOT NULL');
  const journeys = sql`SELECT session_id, page, sb, sv, row_number() OVER o AS pos, ${trusted(row)} AS jp FROM (${pageviews}) b WHERE pp IS NULL OR pp <> page ${ordered}`;
  const at = j.page === null ? trusted('pos = 1') : sql`page = ${j.page}`;
  const kept = sql`SELECT session_id, sb, sv, jp, pos, min(pos) OVER (${session}) AS fp FROM (${journeys}) c WHERE ${at}`;
  return sql`SELECT sb, sv, jp, max(CASE WHEN pos = fp THEN 1 ELSE 0 END) AS first FROM (${kept}) k GROUP BY session_id, sb, sv, jp`;
}

/**
 * The page of a journeys read: its `limit` rows by sessions (descending), then path (bytewise, item
 * by item, a path before its longer continuations). Each session counts once per row it holds.
 * Columns: JourneyRowColumns; on ClickHouse, read with `queryPage` for the totals row.
 */
export function journeysStatement(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], j: JourneyParams): Sql {
  const lists = d.sessionLists;
  const rows = lists === null ? rowsOnWindows(d, siteId, days, filters, j) : rowsOnLists(d, lists, siteId, days, filters, j);
  // A session's rows are distinct: its one `first` row counts it once in the sum of `firsts`.
  const grouped = sql`SELECT jp, ${trusted(`CAST(count(*) AS BIGINT) AS sessions, ${d.countVisitorDays('sb', 'sv')} AS visitors, CAST(sum(first) AS BIGINT) AS firsts`)}
    FROM (${rows}) u GROUP BY jp`;
  const order = sql` ORDER BY sessions DESC, jp LIMIT ${trusted(integerText(j.limit))}`;
  const totals = d.groupTotals();
  if (totals !== null) return sql`${grouped} ${trusted(totals)}${order}`;
  const overAll = d.sumOverAll('firsts');
  if (overAll === null) throw new Error('journeys need an engine with a totals row or window functions');
  return sql`SELECT jp, sessions, visitors, firsts, ${trusted(overAll)} AS total_sessions FROM (${grouped}) g${order}`;
}
