// Journeys (docs/api.md, Journeys): the sessions that start in the read days, each one's pageview
// paths in time order with consecutive repeats collapsed, cut into rows of at most `steps` paths,
// counted per row. One statement, its work in the engine. Each session's paths come as a list:
// from session paths (./session-paths.ts) for the rolled-up days, and per day from raw events for
// the others, joined in day order; or, under filters session paths cannot answer, from raw events
// alone, over sorted rows with window functions where the engine has them (DuckDB), else as a list
// (ClickHouse 18.16 has none). The engine answers the top rows only, and the number of sessions
// that contributed a row beside them (a window over the groups on DuckDB, the totals row on
// ClickHouse). A session gives at most one row, so that rows add up to at most the sessions that
// gave one: from a page, its first occurrence's (`next`) or its last's (`previous`).
import type { Period } from '../../core/period.js';
import type { JourneyParams } from '../../core/query.js';
import type { Filter } from '../../core/vocabulary.js';
import { type Dialect, integerText, type SessionLists } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { IS_PAGEVIEW } from '../measures.js';
import { dayRange, filterPredicate, keyMatches, needsExit, shownPage } from './filters.js';
import { eventsRelation, sessionRowKey } from './events.js';
import { collapsedRepeats, conditions, dayPathsOfEvents } from './session-paths.js';
import type { JourneyDays } from '../planner.js';
import { SESSION_PATHS } from '../rollups/tables.js';
import { carriedBySession } from '../windows.js';

/** The columns of a page of rows: the path, its sessions and visitors. */
export interface JourneyRowColumns {
  jp: unknown;
  sessions: unknown;
  visitors: unknown;
  /** DuckDB only: the sessions of every row (each session gives one), on each row of the page. */
  total_sessions?: unknown;
}

/** A journeys read from raw events alone: the sessions' start days and the days read. */
interface RawJourneyDays {
  readonly starts: Period;
  readonly read: Period;
}

/** The days a read from raw events alone reads: the start days and what the plan reads after them (from session paths or raw events). */
function rawDays(days: JourneyDays): RawJourneyDays {
  const to = days.raw?.to ?? days.paths?.to;
  if (to === undefined) throw new Error('a journeys read reads some days');
  return { starts: days.starts, read: { from: days.starts.from, to } };
}

/**
 * The request's filters as predicates on the events of the sessions read: a session is read when
 * one of its events matches every filter. A key the session carries (`carriedBySession`) selects
 * the session's events directly; the others (a page, an event, a property, the exit page derived
 * per session) select the sessions holding an event that matches.
 */
function sessionsChosen(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql[] {
  const carried = filters.filter(carriedBySession).map((f) => filterPredicate(d, f));
  if (filters.every(carriedBySession)) return carried;
  const matching = eventsRelation(d, { siteId, days, filters, exit: needsExit(filters) });
  return [...carried, sql`session_id IN (SELECT session_id FROM ${matching})`];
}

/**
 * The events of the sessions read, over the days read (`read`: the start days and one more, as the
 * planner gives them: a session that starts in the days may go on past their end), and the
 * condition of a session's first event in the start days: its start.
 */
function sessionEvents(d: Dialect, siteId: string, { starts: days, read }: RawJourneyDays, filters: readonly Filter[], page: string | null): { where: Sql; starts: Sql } {
  const bounds = [sql`site_id = ${siteId}`, dayRange(d, 'day', read)];
  // With a page, only the sessions that visited it give rows: the others are left out before their pages are ordered.
  const visited = page === null ? [] : [sql`session_id IN (SELECT session_id FROM events WHERE ${joinSql(bounds, ' AND ')} AND ${trusted(IS_PAGEVIEW)} AND page = ${page})`];
  const where = joinSql([...bounds, ...sessionsChosen(d, siteId, read, filters), ...visited], ' AND ');
  return { where, starts: trusted(`session_start AND day <= ${d.dateLiteral(days.to)}`) };
}

/**
 * An event's page as a journey's step: under a page lock, a page outside it as OTHER_PAGE_KEY
 * (consecutive ones then collapse into one step, as repeats of one path do).
 */
const pageShown = (d: Dialect, lock: Filter | null): Sql => (lock ? shownPage(d, trusted('page'), lock) : trusted('page'));

/** An aggregate per session of its start event in the days (`starts`): of `day`, its start day `sb`; of `visitor_id`, its visitor `sv` (a visitor's id is the day's). NULL for a session that does not start in the days. */
const startOf = (starts: Sql, column: string) => sql`min(CASE WHEN ${starts} THEN ${trusted(column)} END)`;

/**
 * From raw events alone, as lists: per session that starts in the days, `sb`, `sv` and `pv`, its
 * pageviews' paths in time order (then by path, for pageviews of one instant) with consecutive
 * repeats collapsed, as a list.
 */
function sessionPaths(d: Dialect, l: SessionLists, siteId: string, days: RawJourneyDays, filters: readonly Filter[], page: string | null, lock: Filter | null): Sql {
  const { where, starts } = sessionEvents(d, siteId, days, filters, page);
  const shown = pageShown(d, lock);
  // Only the rows read are grouped: the pageviews, and the start event (which may be another event).
  const perSession = sql`SELECT ${startOf(starts, 'day')} AS sb, ${startOf(starts, 'visitor_id')} AS sv, ${withParams(l.orderedListIf(shown.text, 'ts', IS_PAGEVIEW), ...shown.params)} AS ps
    FROM events WHERE ${where} AND (${trusted(IS_PAGEVIEW)} OR ${starts}) GROUP BY session_id`;
  return sql`SELECT sb, sv, ${trusted(collapsedRepeats(d, l, 'ps'))} AS pv FROM (${perSession}) s WHERE sb IS NOT NULL`;
}

/**
 * From session paths where they answer (no page, every filter a carried key): per session that starts in
 * `days.starts`, `sb`, `sv` and `pv` as `sessionPaths` gives them. The rows of its days up to the
 * watermark (`days.paths`) and the same per-day lists of raw events after it (`days.raw`), joined in
 * day order: a list ends on the path the next day's list may begin with, which the join collapses.
 * A row holding no paths (`raw_needed`) gives way to its day's raw events of the session.
 */
function sessionPathsRead(d: Dialect, l: SessionLists, siteId: string, days: JourneyDays & { paths: Period }, filters: readonly Filter[]): Sql {
  const onRows = filters.map((f) => keyMatches(d, sessionRowKey(f.dimension), f));
  const onEvents = filters.map((f) => filterPredicate(d, f));
  const rolledUp = [sql`site_id = ${siteId}`, dayRange(d, 'day', days.paths)];
  const rawNeeded = (columns: string) => sql`(SELECT ${trusted(columns)} FROM ${trusted(SESSION_PATHS.name)} WHERE ${joinSql(rolledUp, ' AND ')} AND raw_needed)`;
  const parts = [
    sql`SELECT day, session_id, start_visitor, paths FROM ${trusted(SESSION_PATHS.name)} ${conditions(d, onRows, [...rolledUp, trusted('NOT raw_needed')])}`,
    // The few days of rows without paths, from raw events: their days and sessions' ids are read
    // first, the other columns of their events only. Without the days first, DuckDB matched every
    // event of a year's days against the rows (1.5 s of a year's first paths, 10.6 M events).
    dayPathsOfEvents(d, joinSql([...rolledUp, ...onEvents], ' AND '), [sql`day IN ${rawNeeded('day')}`, sql`(session_id, day) IN ${rawNeeded('session_id, day')}`]),
    ...(days.raw === null ? [] : [dayPathsOfEvents(d, joinSql([sql`site_id = ${siteId}`, dayRange(d, 'day', days.raw), ...onEvents], ' AND '))]),
  ];
  const started = trusted(`day <= ${d.dateLiteral(days.starts.to)}`);
  const union = joinSql(parts, ' UNION ALL ');
  const joined = (rows: Sql) => sql`SELECT min(CASE WHEN start_visitor IS NOT NULL AND ${started} THEN day END) AS sb, min(CASE WHEN ${started} THEN start_visitor END) AS sv,
      ${trusted(l.concatInOrder('paths', 'day'))} AS ps
    FROM (${rows}) u GROUP BY session_id`;
  // Only sessions of several rows are grouped (a lone row is one that started before the days, left out): their joined lists collapse where one day's ends as the next begins.
  const sessions = (rows: Sql) => sql`SELECT sb, sv, ${trusted(collapsedRepeats(d, l, 'ps'))} AS pv FROM (${joined(rows)}) s WHERE sb IS NOT NULL`;
  // A session of one day's row (most) takes its paths as they are, collapsed already; only the days of one of several are grouped and joined in order.
  // (sb made NULL-able by a CASE, as the grouped sessions' is: ClickHouse's UNION ALL takes no mix.)
  const alone = (rows: Sql) => sql`SELECT CASE WHEN start_visitor IS NOT NULL THEN day END AS sb, start_visitor AS sv, paths AS pv FROM ${rows} o WHERE start_visitor IS NOT NULL AND ${started}`;
  // A session of several rows is one that went on past its first day: a row without a start (a
  // session's start is its first event alone). Grouping every session instead made a year's first
  // paths (10.6 M events) take ClickHouse 18.16 2.3 times as long; counting each session's rows in
  // a window, DuckDB 1.7 times as long.
  const continued = sql`(SELECT session_id FROM (${union}) c WHERE start_visitor IS NULL)`;
  return sql`${alone(sql`(SELECT * FROM (${union}) a WHERE session_id NOT IN ${continued})`)} UNION ALL ${sessions(sql`SELECT * FROM (${union}) m WHERE session_id IN ${continued}`)}`;
}

/**
 * On lists (`sessions`: sb, sv and pv per session): a session's row, at most `steps` paths from its
 * first occurrence of `page` on (`next`) or up to its last (`previous`); without a page, its first
 * paths (none in a journey without pageviews). Columns: sb, sv, jp (the row).
 */
function rowsOnLists(d: Dialect, l: SessionLists, sessions: Sql, j: JourneyParams): Sql {
  const steps = integerText(j.steps);
  if (j.page === null) return sql`SELECT sb, sv, ${trusted(l.listSlice('pv', '1', steps))} AS jp FROM (${sessions}) p WHERE ${trusted(l.listLength('pv'))} > 0`;
  // The page's positions in the journey, and of them the first (`next`) or the last (`previous`, [-1]).
  const at = `(${d.listFilter(l.listPositions('pv'), 'ji', 'pv[ji] = ?')})[${j.direction === 'next' ? '1' : '-1'}]`;
  // The sessions that never visited the page give no row.
  const positioned = sql`SELECT sb, sv, pv, ${withParams(at, j.page)} AS ji FROM (${sessions}) p WHERE ${withParams(l.listHas('pv'), j.page)}`;
  const from = j.direction === 'next' ? 'ji' : `greatest(ji, ${steps}) - ${steps} + 1`;
  const length = j.direction === 'next' ? steps : `least(ji, ${steps})`;
  return sql`SELECT sb, sv, ${trusted(l.listSlice('pv', from, length))} AS jp FROM (${positioned}) r`;
}

/**
 * On an engine with window functions (DuckDB), the same rows as `rowsOnLists`, counted from sorted
 * rows (which the engine spills to disk past its memory) rather than from a list per session held
 * in memory: each session's pageviews ordered, repeats dropped, each kept pageview's row read from
 * the ones after (`lead`) or before (`lag`) it.
 */
function rowsOnWindows(d: Dialect, siteId: string, days: RawJourneyDays, filters: readonly Filter[], j: JourneyParams, lock: Filter | null): Sql {
  const { where, starts } = sessionEvents(d, siteId, days, filters, j.page);
  const session = trusted('PARTITION BY session_id');
  const ordered = trusted('WINDOW o AS (PARTITION BY session_id ORDER BY ts, page)');
  // The sessions' starts apart (a row per session), so that only pageviews are sorted.
  const started = sql`SELECT session_id, min(day) AS sb, min(visitor_id) AS sv FROM events WHERE ${where} AND ${starts} GROUP BY session_id`;
  const pageviews = sql`SELECT session_id, ts, page, sb, sv, lag(page) OVER o AS pp
    FROM (SELECT session_id, ts, ${pageShown(d, lock)} AS page FROM events WHERE ${where} AND ${trusted(IS_PAGEVIEW)}) e JOIN (${started}) s USING (session_id) ${ordered}`;
  const others = Array.from({ length: j.steps - 1 }, (_, i) => `${j.direction === 'next' ? 'lead' : 'lag'}(page, ${integerText(i + 1)}) OVER o`);
  const items = j.direction === 'next' ? ['page', ...others] : [...others.reverse(), 'page'];
  const row = d.listFilter(`[${items.join(', ')}]`, 'ji', 'ji IS NOT NULL');
  const journeys = sql`SELECT session_id, page, sb, sv, row_number() OVER o AS pos, ${trusted(row)} AS jp FROM (${pageviews}) b WHERE pp IS NULL OR pp <> page ${ordered}`;
  if (j.page === null) return sql`SELECT sb, sv, jp FROM (${journeys}) c WHERE pos = 1`;
  // A session's one row: at its first occurrence of the page (`next`) or its last (`previous`).
  const end = j.direction === 'next' ? 'min' : 'max';
  const kept = sql`SELECT sb, sv, jp, pos, ${trusted(end)}(pos) OVER (${session}) AS kp FROM (${journeys}) c WHERE page = ${j.page}`;
  return sql`SELECT sb, sv, jp FROM (${kept}) k WHERE pos = kp`;
}

/**
 * The page of a journeys read: its `limit` rows by sessions (descending), then path (bytewise, item
 * by item, a path before its longer continuations). Each session counts once, in its one row.
 * Columns: JourneyRowColumns; on ClickHouse, read with `queryPage` for the totals row.
 */
export function journeysStatement(d: Dialect, siteId: string, days: JourneyDays, filters: readonly Filter[], j: JourneyParams, pageLock: Filter | null): Sql {
  const l = d.sessionLists;
  const { paths } = days;
  // A page lock is a page filter, which session paths never answer: its steps are raw events' pages, folded where the lock says.
  if (pageLock && paths !== null) throw new Error('journeys under a page lock read raw events alone');
  // Session paths answer where they hold the days, from a page too: sorted raw events took DuckDB
  // 1.3 – 2.4 times as long (10.6 M events), ClickHouse 2 times (docs/performance.md, Journeys).
  const rows =
    paths !== null
      ? rowsOnLists(d, l, sessionPathsRead(d, l, siteId, { ...days, paths }, filters), j)
      : d.journeysOverWindows
        ? rowsOnWindows(d, siteId, rawDays(days), filters, j, pageLock)
        : rowsOnLists(d, l, sessionPaths(d, l, siteId, rawDays(days), filters, j.page, pageLock), j);
  // A session gives one row: the sessions summed over every row are the sessions that gave one.
  const order = sql` ORDER BY sessions DESC, jp LIMIT ${trusted(integerText(j.limit))}`;
  const totals = d.groupTotals();
  if (totals !== null) {
    const grouped = sql`SELECT jp, ${trusted(`CAST(count(*) AS BIGINT) AS sessions, ${d.countVisitorDays('sb', 'sv')} AS visitors`)} FROM (${rows}) u GROUP BY jp`;
    return sql`${grouped} ${trusted(totals)}${order}`;
  }
  const overAll = d.sumOverAll('sessions');
  if (overAll === null) throw new Error('journeys need an engine with a totals row or window functions');
  // Each row, day and visitor grouped once, then each row's groups counted: a distinct count per
  // row keeps a set of visitors per row (DuckDB: 1.4 times the time of a year's first paths; on
  // ClickHouse its exact distinct count is the sooner, 0.8 times the time).
  const grouped = sql`SELECT jp, CAST(sum(n) AS BIGINT) AS sessions, CAST(count(*) AS BIGINT) AS visitors
    FROM (SELECT jp, sb, sv, count(*) AS n FROM (${rows}) u GROUP BY jp, sb, sv) v GROUP BY jp`;
  return sql`SELECT jp, sessions, visitors, ${trusted(overAll)} AS total_sessions FROM (${grouped}) g${order}`;
}
