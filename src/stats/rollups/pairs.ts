// Pair months (PAIR_MONTHLY, docs/read-path.md "Pair months"): per calendar month, a session-scoped
// filter key and another dimension's key, the traffic measures of the month's days under that filter.
// Written for a month once its every day is rolled up and inside the raw window, from the month's
// session rows (a session-scoped dimension broken down) and raw events (an event-scoped one), by
// the same aggregates that answer those reads; rewritten when a day of it is, dropped when it leaves
// those bounds. The planner reads them for the whole months of a breakdown under one such filter.
import type { EventStore } from '../../storage/events/types.js';
import { addDays } from '../../core/localtime.js';
import { addMonths, firstOfMonth, type Period } from '../../core/period.js';
import { dimensionColumn, DIMENSIONS, type Dimension, scopeOf } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { measureAggregates, measureColumns, sessionRowAggregates, TRAFFIC_MEASURES } from '../measures.js';
import { dayRange, keyExpr } from '../sql/filters.js';
import { SESSION_COLUMNS } from '../sql/measures.js';
import { PAIR_MONTHLY, SESSION_DIMENSIONS, SESSION_ROWS } from './tables.js';
import { pairsWritten } from '../windows.js';
import { eventRuns } from './write.js';

/** One filter dimension of pair months and the dimensions written under it. */
interface PairsOf {
  filter: Dimension;
  dimensions: Dimension[];
}

/** The session-scoped dimensions pair months are written under, each with the dimensions under it (./windows.ts, pairsWritten). */
const PAIRS: readonly PairsOf[] = SESSION_DIMENSIONS.map((filter) => ({ filter, dimensions: DIMENSIONS.filter((dimension) => pairsWritten(filter, dimension)) })).filter((pairs) => pairs.dimensions.length > 0);

const COLUMNS = measureColumns(TRAFFIC_MEASURES);
const SUMS = trusted(COLUMNS.map((c) => `sum(${c})`).join(', '));

/**
 * A month's rows of one filter dimension and the dimensions under it, over `days` (a run of the
 * month's days): per day, filter key `f` and key `k`, the measures, summed per month. Session-scoped
 * dimensions in one statement over the days' session rows (which hold every session-scoped key),
 * each event-scoped one in a statement of its own over the days' raw events (which carry every
 * session-scoped key but the exit page, derived per session).
 */
function pairStatements(d: Dialect, siteId: string, days: Period, pairs: PairsOf): Sql[] {
  const monthly = (filter: Dimension, dimension: Dimension, daily: Sql) =>
    sql`SELECT ${siteId} AS site, ${trusted(d.monthStart('b'))} AS m, ${filter} AS fd, f, ${dimension} AS dim, k, ${SUMS} FROM (${daily}) r GROUP BY m, f, k`;
  const bounds = sql`site_id = ${siteId} AND ${dayRange(d, 'day', days)}`;
  const bySessions = pairs.dimensions.filter((dimension) => scopeOf(dimension) === 'session');
  const fromSessions = bySessions.map((dimension) =>
    monthly(pairs.filter, dimension, sql`SELECT day AS b, ${trusted(dimensionColumn(pairs.filter))} AS f, ${trusted(dimensionColumn(dimension))} AS k, ${trusted(sessionRowAggregates(d, 'day', true))}
      FROM ${trusted(SESSION_ROWS.name)} WHERE ${bounds} GROUP BY b, f, k`),
  );
  const zeros = trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '));
  const fromEvents = pairs.dimensions
    .filter((dimension) => scopeOf(dimension) === 'event')
    .map((dimension) =>
      monthly(pairs.filter, dimension, sql`SELECT day AS b, ${keyExpr(pairs.filter)} AS f, ${keyExpr(dimension)} AS k, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))}, ${zeros}
        FROM events WHERE ${bounds} GROUP BY b, f, k`),
    );
  return [...(fromSessions.length > 0 ? [joinSql(fromSessions, ' UNION ALL ')] : []), ...fromEvents];
}

/**
 * The pairs written, as the mark's key: a month marked with other pairs (written before the pairs
 * changed) counts as not written, and is written again.
 */
const PAIRS_WRITTEN = PAIRS.map((pairs) => `${pairs.filter}:${pairs.dimensions.join(',')}`).join(';');

/** The mark row of a written month: its names `''` but its key (PAIRS_WRITTEN), every measure 0. */
function markRow(d: Dialect, siteId: string, month: string): Sql {
  return sql`SELECT ${siteId} AS site, ${trusted(d.dateLiteral(month))} AS m, '' AS fd, '' AS f, '' AS dim, ${PAIRS_WRITTEN} AS k, ${trusted(COLUMNS.map((c) => `0 AS ${c}`).join(', '))}`;
}

/**
 * Writes the pair rows of a month (its first day), in statements of `runs` (the month's days in
 * runs bounded by events, as session rows are written), and its mark. The statements of one filter
 * and dimension follow one another over the runs, so that a dimension's rows lie together: on
 * DuckDB a read of one skips the blocks of the others (a month's pages are rows by the hundred thousand).
 */
export async function writePairMonth(events: EventStore, siteId: string, month: string, runs: readonly Period[]): Promise<void> {
  const d = events.dialect;
  const rows = PAIRS.flatMap((pairs) => {
    const byRun = runs.map((run) => pairStatements(d, siteId, run, pairs));
    return (byRun[0] ?? []).flatMap((_, i) => byRun.map((statements) => statements[i]!));
  });
  await events.replaceRows(PAIR_MONTHLY, { siteId, days: { from: month, to: month } }, [...rows, markRow(d, siteId, month)]);
}

/** The first days of the months written (marked) from `from` to `to` (first days), ascending. */
export async function pairMonthsWritten(events: Pick<EventStore, 'dialect' | 'query'>, siteId: string, months: Period): Promise<string[]> {
  const d = events.dialect;
  const rows = await events.query<{ m: string }>(
    sql`SELECT ${trusted(d.dayText('month'))} AS m FROM ${trusted(PAIR_MONTHLY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'month', months)} AND filter_dimension = '' AND key = ${PAIRS_WRITTEN} ORDER BY month`,
  );
  return rows.map((r) => r.m);
}

/**
 * Drops the pair months holding `days` (their rows and marks): an import commits events into them,
 * and until the rollup job has written them again, reads take those months from session rows and
 * raw events, which the import's days are rewritten in, whether or not the run then finishes.
 */
export async function dropPairMonthsOf(events: EventStore, siteId: string, days: readonly string[]): Promise<void> {
  for (const month of new Set(days.map(firstOfMonth))) await events.replaceRows(PAIR_MONTHLY, { siteId, days: { from: month, to: month } }, null);
}

/** A month's last day, from its first. */
const lastDayOf = (month: string) => addDays(addMonths(month, 1), -1);

/** Months a run writes for the first time at most (a site rolled up before pair months existed): a year, each month a pass over its session rows and events (6 s for a month of 1 M events). */
const PAIR_MONTHS_A_RUN = 12;

/** What a site's pair months are bounded by after a rollup run. */
export interface PairBounds {
  /** The site's watermark: a month is written once its last day is rolled up. */
  watermark: string | null;
  /** The first day of the raw window: a month is written while its first day is inside it (its raw events whole). */
  windowStart: string;
  /** The first day session rows are written from (null: every rolled-up day's). */
  sessionRowsFrom: string | null;
}

/**
 * Brings a site's pair months up to date after a rollup run: writes again the months whose days it
 * rewrote (`touched`, first days), writes at most PAIR_MONTHS_A_RUN of those never written (latest first), and
 * drops the written ones that left the bounds.
 */
export async function updatePairMonths(events: EventStore, siteId: string, bounds: PairBounds, touched: ReadonlySet<string>): Promise<void> {
  const { watermark, windowStart, sessionRowsFrom } = bounds;
  if (watermark === null) return;
  const span = { from: firstOfMonth(windowStart), to: firstOfMonth(watermark) };
  const written = new Set(await pairMonthsWritten(events, siteId, span));
  const holds = (month: string) => month >= windowStart && lastDayOf(month) <= watermark && (sessionRowsFrom === null || sessionRowsFrom <= month);
  let fresh = PAIR_MONTHS_A_RUN;
  for (let month = span.to; month >= span.from; month = addMonths(month, -1)) {
    if (!holds(month)) {
      if (written.has(month)) await dropPairMonthsOf(events, siteId, [month]);
    } else if (touched.has(month) || (!written.has(month) && fresh-- > 0)) {
      await writePairMonth(events, siteId, month, await eventRuns(events, siteId, { from: month, to: lastDayOf(month) }));
    }
  }
}
