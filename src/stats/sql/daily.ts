// The daily read statements: per day (or part of a comparison), the traffic and goal measures of a
// query's days, one statement per source (rollups, imported aggregates, session rows, raw events);
// the hourly read, the cut day of a compared part, and a site's first collected day.
import { addDays, startOfLocalDay } from '../../core/localtime.js';
import type { DayCut, Period } from '../../core/period.js';
import { type Filter, OTHER_KEY } from '../../core/vocabulary.js';
import type { GoalRef } from '../../entities/goals.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import type { DaySources, PlannedQuery } from '../planner.js';
import { DIM_DAILY, GOAL_DAILY, SITE_DAILY } from '../rollups/tables.js';
import { dayRange, integerLiteral, needsExit } from './filters.js';
import { measureGoalRows, measureGoals } from './goals.js';
import { importedGoals, importedKeyRows, importedRows } from './imported.js';
import { DAY_BUCKET, dayRows, GOAL_COLUMNS, MEASURE_COLUMNS, measureEvents, measureSessionRows } from './measures.js';
import type { EventScope } from './events.js';
import { measureVisits, VISIT_COLUMNS, visitRules } from './visits.js';

/** Index of the hourly bucket of an event row: `starts` ascending, the last bucket ending at `end`. */
function hourBucket(starts: readonly number[], end: number): Sql {
  const bounds = [...starts.slice(1), end];
  const cases = bounds.map((b, i) => sql`WHEN ts < ${b} THEN ${trusted(String(i))} `);
  return sql`(CASE WHEN ts < ${starts[0] ?? end} THEN NULL ${joinSql(cases, '')}ELSE NULL END)`;
}

/**
 * Column f: the first day (text) of a site's rolled-up days, and of its raw events, a row each that
 * holds any (engines differ on what min() gives over no rows). Imported days are known apart
 * (../imported-days.ts).
 */
export function firstCollectedDaysStatement(d: Dialect, siteId: string): Sql {
  const first = (table: string) =>
    sql`SELECT ${trusted(d.dayText('f'))} AS f FROM (SELECT min(day) AS f, count(*) AS n FROM ${trusted(table)} WHERE site_id = ${siteId}) m WHERE n > 0`;
  return sql`${first(SITE_DAILY.name)} UNION ALL ${first('events')}`;
}

/**
 * The first day of `days` on which a filter's key was folded into `(other)` (the dimension has an
 * `(other)` row that day and the key none), as the column `d` of at most one row. On such a day the
 * rollups cannot answer the filter: the key's own counts are inside `(other)`.
 */
export function firstFoldedDayStatement(d: Dialect, siteId: string, filter: Filter, days: Period): Sql {
  const table = trusted(DIM_DAILY.name);
  // The first row, not min(): engines differ on what an aggregate over no rows gives (and an alias
  // never takes a column's name: ClickHouse resolves the name to the alias in WHERE too).
  return sql`SELECT ${trusted(d.dayText('day'))} AS d FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension}
      AND key = ${OTHER_KEY} AND ${dayRange(d, 'day', days)}
      AND day NOT IN (SELECT day FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension} AND key = ${filter.values[0]!} AND ${dayRange(d, 'day', days)})
      ORDER BY day LIMIT 1`;
}

/**
 * A select of a site's rolled-up or imported rows (`from`: a table and its WHERE predicate, a row a
 * day and key), columns b (day text), `keys`, then `columns`, on one thread where the engine would
 * spread a few rows over several (`Dialect.fewRowsClause`).
 */
function fewRowsSelect(d: Dialect, from: Sql, keys: readonly string[], columns: readonly string[]): Sql {
  const kept = trusted(keys.map((c) => `${c}, `).join(''));
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, ${kept}${trusted(columns.join(', '))} FROM ${from}${trusted(d.fewRowsClause)}`;
}

/**
 * Per day, the traffic measures of a query's days, one statement per source. Columns: b (day text),
 * then the measures in registry order; `sessions: false` leaves the per-session ones at 0 on raw
 * days.
 */
export function dailyMeasureStatements(d: Dialect, q: PlannedQuery, days: DaySources, sessions: boolean): Sql[] {
  const statements: Sql[] = [];
  // Rolled-up and imported days in one statement: one round trip for both.
  const summed: Sql[] = [];
  const [filter] = q.filters;
  if (days.rollup) {
    const table = filter
      ? sql`${trusted(DIM_DAILY.name)} WHERE site_id = ${q.siteId} AND dimension = ${filter.dimension} AND key = ${filter.values[0]!} AND`
      : sql`${trusted(SITE_DAILY.name)} WHERE site_id = ${q.siteId} AND`;
    summed.push(fewRowsSelect(d, sql`${table} ${dayRange(d, 'day', days.rollup)}`, [], MEASURE_COLUMNS));
  }
  if (days.imported) {
    const rows = importedRows(d, q.siteId, days.imported, filter?.dimension, filter?.value);
    summed.push(fewRowsSelect(d, filter ? importedKeyRows(rows, 'day') : rows, [], MEASURE_COLUMNS));
  }
  if (summed.length > 0) statements.push(joinSql(summed, ' UNION ALL '));
  if (days.sessions) statements.push(dayRows(d, measureSessionRows(d, q.siteId, days.sessions, q.filters, undefined, sessions), MEASURE_COLUMNS));
  if (days.raw) {
    const scope = { siteId: q.siteId, days: days.raw, filters: q.filters, exit: needsExit(q.filters) };
    statements.push(rawMeasureRows(d, q, scope, sessions));
  }
  return statements;
}

/**
 * Per day and goal, the goal measures of some days, one statement per source (none without goals).
 * Columns: b, goal_id, then the measures. Under `filters`, the planner's days are goal rows' (as
 * `sessions`) and raw events', which the filters cut.
 */
export function dailyGoalStatements(d: Dialect, siteId: string, days: DaySources, goals: readonly GoalRef[], filters: readonly Filter[] = []): Sql[] {
  const statements: Sql[] = [];
  if (goals.length === 0) return statements;
  const summed: Sql[] = [];
  if (days.rollup) {
    const ids = joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ');
    const rows = sql`${trusted(GOAL_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND goal_id IN (${ids})`;
    summed.push(fewRowsSelect(d, rows, ['goal_id'], GOAL_COLUMNS));
  }
  const imported = days.imported && importedGoals(d, siteId, days.imported, goals);
  if (imported) summed.push(imported);
  if (summed.length > 0) statements.push(joinSql(summed, ' UNION ALL '));
  if (days.sessions) statements.push(dayRows(d, measureGoalRows(d, siteId, days.sessions, goals, filters), ['goal_id', ...GOAL_COLUMNS]));
  if (days.raw) statements.push(dayRows(d, measureGoals(d, DAY_BUCKET, siteId, days.raw, goals, { filters }), ['goal_id', ...GOAL_COLUMNS]));
  return statements;
}

/**
 * The raw events of one day up to a cut (the last day of an elapsed compared part): its traffic
 * measures (columns b, the measures) and, with goals, its goal measures (columns b, goal_id, the measures).
 */
export function cutDayStatements(d: Dialect, q: PlannedQuery, cut: DayCut, goals: readonly GoalRef[]): { measures: Sql; goals: Sql | null } {
  const days = { from: cut.day, to: cut.day };
  const scope = { siteId: q.siteId, days, instants: { from: startOfLocalDay(cut.day, q.tz), to: cut.until }, filters: q.filters, exit: needsExit(q.filters) };
  return {
    measures: rawMeasureRows(d, q, scope, true),
    goals: goals.length === 0 ? null : dayRows(d, measureGoals(d, DAY_BUCKET, q.siteId, days, goals, { until: cut.until, filters: q.filters }), ['goal_id', ...GOAL_COLUMNS]),
  };
}

/** Per hour of `starts` (the last ending at `end`), the traffic measures from raw events. Columns: b (hour index, null outside), the measures. */
export function hourlyMeasures(d: Dialect, q: PlannedQuery, period: Period, starts: readonly number[], end: number): Sql {
  const scope = {
    siteId: q.siteId,
    days: { from: addDays(period.from, -1), to: period.to },
    instants: { from: starts[0] ?? end, to: end },
    filters: q.filters,
    exit: needsExit(q.filters),
  };
  const rules = visitRules(q);
  return rules ? measureVisits(d, scope, hourBucket(starts, end), undefined, rules) : measureEvents(d, scope, { bucket: hourBucket(starts, end), sessions: true });
}

/**
 * Per day, the traffic measures of raw events in a scope (columns b as day text, the measures), and
 * the visit measures after them where the query counts visits under event filters (./visits.ts) and
 * the per-session measures are read.
 */
function rawMeasureRows(d: Dialect, q: PlannedQuery, scope: EventScope, sessions: boolean): Sql {
  const rules = sessions ? visitRules(q) : null;
  if (rules) return dayRows(d, measureVisits(d, scope, DAY_BUCKET, undefined, rules), [...MEASURE_COLUMNS, ...VISIT_COLUMNS]);
  return dayRows(d, measureEvents(d, scope, { bucket: DAY_BUCKET, sessions }), MEASURE_COLUMNS);
}
