// Settlements (../settlement.ts): the raw days after the watermark counted up to a cut. The rollup
// job writes a settlement's rows (../rollups/settle.ts); a daily read adds them up with the events
// since, or hands its part to a process that holds the sums (../held-sums.ts).
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import type { GoalRef } from '../../entities/goals.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import type { TableSpec } from '../../storage/events/table-spec.js';
import type { HeldForm, SettledPart } from '../held-sums.js';
import { GOAL_MEASURES, goalAggregatesOverCounts, IS_PAGEVIEW, PART_FACT_PREFIX, SESSION_FACTS, sessionBounced, sessionDuration, sessionRowAggregates, TRAFFIC_MEASURES } from '../measures.js';
import { SETTLED_GOALS, SETTLED_SESSIONS, SETTLED_TABLES } from '../rollups/tables.js';
import { HELD_EVENTS, HELD_ROWS, type Settlement } from '../settlement.js';
import { dayRange, instantBounds, type Instants, integerLiteral } from './filters.js';
import { goalEvents, goalRevenueColumns, passesPerCurrency } from './goals.js';
import { DAY_BUCKET, dayRows, GOAL_COLUMNS, MEASURE_COLUMNS } from './measures.js';

/**
 * One row per session, day and visitor hash of the events `where` selects, of the sessions whose
 * events `factsWhere` selects and whose last one (`max(ts)`) `ended` accepts: that day's counts, and
 * on the session's starting day whether it bounced and its duration, from its facts over those events.
 * Columns: day, session_id, visitor_id, starts, pageviews, events, bounces, duration_ms.
 */
function sessionDayRows(d: Dialect, where: Sql, factsWhere: Sql, ended: Sql): Sql {
  const parts = sql`SELECT day AS p_day, session_id AS p_session, visitor_id AS p_visitor, ${trusted(d.countIf('session_start'))} AS p_starts,
      ${trusted(d.countIf(IS_PAGEVIEW))} AS p_pageviews, CAST(count(*) AS BIGINT) AS p_events
    FROM events WHERE ${where} GROUP BY day, session_id, visitor_id`;
  const facts = sql`SELECT session_id AS s_session, ${trusted(SESSION_FACTS.map((f) => `${f.aggregate(d)} AS s_${f.column}`).join(', '))}
    FROM events WHERE ${factsWhere} GROUP BY session_id HAVING ${ended}`;
  return sql`SELECT p.p_day AS day, p.p_session AS session_id, p.p_visitor AS visitor_id, p.p_starts AS starts, p.p_pageviews AS pageviews, p.p_events AS events,
      CAST(CASE WHEN p.p_starts > 0 AND ${trusted(sessionBounced('x.s_'))} THEN 1 ELSE 0 END AS BIGINT) AS bounces,
      CAST(CASE WHEN p.p_starts > 0 THEN ${trusted(sessionDuration('x.s_'))} ELSE 0 END AS BIGINT) AS duration_ms
    FROM (${parts}) p JOIN (${facts}) x ON p.p_session = x.s_session`;
}

/** The site's events of some days from an instant (included, when given) and before another. */
function eventsBetween(d: Dialect, siteId: string, days: Period, from: number | null, until: number): Sql {
  return sql`site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds({ since: from ?? undefined, until })}`;
}

/** The site's events of some days from an instant (included, when given) and before another, counted (one row, column HELD_EVENTS). */
export function eventCountStatement(d: Dialect, siteId: string, days: Period, from: number | null, until: number): Sql {
  return sql`SELECT CAST(count(*) AS BIGINT) AS ${trusted(HELD_EVENTS)} FROM events WHERE ${eventsBetween(d, siteId, days, from, until)}`;
}

/** The rows of a settled table of a cut on some days (`also` matching, when given: a WHERE clause's predicate). */
function settledRows(d: Dialect, table: TableSpec, siteId: string, days: Period, cut: number, also?: Sql): Sql {
  return sql`${trusted(table.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND cut = ${cut}${also ? sql` AND ${also}` : trusted('')}`;
}

/**
 * What tells whether a settlement still holds, as it stands (one row, columns HELD_EVENTS and
 * HELD_ROWS): the site's events of its days before its cut, and its rows in each of SETTLED_TABLES.
 */
export function settlementCheckStatement(d: Dialect, siteId: string, s: Pick<Settlement, 'days' | 'cut'>): Sql {
  const rows = SETTLED_TABLES.map((table) => sql`(SELECT CAST(count(*) AS BIGINT) FROM ${settledRows(d, table, siteId, s.days, s.cut)})`);
  return sql`SELECT (${eventCountStatement(d, siteId, s.days, null, s.cut)}) AS ${trusted(HELD_EVENTS)}, ${joinSql(rows, ' + ')} AS ${trusted(HELD_ROWS)}`;
}

/**
 * The first event of the sessions of some days still open at a cut, or a session gap before the cut
 * if earlier (one row, column `open_from`): every event from there on belongs to a session open at
 * the cut or after it.
 */
export function openFromStatement(d: Dialect, siteId: string, days: Period, cut: number): Sql {
  const gapBefore = cut - SESSION_GAP_MS;
  // The gap's instant among the first events: engines differ on what min() gives over no rows.
  return sql`SELECT min(f) AS open_from FROM (SELECT min(ts) AS f FROM events WHERE ${eventsBetween(d, siteId, days, null, cut)} GROUP BY session_id HAVING max(ts) >= ${gapBefore}
      UNION ALL SELECT CAST(${gapBefore} AS BIGINT) AS f) o`;
}

/** The rows of a settlement of some days at a cut, for each of SETTLED_TABLES in turn (null for none). */
export function settlementRows(d: Dialect, siteId: string, days: Period, cut: number, goals: readonly GoalRef[]): [Sql, Sql | null] {
  const before = eventsBetween(d, siteId, days, null, cut);
  // The sessions whose last event before the cut came a session gap earlier: they have ended.
  const sessions = sql`SELECT ${siteId} AS o_site, day AS o_day, CAST(${cut} AS BIGINT) AS o_cut, session_id AS o_session, visitor_id AS o_visitor,
      starts AS o_starts, pageviews AS o_pageviews, events AS o_events, bounces AS o_bounces, duration_ms AS o_duration_ms
    FROM (${sessionDayRows(d, before, before, sql`max(ts) < ${cut - SESSION_GAP_MS}`)}) s`;
  if (goals.length === 0) return [sessions, null];
  const conversions = sql`SELECT ${siteId} AS o_site, b AS o_day, CAST(${cut} AS BIGINT) AS o_cut, goal_id AS o_goal, visitor_id AS o_visitor, CAST(count(*) AS BIGINT) AS o_conversions,
      CAST(sum(paid) AS BIGINT) AS o_paid, CAST(coalesce(sum(rm), 0) AS BIGINT) AS o_rm, CAST(sum(other) AS BIGINT) AS o_other
    FROM (${goalEvents(d, DAY_BUCKET, siteId, days, goals, { until: cut })}) g GROUP BY b, goal_id, visitor_id`;
  return [sessions, conversions];
}

/** The days a session's facts are read over for some days' parts: one more day, as every path reads them (`sessionScope`). */
const factDays = (days: Period): Period => ({ from: days.from, to: addDays(days.to, 1) });

/**
 * The rows a read of raw days with their settlement adds up per day: its rows of settled sessions,
 * and the other sessions from raw events since its `openFrom` (those whose last event is less than a
 * session gap before the cut). Columns of each: day, session_id, visitor_id, starts, pageviews,
 * events, bounces, duration_ms.
 */
function settledSessionParts(d: Dialect, siteId: string, days: Period, s: Settlement): { settled: Sql; recent: Sql } {
  const settled = sql`SELECT day, session_id, visitor_id, starts, pageviews, events, bounces, duration_ms FROM ${settledRows(d, SETTLED_SESSIONS, siteId, days, s.cut)}`;
  const since = (range: Period) => sql`site_id = ${siteId} AND ${dayRange(d, 'day', range)} AND ts >= ${s.openFrom}`;
  const recent = sessionDayRows(d, since(days), since(factDays(days)), sql`max(ts) >= ${s.cut - SESSION_GAP_MS}`);
  return { settled, recent };
}

/**
 * The rows a read of raw days with their settlement adds up per day and goal, for the goals it
 * counted: its rows up to the cut, and raw events after it, one conversion each. Columns of each:
 * b (a DATE), goal_id, visitor_id, conversions, paid, rm, other.
 */
function settledGoalParts(d: Dialect, siteId: string, days: Period, s: Settlement, goals: readonly GoalRef[]): { settled: Sql; recent: Sql } {
  const ids = sql`goal_id IN (${joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ')})`;
  const settled = sql`SELECT day AS b, goal_id, visitor_id, conversions, paid, rm, other FROM ${settledRows(d, SETTLED_GOALS, siteId, days, s.cut, ids)}`;
  return { settled, recent: conversionsSince(d, siteId, days, goals, s.cut) };
}

/**
 * The conversions of some goals among the site's events of some days from an instant (included),
 * one row each, typed as a settlement's rows. Each currency's goals take one pass over the events,
 * an event giving a row per goal it matches (`Dialect.idsWhere`): after a settlement's cut the
 * events are few, and each goal's own pass (`goalEvents`) costs more in set-up than in rows
 * (docs/performance.md, ClickHouse: 8.3 against 4.4 ms for two goals). Over whole days the passes
 * per goal stay: one pass there spreads less over DuckDB's threads (5.8 against 4.6 ms for a day).
 * Columns: b (a DATE), goal_id, visitor_id, conversions, paid, rm, other.
 */
function conversionsSince(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[], since: number): Sql {
  return passesPerCurrency(
    d,
    goals,
    (goalIds, currency) => sql`SELECT day AS b, ${goalIds} AS goal_id, visitor_id, CAST(1 AS BIGINT) AS conversions, ${goalRevenueColumns(currency)}
      FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds({ since })}`,
  );
}

/**
 * One row per day, session and visitor hash of the site's events of some days and instants: the
 * part's counts and the session's facts over it (../held-sums.ts, OpenSessions). Columns: b (day
 * text), session_id, visitor_id, starts, events, then the facts prefixed PART_FACT_PREFIX.
 */
function sessionPartFacts(d: Dialect, siteId: string, days: Period, instants: Instants): Sql {
  const facts = SESSION_FACTS.map((f) => `${f.aggregate(d)} AS ${PART_FACT_PREFIX}${f.column}`).join(', ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, session_id, visitor_id, ${trusted(d.countIf('session_start'))} AS starts, CAST(count(*) AS BIGINT) AS events, ${trusted(facts)}
    FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds(instants)} GROUP BY day, session_id, visitor_id`;
}

/** Per day, the traffic measures of session rows. Columns: b (a DATE), then the measures in registry order. */
const measuresPerDay = (d: Dialect, rows: Sql) => sql`SELECT day AS b, ${trusted(sessionRowAggregates(d, 'day', true))} FROM (${rows}) ev GROUP BY day`;

/** Per day and visitor, the traffic measures of session rows but visitors. Columns: b (day text), visitor_id, then the measures. */
const measuresPerVisitor = (d: Dialect, rows: Sql) =>
  sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ${trusted(sessionRowAggregates(d, 'day', true, 'visitors'))} FROM (${rows}) ev GROUP BY day, visitor_id`;

/**
 * Per day, the traffic measures of raw days read with their settlement: its part (SettledPart), the
 * process holding its settled rows per day and visitor and its open sessions' events before the cut,
 * reading at each read only the events since.
 */
export function settledMeasuresPart(d: Dialect, siteId: string, days: Period, s: Settlement): SettledPart {
  const { settled, recent } = settledSessionParts(d, siteId, days, s);
  return {
    site: siteId,
    cut: s.cut,
    key: JSON.stringify(['measures', siteId, s.cut, s.events, s.rows, days.from, days.to]),
    form: MEASURES_BY_VISITOR,
    settled: measuresPerVisitor(d, settled),
    recent: sessionPartFacts(d, siteId, factDays(days), { since: s.cut }),
    open: { rows: sessionPartFacts(d, siteId, factDays(days), { since: s.openFrom, until: s.cut }), at: s.cut - SESSION_GAP_MS, days },
    whole: dayRows(d, measuresPerDay(d, sql`${settled} UNION ALL ${recent}`), MEASURE_COLUMNS),
  };
}

/** Per day and goal, the goal measures of conversion counts. Columns: b (a DATE), goal_id, then the measures in registry order. */
const goalsPerDay = (d: Dialect, rows: Sql) => sql`SELECT b, goal_id, ${trusted(goalAggregatesOverCounts(d))} FROM (${rows}) c GROUP BY b, goal_id`;

/** Per day, goal and visitor, the goal measures of conversion counts but unique conversions. Columns: b (day text), goal_id, visitor_id, then the measures. */
const goalsPerVisitor = (d: Dialect, rows: Sql) =>
  sql`SELECT ${trusted(d.dayText('b'))} AS b, goal_id, visitor_id, ${trusted(goalAggregatesOverCounts(d, 'uniqueConversions'))} FROM (${rows}) c GROUP BY b, goal_id, visitor_id`;

/**
 * Per day and goal, the goal measures of raw days read with their settlement, for the goals it
 * counted: its part (SettledPart), the process holding its rows per day, goal and visitor, reading
 * at each read only the conversions after the cut.
 */
export function settledGoalsPart(d: Dialect, siteId: string, days: Period, s: Settlement, goals: readonly GoalRef[]): SettledPart {
  const { settled, recent } = settledGoalParts(d, siteId, days, s, goals);
  return {
    site: siteId,
    cut: s.cut,
    // Keyed by the goals counted: one defined otherwise since leaves the others' sums as they are.
    key: JSON.stringify(['goals', goals.map((g) => g.goalId), siteId, s.cut, s.events, s.rows, days.from, days.to]),
    form: GOALS_BY_VISITOR,
    settled: goalsPerVisitor(d, settled),
    recent: goalsPerVisitor(d, recent),
    whole: dayRows(d, goalsPerDay(d, sql`${settled} UNION ALL ${recent}`), ['goal_id', ...GOAL_COLUMNS]),
  };
}

/** The forms of the settled reads whose sums a process holds (../held-sums.ts): visitors counted once per day (and goal). */
const MEASURES_BY_VISITOR: HeldForm = { group: ['b'], visitors: TRAFFIC_MEASURES.visitors.column, sums: MEASURE_COLUMNS.filter((c) => c !== TRAFFIC_MEASURES.visitors.column) };
const GOALS_BY_VISITOR: HeldForm = {
  group: ['b', 'goal_id'],
  visitors: GOAL_MEASURES.uniqueConversions.column,
  sums: GOAL_COLUMNS.filter((c) => c !== GOAL_MEASURES.uniqueConversions.column),
};
