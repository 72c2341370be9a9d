// Daily rollups (docs/read-path.md, "Where each day's figures come from"): site_daily, dim_daily (capped per site,
// day and dimension, the rest folded into `(other)`), goal rows and goal_daily (their sums), and
// funnel_daily (per funnel version), written exactly from raw events by the same measure builders that answer raw reads
// (src/stats/sql/), with the session parts and rows of rollups/sql.ts. dim_monthly sums dim_daily
// per calendar month, so that long breakdowns group a few rows per key instead of one per
// day (every measure is a sum of daily values, so the sums are exact).
//
// Every column of a `rows` query carries a name of its own: ClickHouse merges two columns of one
// unnamed expression text (two equal literals) into one.
import type { EventStore } from '../../storage/events/types.js';
import { addDays } from '../../core/localtime.js';
import { addMonths, firstOfMonth, type Period } from '../../core/period.js';
import { DIMENSIONS, isPropertyDimension, NONE_KEY, OTHER_KEY, PROPERTY_PREFIX, scopeOf, type QueryDimension } from '../../core/vocabulary.js';
import { asRepeated, dayRange, integerLiteral, repeatedKeyExpr, scopedPropertyKey } from '../sql/filters.js';
import { funnelEvents, goalRowsOfEvents, measureGoalRows } from '../sql/goals.js';
import { measureEvents, measureSessionRows } from '../sql/measures.js';
import { measurePropertyNones, sessionPartDays, sessionPartsOfEvents, sessionRowsOfParts } from './sql.js';
import { measurePropertyPairs } from '../sql/properties.js';
import { measureScrollDepth } from '../sql/scroll.js';
import { measureVitals } from '../sql/vitals.js';
import { sessionPathRows, weighedRows } from '../sql/session-paths.js';
import { eventDays } from './passes.js';
import { sessionRowKey } from '../sql/events.js';
import { viewsColumn } from '../sql/breakdown.js';
import type { Definitions } from './coverage.js';
import { walkFunnel, type FunnelEventRow } from '../funnel.js';
import { GOAL_MEASURES, measureColumns, TRAFFIC_MEASURES } from '../measures.js';
import { joinSql, sql, trusted, type Sql } from '../../sql/sql.js';
import { DAILY_TABLES, DIM_DAILY, DIM_MONTHLY, DIM_TOP_KEYS, FUNNEL_DAILY, GOAL_DAILY, GOAL_ROWS, ROLLUP_TABLES, SCROLL_DAILY, SESSION_PARTS, SESSION_PATHS, SESSION_ROWS, SITE_DAILY, VITALS_DAILY } from './tables.js';

const TRAFFIC_COLUMNS = trusted(measureColumns(TRAFFIC_MEASURES).join(', '));

export function createRollupTables(events: EventStore): Promise<void> {
  return events.createTables(ROLLUP_TABLES);
}

/**
 * dim_daily rows of dimensions, a select each (`Rows`: a dimension's keys at a time, not the pages,
 * entry and exit pages of the days at once), each key passed through `fold` (the cap).
 * Session-scoped dimensions are counted over the session rows of the same days
 * (`writeSessionRows`), event-scoped ones over raw events, their keys typed as the session rows'.
 */
function dimensionRows(events: EventStore, siteId: string, days: Period, dimensions: readonly QueryDimension[], fold = (key: Sql) => key): Sql[] {
  const d = events.dialect;
  return dimensions.map((dimension) => {
    const scope = { siteId, days, filters: [], exit: false };
    const measures = isPropertyDimension(dimension)
      ? measureEvents(d, { ...scope, property: dimension }, { bucket: trusted('day'), key: fold(asRepeated(d, scopedPropertyKey(d))), sessions: false })
      : scopeOf(dimension) === 'session'
        ? measureSessionRows(d, siteId, days, [], fold(sessionRowKey(dimension)))
        : measureEvents(d, scope, { bucket: trusted('day'), key: fold(repeatedKeyExpr(d, dimension)), sessions: false });
    return sql`SELECT ${siteId} AS site, b, ${dimension} AS dim, k, ${TRAFFIC_COLUMNS} FROM (${measures}) m`;
  });
}

/**
 * dim_daily rows of every custom property the days' events carry (dimensions `prop.<key>`), uncapped,
 * with their `(none)` rows and each day's `prop.` row (`measurePropertyNones`).
 */
function propertyRows(events: EventStore, siteId: string, days: Period): Sql[] {
  const d = events.dialect;
  return [
    sql`SELECT ${siteId} AS site, b, dim, k, ${TRAFFIC_COLUMNS} FROM (${measurePropertyPairs(d, siteId, days)}) m`,
    sql`SELECT ${siteId} AS site, b, dim, k, ${TRAFFIC_COLUMNS} FROM (${measurePropertyNones(d, siteId, days)}) n`,
  ];
}

/**
 * Writes the session rows of the days, from the parts of their sessions over the days and one day
 * either side: the site's and the session-scoped dimensions' rollups are counted over them.
 */
export async function writeSessionRows(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const around = { siteId, days: sessionPartDays(days) };
  const runs = await statementsOfDays(events, siteId, days, { days: Number.MAX_SAFE_INTEGER, events: SESSION_ROWS_EVENTS_A_STATEMENT });
  const eventsOf = new Map(runs.flatMap((run) => run.withEvents.map((day) => [day.day, day.events] as const)));
  await events.replaceRows(SESSION_PARTS, around, sessionPartsOfEvents(d, siteId, days, (day) => sharesOf(eventsOf.get(day) ?? 0)));
  for (const run of runs) await events.replaceRows(SESSION_ROWS, { siteId, days: run }, sessionRowsOfParts(d, siteId, run, sharesOf(eventsOfRun(run))));
  await events.replaceRows(SESSION_PARTS, around, null);
}

/**
 * The events (weighed by their pages' length: `eventDaysStatement`) whose sessions a select of
 * session rows counts at most (a larger day is a statement of its own, its sessions split among
 * selects): it holds a hash table of every session of its days, as many as their events where
 * each is a session of its own (an Umami export of one pageview a visit), and 360 000 of them took
 * more than an import's 112 MiB of DuckDB's pool (bench/import-isolation), their exit pages the
 * more the longer their paths. Days of sessions of a few events each take the same statements, each smaller.
 * A select of goal rows takes as many events, its groups at most one a conversion.
 */
const SESSION_ROWS_EVENTS_A_STATEMENT = 200_000;

/** The selects a statement of session rows or goal rows over `events` events takes: a day past the bound is a statement of its own, its sessions or visitors split in as many shares as it needs. */
const sharesOf = (events: number) => Math.max(1, Math.ceil(events / SESSION_ROWS_EVENTS_A_STATEMENT));

/**
 * The days of `days` in consecutive runs, each at most `most.days` days with events and `most.events`
 * events (a day past the bound a run of its own), with the days of each that hold events. Days
 * without events take no place, so a long stretch without events is in one run.
 */
async function statementsOfDays(events: EventStore, siteId: string, days: Period, most: { days: number; events: number }) {
  const eventsOf = new Map((await eventDays(events, siteId, days)).map((r) => [r.day, r.events]));
  const runs: Array<Period & { withEvents: Array<{ day: string; events: number }> }> = [];
  let from = days.from;
  let withEvents: Array<{ day: string; events: number }> = [];
  let total = 0;
  for (let day = days.from; day <= days.to; day = addDays(day, 1)) {
    const n = eventsOf.get(day) ?? 0;
    const next = addDays(day, 1);
    if (n > 0) {
      withEvents.push({ day, events: n });
      total += n;
    }
    const nextEvents = eventsOf.get(next) ?? 0;
    if (withEvents.length >= most.days || (total > 0 && total + nextEvents > most.events) || day === days.to) {
      runs.push({ from, to: day, withEvents });
      from = next;
      withEvents = [];
      total = 0;
    }
  }
  return runs;
}

/** The days of `days` in runs bounded by events as a statement of session rows is: what a statement over a run of them holds at most. */
export async function eventRuns(events: EventStore, siteId: string, days: Period): Promise<Period[]> {
  return (await statementsOfDays(events, siteId, days, { days: Number.MAX_SAFE_INTEGER, events: SESSION_ROWS_EVENTS_A_STATEMENT })).map(({ from, to }) => ({ from, to }));
}

/** The events of a run of `statementsOfDays`. */
const eventsOfRun = (run: { withEvents: ReadonlyArray<{ events: number }> }) => run.withEvents.reduce((n, day) => n + day.events, 0);

/**
 * What a statement of session paths takes at most: days with events (each is several selects of a
 * union, and a statement's text must stay well under ClickHouse's `max_query_size`, 256 KiB), and
 * events (a list aggregate cannot spill: a day of 400 000 events is a statement of its own, within
 * the pool an import under a 128 MB budget leaves DuckDB). Days without events take no select, so a
 * long stretch without events is one statement.
 */
const SESSION_PATH_DAYS_A_STATEMENT = 8;
const SESSION_PATH_EVENTS_A_STATEMENT = 100_000;

/** Writes the session path rows of the days (journeys read them instead of the days' raw events), in statements bounded by days and events. */
export async function writeSessionPaths(events: EventStore, siteId: string, days: Period): Promise<void> {
  const most = { days: SESSION_PATH_DAYS_A_STATEMENT, events: SESSION_PATH_EVENTS_A_STATEMENT };
  for (const { from, to, withEvents } of await statementsOfDays(events, siteId, days, most)) {
    await events.replaceRows(SESSION_PATHS, { siteId, days: { from, to } }, sessionPathRows(events.dialect, siteId, withEvents));
  }
}

/**
 * Folds the keys beyond the cap into `(other)`, recomputing that day and dimension exactly. A
 * property's `(none)` row is none of its values: it neither counts toward the cap nor folds.
 */
async function capDimensions(events: EventStore, siteId: string, days: Period, cap: number): Promise<void> {
  const d = events.dialect;
  const propertyNone = sql`key = ${NONE_KEY} AND dimension LIKE ${`${PROPERTY_PREFIX}%`}`;
  // Aliases never take a column's name: ClickHouse resolves the name to the alias in WHERE too.
  const crowded = await events.query<{ d: string; dimension: QueryDimension }>(
    sql`SELECT ${trusted(d.dayText('day'))} AS d, dimension FROM ${trusted(DIM_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}
      GROUP BY day, dimension HAVING sum(CASE WHEN ${propertyNone} THEN 0 ELSE 1 END) > ${cap}`,
  );
  for (const { d: day, dimension } of crowded) {
    const one = { from: day, to: day };
    const scope = { siteId, days: one, where: { dimension } };
    const where = sql`site_id = ${siteId} AND ${dayRange(d, 'day', one)} AND dimension = ${dimension}`;
    await events.replaceRows(
      DIM_TOP_KEYS,
      scope,
      sql`SELECT site_id, day, dimension, key FROM ${trusted(DIM_DAILY.name)} WHERE ${where} AND NOT (${propertyNone})
        ORDER BY visitors DESC, ${trusted(viewsColumn(dimension))} DESC, key ASC LIMIT ${cap}`,
    );
    const top = sql`(SELECT key FROM ${trusted(DIM_TOP_KEYS.name)} WHERE ${where})`;
    const kept = isPropertyDimension(dimension) ? (key: Sql) => sql`${key} IN ${top} OR ${key} = ${NONE_KEY}` : (key: Sql) => sql`${key} IN ${top}`;
    const fold = (key: Sql) => sql`(CASE WHEN ${kept(key)} THEN ${key} ELSE ${OTHER_KEY} END)`;
    await events.replaceRows(DIM_DAILY, scope, dimensionRows(events, siteId, one, [dimension], fold));
    await events.replaceRows(DIM_TOP_KEYS, scope, null);
  }
}

/**
 * Writes the goal rows of the days (none when the site has no goals), in statements bounded by
 * events as the session rows' are (a select groups one share of a day's visitors), then goal_daily
 * summed from them.
 */
async function writeGoalRows(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<void> {
  const d = events.dialect;
  if (defs.goals.length === 0) {
    for (const table of [GOAL_ROWS, GOAL_DAILY]) await events.replaceRows(table, { siteId, days }, null);
    return;
  }
  for (const run of await statementsOfDays(events, siteId, days, { days: Number.MAX_SAFE_INTEGER, events: SESSION_ROWS_EVENTS_A_STATEMENT })) {
    const shares = sharesOf(eventsOfRun(run));
    await events.replaceRows(GOAL_ROWS, { siteId, days: run }, Array.from({ length: shares }, (_, share) => goalRowsOfEvents(d, siteId, run, defs.goals, share, shares)));
  }
  const measures = measureGoalRows(d, siteId, days, defs.goals, []);
  await events.replaceRows(GOAL_DAILY, { siteId, days }, sql`SELECT ${siteId} AS site, b, goal_id, ${trusted(measureColumns(GOAL_MEASURES).join(', '))} FROM (${measures}) g`);
}

/** The funnel_daily rows of the days (walked here from the matching events), or null when none. */
async function funnelRows(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<Sql | null> {
  const d = events.dialect;
  const rows: Sql[] = [];
  for (const funnel of defs.funnels) {
    const matching = await events.query<FunnelEventRow>(funnelEvents(d, siteId, days, funnel.steps));
    for (const [day, counts] of walkFunnel(matching, funnel.steps.length, funnel.windowMinutes)) {
      counts.forEach((visitors, i) => {
        rows.push(
          sql`SELECT ${siteId} AS site, ${trusted(d.dateLiteral(day))} AS d, ${integerLiteral(funnel.id)} AS funnel, ${integerLiteral(funnel.version)} AS v, ${integerLiteral(i + 1)} AS s, ${visitors} AS n`,
        );
      });
    }
  }
  return rows.length > 0 ? joinSql(rows, ' UNION ALL ') : null;
}

export async function writeGoalsAndFunnels(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<void> {
  await writeGoalRows(events, siteId, days, defs);
  await events.replaceRows(FUNNEL_DAILY, { siteId, days }, await funnelRows(events, siteId, days, defs));
}

/** Rewrites every rollup of a range of days from raw events (`hasEvents`: whether it holds any). */
export async function rewriteDays(events: EventStore, siteId: string, days: Period, defs: Definitions, cap: number, hasEvents: boolean): Promise<void> {
  const scope = { siteId, days };
  // Days without events have no rollup rows: a sparse or new site skips twenty-odd statements.
  if (!hasEvents) {
    for (const table of DAILY_TABLES) await events.replaceRows(table, scope, null);
    await rewriteMonths(events, siteId, days);
    return;
  }
  await writeSessionRows(events, siteId, days);
  await writeSessionPaths(events, siteId, days);
  const site = measureSessionRows(events.dialect, siteId, days, []);
  await events.replaceRows(SITE_DAILY, scope, sql`SELECT ${siteId} AS site, b, ${TRAFFIC_COLUMNS} FROM (${site}) m`);
  await events.replaceRows(DIM_DAILY, scope, [...dimensionRows(events, siteId, days, DIMENSIONS), ...propertyRows(events, siteId, days)]);
  await capDimensions(events, siteId, days, cap);
  await rewriteMonths(events, siteId, days);
  const scroll = measureScrollDepth(events.dialect, trusted('day'), siteId, days, null);
  await events.replaceRows(SCROLL_DAILY, scope, sql`SELECT ${siteId} AS site, b, k, depth_sum, depth_visitors FROM (${scroll}) s`);
  const vitals = measureVitals(events.dialect, trusted('day'), siteId, days, null);
  await events.replaceRows(VITALS_DAILY, scope, sql`SELECT ${siteId} AS site, b, k, vital, value, reports FROM (${vitals}) v`);
  await writeGoalsAndFunnels(events, siteId, days, defs);
}

/**
 * The dim_daily rows (weighed by their keys' length: `weighedRows`) a select of dim_monthly sums at
 * most: it holds every key of its months at once, and a month of 2 KB pages, each its own, took
 * more than an import's 112 MiB of DuckDB's pool (bench/import-isolation, BENCH_PATH_BYTES). A
 * heavier month is summed in shares of its keys (by a hash of each), a select each.
 */
const DIM_MONTHLY_ROWS_A_SELECT = 500_000;

/**
 * Re-sums dim_monthly for the months a range of days touches (a month only read once complete). A
 * property's `(none)` row of a month also counts the days its events do not carry it: the month's
 * `prop.` row, less the `prop.` rows of the days it has rows on, plus its days' `(none)` rows; a
 * month where every event carries the property has none.
 */
async function rewriteMonths(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const months = { from: firstOfMonth(days.from), to: firstOfMonth(days.to) };
  const allDays = { from: months.from, to: addDays(addMonths(months.to, 1), -1) };
  const columns = measureColumns(TRAFFIC_MEASURES);
  const sums = trusted(columns.map((c) => `sum(${c})`).join(', '));
  const daily = (...where: Sql[]) => sql`${trusted(DIM_DAILY.name)} WHERE ${joinSql([sql`site_id = ${siteId}`, dayRange(d, 'day', allDays), ...where], ' AND ')}`;
  const properties = daily(sql`dimension LIKE ${`${PROPERTY_PREFIX}%`} AND dimension <> ${PROPERTY_PREFIX}`);
  const totals = daily(sql`dimension = ${PROPERTY_PREFIX}`);
  const signed = (sign: string, prefix: string) => trusted(columns.map((c) => `${sign}${prefix}${c} AS ${c}`).join(', '));
  const taken = sql`SELECT p.p_day AS day, p.p_dim AS dimension, ${NONE_KEY} AS key, ${signed('-', 't.t_')}
    FROM (SELECT DISTINCT day AS p_day, dimension AS p_dim FROM ${properties}) p
    JOIN (SELECT day AS t_day, ${trusted(columns.map((c) => `${c} AS t_${c}`).join(', '))} FROM ${totals}) t ON p.p_day = t.t_day`;
  const month = (column: string) => trusted(d.monthStart(column));
  const added = sql`SELECT m.m_month AS day, m.m_dim AS dimension, ${NONE_KEY} AS key, ${signed('', 't.t_')}
    FROM (SELECT DISTINCT ${month('day')} AS m_month, dimension AS m_dim FROM ${properties}) m
    JOIN (SELECT ${month('day')} AS t_month, ${trusted(columns.map((c) => `CAST(sum(${c}) AS BIGINT) AS t_${c}`).join(', '))} FROM ${totals} GROUP BY t_month) t
    ON m.m_month = t.t_month`;
  const rows = sql`SELECT day, dimension, key, ${trusted(columns.join(', '))} FROM ${daily()} UNION ALL ${taken} UNION ALL ${added}`;
  const [weight] = await events.query<{ n: unknown }>(sql`SELECT ${trusted(weighedRows('key'))} AS n FROM ${daily()}`);
  const shares = Math.max(1, Math.ceil(Number(weight?.n ?? 0) / DIM_MONTHLY_ROWS_A_SELECT));
  // A group is one month, dimension and key: a share of the keys holds whole groups.
  const share = (n: number) => (shares === 1 ? trusted('') : sql`WHERE ${trusted(d.bucketOf('key', shares))} = ${n}`);
  return events.replaceRows(
    DIM_MONTHLY,
    { siteId, days: months },
    Array.from({ length: shares }, (_, n) => sql`SELECT ${siteId} AS site, ${month('day')} AS month, dimension, key, ${sums}
      FROM (${rows}) u ${share(n)} GROUP BY month, dimension, key
      HAVING NOT (key = ${NONE_KEY} AND dimension LIKE ${`${PROPERTY_PREFIX}%`} AND sum(${trusted(TRAFFIC_MEASURES.events.column)}) = 0)`),
  );
}
