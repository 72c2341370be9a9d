// Imported aggregates (IMPORTED_DAILY, IMPORTED_DIM_DAILY): the days the plan reads from them hold
// nothing else, and an import replaces every earlier import's rows of the days it writes, so a day
// (and key) has one row, read like a rollup's (the read modules add a day's rows all the same).
import { pagePatternRegex } from '../../core/patterns.js';
import type { Period } from '../../core/period.js';
import type { QueryDimension } from '../../core/vocabulary.js';
import type { GoalRef } from '../../entities/goals.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { IMPORTED_DAILY, IMPORTED_DIM_DAILY } from '../rollups/tables.js';
import { dayRange, integerLiteral } from './filters.js';
import { GOAL_COLUMNS } from './measures.js';

/** The imported rows of a site and days: its own figures, or one dimension's (and key's). */
export function importedRows(d: Dialect, siteId: string, days: Period, dimension?: QueryDimension, key?: string): Sql {
  if (dimension === undefined) return sql`${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}`;
  const only = key === undefined ? trusted('') : sql` AND key = ${key}`;
  return sql`${trusted(IMPORTED_DIM_DAILY.name)} WHERE site_id = ${siteId} AND dimension = ${dimension} AND ${dayRange(d, 'day', days)}${only}`;
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
    const sums = sql`CAST(sum(c) AS BIGINT) AS ${trusted(conversions!)}, CAST(sum(u) AS BIGINT) AS ${trusted(unique!)}, ${noRevenue}`;
    return sql`SELECT ${trusted(d.dayText('day'))} AS b, ${id} AS goal_id, ${sums} FROM (${rows}) g GROUP BY day`;
  });
  return joinSql(selects, ' UNION ALL ');
}

/**
 * Columns f and l: the first and last day (text) of a site's imported aggregates, as at most one
 * row (none without any: engines differ on what min() and max() give over no rows).
 */
export function importedDaysStatement(d: Dialect, siteId: string): Sql {
  return sql`SELECT ${trusted(d.dayText('f'))} AS f, ${trusted(d.dayText('l'))} AS l
    FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM ${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId}) m WHERE n > 0`;
}
