// Journeys (docs/api.md, Journeys): the sessions that start in the read days, each one's pageview
// paths in time order with consecutive repeats collapsed, cut into rows of at most `steps` paths,
// counted per row. One statement, its work in the engine with lists (arrays): ClickHouse 18.16
// has no window functions. The engine answers the top rows only, and the number of sessions that
// contributed a row beside them (the totals row on ClickHouse, a window over the groups on DuckDB).
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import type { JourneyParams } from '../../core/query.js';
import { type Filter, scopeOf } from '../../core/vocabulary.js';
import { type Dialect, integerText } from '../../sql/dialect.js';
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
 * Per session that starts in `days`: its start day `sb`, its visitor `sv` (the id of its first
 * event: a visitor's id is the day's) and `pv`, its pageviews' paths in time order (then by path,
 * for pageviews of one instant) with consecutive repeats collapsed. A session that starts in the
 * days may go on past their end: its events are read over one more day.
 */
function sessionPaths(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql {
  const read = { from: days.from, to: addDays(days.to, 1) };
  const where = [sql`site_id = ${siteId}`, dayRange(d, 'day', read), ...sessionsChosen(d, siteId, read, filters)];
  const starts = `session_start AND day <= ${d.dateLiteral(days.to)}`;
  const perSession = sql`SELECT min(CASE WHEN ${trusted(starts)} THEN day END) AS sb, min(CASE WHEN ${trusted(starts)} THEN visitor_id END) AS sv,
    ${trusted(d.orderedListIf('page', 'ts', IS_PAGEVIEW))} AS ps
    FROM events WHERE ${joinSql(where, ' AND ')} GROUP BY session_id`;
  const kept = d.listFilter(d.listPositions('ps'), 'ji', 'ji = 1 OR ps[ji] <> ps[ji - 1]');
  return sql`SELECT sb, sv, ${trusted(d.listMap(kept, 'ji', 'ps[ji]'))} AS pv FROM (${perSession}) s WHERE sb IS NOT NULL`;
}

/**
 * A session's rows, distinct: from each position where a row starts or ends, the paths from there
 * on (`next`) or up to there (`previous`), at most `steps`. The positions are those of `page`, or
 * without one the first position (none in a journey without pageviews).
 */
function sessionRows(d: Dialect, j: JourneyParams): Sql {
  const steps = integerText(j.steps);
  const positions = j.page === null ? trusted(d.listFilter(d.listPositions('pv'), 'ji', 'ji = 1')) : withParams(d.listFilter(d.listPositions('pv'), 'ji', 'pv[ji] = ?'), j.page);
  const from = j.direction === 'next' ? 'ji' : `greatest(ji, ${steps}) - ${steps} + 1`;
  const length = j.direction === 'next' ? steps : `least(ji, ${steps})`;
  return withParams(d.listDistinct(d.listMap(positions.text, 'ji', d.listSlice('pv', from, length))), ...positions.params);
}

/**
 * The page of a journeys read: its `limit` rows by sessions (descending), then path (bytewise, item
 * by item, a path before its longer continuations). Each session counts once per row it holds.
 * Columns: JourneyRowColumns; on ClickHouse, read with `queryPage` for the totals row.
 */
export function journeysStatement(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], j: JourneyParams): Sql {
  const rows = sql`SELECT sb, sv, jr, ${trusted(d.unnest('jr'))} AS jp FROM (SELECT sb, sv, ${sessionRows(d, j)} AS jr FROM (${sessionPaths(d, siteId, days, filters)}) p) r`;
  // A session's rows are distinct: each one's first row (by position) marks the session once.
  const grouped = sql`SELECT jp, ${trusted(`CAST(count(*) AS BIGINT) AS sessions, ${d.countVisitorDays('sb', 'sv')} AS visitors, ${d.countIf('jp = jr[1]')} AS firsts`)}
    FROM (${rows}) u GROUP BY jp`;
  const order = sql` ORDER BY sessions DESC, jp LIMIT ${trusted(integerText(j.limit))}`;
  const totals = d.groupTotals();
  if (totals !== null) return sql`${grouped} ${trusted(totals)}${order}`;
  const overAll = d.sumOverAll('firsts');
  if (overAll === null) throw new Error('journeys need an engine with a totals row or window functions');
  return sql`SELECT jp, sessions, visitors, firsts, ${trusted(overAll)} AS total_sessions FROM (${grouped}) g${order}`;
}
