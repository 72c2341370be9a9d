// Imported aggregates (IMPORTED_DAILY, IMPORTED_DIM_DAILY): the days the plan reads from them hold
// nothing else, and an import replaces every earlier import's rows of the days it writes, so a day
// (and key) has one row, read like a rollup's (the read modules add a day's rows all the same).
import { pagePatternRegex } from '../../core/patterns.js';
import type { Period } from '../../core/period.js';
import type { FilterDimension } from '../../core/vocabulary.js';
import type { GoalRef } from '../../entities/goals.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { TRAFFIC_MEASURES } from '../measures.js';
import { IMPORTED_DAILY, IMPORTED_DIM_DAILY } from '../rollups/tables.js';
import { dayRange, integerLiteral } from './filters.js';
import { GOAL_COLUMNS, MEASURE_COLUMNS } from './measures.js';

/** The imported rows of a site and days, as stored: its own figures, or one dimension's (and key's). */
export function importedRows(d: Dialect, siteId: string, days: Period, dimension?: FilterDimension, key?: string): Sql {
  if (dimension === undefined) return sql`${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}`;
  const only = key === undefined ? trusted('') : sql` AND key = ${key}`;
  return sql`${trusted(IMPORTED_DIM_DAILY.name)} WHERE site_id = ${siteId} AND dimension = ${dimension} AND ${dayRange(d, 'day', days)}${only}`;
}

const { sessions, bounces, durationMs } = TRAFFIC_MEASURES;

/**
 * Imported key rows (`from`: a table of them and its WHERE predicate) as a read under a dimension
 * (a filter, a breakdown) takes them: the `unit` column (day or month), key and the measures, but
 * a row's sessions only where it knows its bounces and visit duration. Under a dimension, sessions
 * are no figure of their own but the denominator of bounce rate and visit duration, which a day
 * that lacks their numerators (an older export's exit pages) would lower as if it held zeros.
 */
export function importedKeyRows(from: Sql, unit: 'day' | 'month'): Sql {
  const paired = `CASE WHEN ${bounces.column} IS NULL OR ${durationMs.column} IS NULL THEN NULL ELSE ${sessions.column} END`;
  // Read under names of their own, then renamed: an alias never takes the name of a column the select reads.
  const read = [`${unit} AS i_${unit}`, 'key AS i_key', ...MEASURE_COLUMNS.map((c) => `${c === sessions.column ? paired : c} AS i_${c}`)];
  const renamed = [unit, 'key', ...MEASURE_COLUMNS].map((c) => `i_${c} AS ${c}`);
  return sql`(SELECT ${trusted(renamed.join(', '))} FROM (SELECT ${trusted(read.join(', '))} FROM ${from}) p) i`;
}

/**
 * Per day and goal, the goal measures from imported aggregates: an
 * event goal's from the custom events of its name (conversions its occurrences), a page goal's from
 * the pages matching it (conversions their pageviews); unique conversions are the rows' visitors,
 * summed per day. A goal requiring property values has none there (imported aggregates hold no
 * property); null when no goal has any.
 */
export function importedGoals(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[]): Sql | null {
  const [conversions, unique, ...revenue] = GOAL_COLUMNS;
  // Exports carry no revenue.
  const noRevenue = trusted(revenue.map((c) => `CAST(0 AS BIGINT) AS ${c}`).join(', '));
  const counted = goals.filter((goal) => !goal.props);
  if (counted.length === 0) return null;
  const selects = counted.map((goal) => {
    const id = integerLiteral(goal.goalId);
    const rows =
      goal.kind === 'event'
        ? sql`SELECT day, events AS c, visitors AS u FROM ${importedRows(d, siteId, days, 'event', goal.pattern)}`
        : sql`SELECT day, pageviews AS c, visitors AS u FROM ${importedRows(d, siteId, days, 'page')} AND ${withParams(d.regexMatches('key'), pagePatternRegex(goal.pattern))}`;
    const sums = sql`${trusted(d.sumOfCounts('c'))} AS ${trusted(conversions!)}, ${trusted(d.sumOfCounts('u'))} AS ${trusted(unique!)}, ${noRevenue}`;
    return sql`SELECT ${trusted(d.dayText('day'))} AS b, ${id} AS goal_id, ${sums} FROM (${rows}) g GROUP BY day`;
  });
  return joinSql(selects, ' UNION ALL ');
}

/**
 * Columns f and l: the first and last day (text) of a site's imported aggregates, its own figures or
 * a dimension's (a single CSV of one table imports keys alone), as at most one row (none without
 * any: engines differ on what min() and max() give over no rows).
 */
export function importedDaysStatement(d: Dialect, siteId: string): Sql {
  const days = sql`SELECT day FROM ${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} UNION ALL SELECT day FROM ${trusted(IMPORTED_DIM_DAILY.name)} WHERE site_id = ${siteId}`;
  return sql`SELECT ${trusted(d.dayText('f'))} AS f, ${trusted(d.dayText('l'))} AS l
    FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM (${days}) u) m WHERE n > 0`;
}
