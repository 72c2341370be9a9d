// The export's statements (Plausible's CSV tables): per day, the site's and each dimension's
// measures from rollups and imported aggregates (and the pages' scroll depth sums), and the days they hold.
import type { Period } from '../../core/period.js';
import type { Dimension } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { DIM_DAILY, IMPORTED_DAILY, IMPORTED_SCROLL_DAILY, SCROLL_DAILY, SCROLL_SUMS, SITE_DAILY } from '../rollups/tables.js';
import { dayRange } from './filters.js';
import { importedRows } from './imported.js';
import { dayRows, MEASURE_COLUMNS, sumsOf } from './measures.js';

/**
 * The export's site rows (Plausible's `visitors` table): per day of `days` that rollups hold (up to
 * `watermark`) or imported aggregates hold, the traffic measures. Columns: b (day text), the measures; ordered by day.
 */
export function exportSiteStatement(d: Dialect, siteId: string, days: Period, watermark: string | null): Sql {
  const parts = [sql`SELECT day, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${importedRows(d, siteId, days)}`];
  const rolled = watermark === null ? null : clipPeriod(days, watermark);
  if (rolled) parts.push(sql`SELECT day, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', rolled)}`);
  return dayRows(d, sql`SELECT day AS b, ${sumsOf(d, MEASURE_COLUMNS)} FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY day ORDER BY day`, MEASURE_COLUMNS);
}

/** The export's rows of one dimension, like `exportSiteStatement`. Columns: b, k, the measures; ordered by day and key. */
export function exportDimensionStatement(d: Dialect, siteId: string, days: Period, watermark: string | null, dimension: Dimension): Sql {
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, k, ${trusted(MEASURE_COLUMNS.join(', '))} FROM (${dimensionDays(d, siteId, days, watermark, dimension)}) r ORDER BY b, k`;
}

/**
 * The export's page rows (`exportDimensionStatement`'s) with the page's scroll depth sums of the
 * day, from scroll_daily and imported_scroll_daily. Columns: b, k, the measures, depth_sum,
 * depth_visitors (NULL or 0 where the day holds none for the page: engines differ on a LEFT JOIN's misses).
 */
export function exportPageStatement(d: Dialect, siteId: string, days: Period, watermark: string | null): Sql {
  const parts = [sql`SELECT day, page, depth_sum, depth_visitors FROM ${trusted(IMPORTED_SCROLL_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}`];
  const rolled = watermark === null ? null : clipPeriod(days, watermark);
  if (rolled) parts.push(sql`SELECT day, page, depth_sum, depth_visitors FROM ${trusted(SCROLL_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', rolled)}`);
  const scroll = sql`SELECT day AS sb, page AS sk, ${sumsOf(d, SCROLL_SUMS)} FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY day, page`;
  const joined = sql`SELECT r.*, s.depth_sum, s.depth_visitors FROM (${dimensionDays(d, siteId, days, watermark, 'page')}) r LEFT JOIN (${scroll}) s ON r.b = s.sb AND r.k = s.sk`;
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, k, ${trusted([...MEASURE_COLUMNS, ...SCROLL_SUMS].join(', '))} FROM (${joined}) j ORDER BY b, k`;
}

/** A dimension's rows of `days` from imported aggregates and rollups (up to `watermark`). Columns: b (a DATE), k, the measures. */
function dimensionDays(d: Dialect, siteId: string, days: Period, watermark: string | null, dimension: Dimension): Sql {
  const parts = [sql`SELECT day, key, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${importedRows(d, siteId, days, dimension)}`];
  const rolled = watermark === null ? null : clipPeriod(days, watermark);
  if (rolled) {
    parts.push(sql`SELECT day, key, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${trusted(DIM_DAILY.name)} WHERE site_id = ${siteId} AND dimension = ${dimension} AND ${dayRange(d, 'day', rolled)}`);
  }
  return sql`SELECT day AS b, key AS k, ${sumsOf(d, MEASURE_COLUMNS)} FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY day, key`;
}

function clipPeriod(days: Period, last: string): Period | null {
  const to = days.to < last ? days.to : last;
  return days.from <= to ? { from: days.from, to } : null;
}

/** Columns f and l: the first and last day a site's rollups or imported aggregates hold, as at most one row. */
export function exportDaysStatement(d: Dialect, siteId: string): Sql {
  const days = sql`SELECT day FROM ${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} UNION ALL SELECT day FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId}`;
  return sql`SELECT ${trusted(d.dayText('f'))} AS f, ${trusted(d.dayText('l'))} AS l
    FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM (${days}) u) m WHERE n > 0`;
}
