// Session paths (SESSION_PATHS, ../rollups/tables.ts): per session and local day, its pageviews'
// paths in order. The rollup job writes them from raw events (`sessionPathRows`); journeys
// (./journeys.ts) read them for rolled-up days and the same per-day lists of raw events for the
// others (`dayPathsOfEvents`), so that both sources give a day's list alike.
import type { Period } from '../../core/period.js';
import { dimensionColumn, NONE_KEY } from '../../core/vocabulary.js';
import type { Dialect, SessionLists } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { IS_PAGEVIEW } from '../measures.js';
import { CARRIED_DIMENSIONS, PATHS_MAX_BYTES } from '../rollups/tables.js';
import { dayRange } from './filters.js';

/** A list of paths (a column or expression `list`) with each run of one path in a row kept once. */
export function collapsedRepeats(d: Dialect, l: SessionLists, list: string): string {
  return l.listMap(d.listFilter(l.listPositions(list), 'ji', `ji = 1 OR ${list}[ji] <> ${list}[ji - 1]`), 'ji', `${list}[ji]`);
}

/**
 * The clause of a select's conditions: `first` (few rows pass them) read before the other columns
 * where the engine can (the dialect's `readFirst`: ClickHouse's PREWHERE), then `rest`.
 */
export function conditions(d: Dialect, first: readonly Sql[], rest: readonly Sql[]): Sql {
  const readFirst = d.readFirst();
  if (first.length === 0 || readFirst === null) return sql`WHERE ${joinSql([...first, ...rest], ' AND ')}`;
  return sql`${trusted(readFirst)} ${joinSql(first, ' AND ')} WHERE ${joinSql(rest, ' AND ')}`;
}

/**
 * The per-day grouping both sources share: per day and session of the events `where` selects (their
 * pageviews and start events only), `p_start_visitor` (the visitor of its start events that day, NULL
 * without one) and `p_ps`, its pageviews' paths ordered by instant then path; `more` adds columns.
 * `first`: conditions that select few sessions, read before the other columns where the engine can
 * (the dialect's `readFirst`).
 */
function perSessionDay(d: Dialect, where: Sql, more: readonly string[] = [], first: readonly Sql[] = []): Sql {
  const ordered = d.sessionLists.orderedListIf('page', 'ts', IS_PAGEVIEW);
  const filters = conditions(d, first, [where, sql`(${trusted(IS_PAGEVIEW)} OR session_start)`]);
  return sql`SELECT day AS p_day, session_id AS p_session, min(CASE WHEN session_start THEN visitor_id END) AS p_start_visitor, ${trusted([`${ordered} AS p_ps`, ...more].join(', '))}
    FROM events ${filters} GROUP BY day, session_id`;
}

/**
 * Per day and session of the events `where` selects (site and days included; `first` as
 * `perSessionDay` reads them): `day`, `session_id`, `start_visitor` and `paths` (repeats
 * collapsed), as session path rows hold them.
 */
export function dayPathsOfEvents(d: Dialect, where: Sql, first: readonly Sql[] = []): Sql {
  const paths = collapsedRepeats(d, d.sessionLists, 'p_ps');
  return sql`SELECT p_day AS day, p_session AS session_id, p_start_visitor AS start_visitor, ${trusted(paths)} AS paths FROM (${perSessionDay(d, where, [], first)}) q`;
}

/** ` AND` the condition that the session of `column` is in part `part` of `parts` (by its id; nothing with one part). */
export function inSessionPart(column: string, part: number, parts: number): Sql {
  return parts === 1 ? trusted('') : sql` AND (${trusted(column)} % ${parts} + ${parts}) % ${parts} = ${part}`;
}

/**
 * The most events of a day whose sessions are written in one part (parts split a day's sessions by
 * id): a list aggregate cannot spill to disk, so a part's memory stays within the pool that an
 * import under a 128 MB budget leaves DuckDB (test/ingest/import-memory.test.ts). Each part reads
 * the whole day again, so a day takes no more parts than its events need.
 */
const SESSION_PATH_EVENTS_A_PART = 50_000;

/**
 * The session path rows (SESSION_PATHS) of some days with their events (null: none), in the table's column order, one day's part
 * of its sessions per select, inserted one after another (`Rows`: a statement's memory follows the
 * largest part's pageviews, not the range's). A row whose events disagree on a carried key, or whose paths pass
 * PATHS_MAX_BYTES, holds no paths and says `raw_needed`.
 */
export function sessionPathRows(d: Dialect, siteId: string, days: ReadonlyArray<{ day: string; events: number }>): Sql[] | null {
  if (days.length === 0) return null;
  const l = d.sessionLists;
  const key = (dim: (typeof CARRIED_DIMENSIONS)[number]) => `coalesce(${dimensionColumn(dim)}, '${NONE_KEY}')`;
  const keys = CARRIED_DIMENSIONS.map((dim) => `min(${key(dim)}) AS p_${dim}`);
  const agree = `CASE WHEN ${CARRIED_DIMENSIONS.map((dim) => `min(${key(dim)}) = max(${key(dim)})`).join(' AND ')} THEN 1 ELSE 0 END AS p_agree`;
  const raw = `(p_agree = 0 OR ${l.listBytes('p_pv')} > ${PATHS_MAX_BYTES})`;
  const ofDay = (day: string, part: number, parts: number) => {
    const where = sql`site_id = ${siteId} AND ${dayRange(d, 'day', { from: day, to: day })}${inSessionPart('session_id', part, parts)}`;
    const grouped = perSessionDay(d, where, [...keys, agree]);
    const collapsed = sql`SELECT *, ${trusted(collapsedRepeats(d, l, 'p_ps'))} AS p_pv FROM (${grouped}) g`;
    return sql`SELECT ${siteId} AS o_site, p_day AS o_day, p_session AS o_session, p_start_visitor AS o_start_visitor, ${trusted(CARRIED_DIMENSIONS.map((dim) => `p_${dim} AS o_${dim}`).join(', '))},
      CASE WHEN ${trusted(raw)} THEN ${trusted(l.listSlice('p_pv', '1', '0'))} ELSE p_pv END AS o_paths, ${trusted(raw)} AS o_raw_needed FROM (${collapsed}) c`;
  };
  const each: Sql[] = [];
  for (const { day, events } of days) {
    const parts = Math.max(1, Math.ceil(events / SESSION_PATH_EVENTS_A_PART));
    for (let part = 0; part < parts; part++) each.push(ofDay(day, part, parts));
  }
  return each;
}

/**
 * The characters of a page that weigh as much as one more event in a statement's memory (a
 * statement groups sessions by keys that hold pages: its entry and exit, its paths): an event of a
 * short path weighs about one, one of a 2 048-character path 65, so that bounds counted in events
 * hold whatever the paths' length (bench/import-isolation, BENCH_PATH_BYTES: at one per 64
 * characters, a pass of two days of 13 000 such sessions each counted its page dimension past an
 * import's 112 MiB).
 */
const PAGE_CHARS_AN_EVENT = 32;

/** The rows of a group, each weighed by the length of its string `column` as an event by its page (PAGE_CHARS_AN_EVENT). */
export const weighedRows = (column: string): string => `count(*) + coalesce(sum(length(${column})), 0) / ${PAGE_CHARS_AN_EVENT}`;

/**
 * Columns t (the day's text) and n: the events of each day of `days` that has any, each weighed
 * by its page's length (`weighedRows`), so that n bounds what a statement over them holds.
 */
export function eventDaysStatement(d: Dialect, siteId: string, days: Period): Sql {
  return sql`SELECT ${trusted(d.dayText('day'))} AS t, ${trusted(weighedRows('page'))} AS n FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} GROUP BY day`;
}
