// Scroll depth: per page, the deepest scroll of each visitor, from raw events (also what the rollup
// job writes to scroll_daily), from scroll_daily, or from imported_scroll_daily on imported days.
import type { Period } from '../../core/period.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import type { DaySources } from '../planner.js';
import { IMPORTED_SCROLL_DAILY, SCROLL_DAILY } from '../rollups/tables.js';
import { dayRange } from './filters.js';

/**
 * Per day (`bucket`) and page (of `pages` only, when given), the deepest scroll of each visitor of the
 * page, summed, and the number of those visitors. Columns: b, k, depth_sum, depth_visitors.
 */
export function measureScrollDepth(d: Dialect, bucket: Sql, siteId: string, days: Period, pages: readonly string[] | null): Sql {
  const only = pages === null ? trusted('') : sql` AND page IN (${joinSql(pages.map((p) => sql`${p}`), ', ')})`;
  return sql`SELECT b, k, CAST(coalesce(sum(deepest), 0) AS BIGINT) AS depth_sum, CAST(count(*) AS BIGINT) AS depth_visitors FROM (
      SELECT ${bucket} AS b, page AS k, visitor_id, max(scroll_depth) AS deepest FROM events
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND name = 'engage' AND scroll_depth IS NOT NULL${only}
      GROUP BY b, k, visitor_id) v GROUP BY b, k`;
}

/**
 * The scroll depth sums of some pages over some days, one statement per source: scroll_daily up to
 * the watermark, raw events after it, imported_scroll_daily on imported days (where an export gave
 * none, those days add nothing). Columns: k, s (the depth sum), n (its visitors).
 */
export function scrollDepthStatements(d: Dialect, siteId: string, days: DaySources, pages: readonly string[]): Sql[] {
  if (pages.length === 0) return [];
  const sums = trusted('CAST(sum(depth_sum) AS BIGINT) AS s, CAST(sum(depth_visitors) AS BIGINT) AS n');
  const only = joinSql(pages.map((p) => sql`${p}`), ', ');
  const statements: Sql[] = [];
  // The daily sums of a table that holds them per page (and import: an imported day has one import's rows).
  const daily = (table: string, period: Period) =>
    sql`SELECT page AS k, ${sums} FROM ${trusted(table)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', period)} AND page IN (${only}) GROUP BY page`;
  if (days.rollup) statements.push(daily(SCROLL_DAILY.name, days.rollup));
  if (days.imported) statements.push(daily(IMPORTED_SCROLL_DAILY.name, days.imported));
  for (const raw of [days.sessions, days.raw]) {
    if (raw) statements.push(sql`SELECT k, ${sums} FROM (${measureScrollDepth(d, trusted('day'), siteId, raw, pages)}) r GROUP BY k`);
  }
  return statements;
}
