// Web vitals: per page, the values its `engage` events reported, counted per distinct value, from raw
// events (also what the rollup job writes to vitals_daily) or from vitals_daily; the 75th percentile
// by nearest rank of the summed counts.
import type { Period } from '../../core/period.js';
import { VITAL_NAMES } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import type { DaySources } from '../planner.js';
import { VITALS_DAILY } from '../rollups/tables.js';
import { dayRange } from './filters.js';

/** The vital under which a page's reports of any vital are counted (value 0). */
export const REPORTS_VITAL = 'reports';

const pageList = (pages: readonly string[]) => joinSql(pages.map((p) => sql`${p}`), ', ');

/**
 * Per day (`bucket`), page (of `pages` only, when given), vital and value, how many engage events
 * reported it, and per day and page the reports of any vital. Columns: b, k, vital, value, reports.
 */
export function measureVitals(d: Dialect, bucket: Sql, siteId: string, days: Period, pages: readonly string[] | null): Sql {
  const only = pages === null ? trusted('') : sql` AND page IN (${pageList(pages)})`;
  const engage = (column: string) => sql`FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND name = 'engage' AND ${trusted(column)}${only}`;
  const each = VITAL_NAMES.map(
    (vital) => sql`SELECT ${bucket} AS b, page AS k, ${vital} AS vital, CAST(${trusted(vital)} AS BIGINT) AS value, CAST(count(*) AS BIGINT) AS reports
      ${engage(`${vital} IS NOT NULL`)} GROUP BY b, k, value`,
  );
  const any = `(${VITAL_NAMES.map((vital) => `${vital} IS NOT NULL`).join(' OR ')})`;
  each.push(sql`SELECT ${bucket} AS b, page AS k, ${REPORTS_VITAL} AS vital, CAST(0 AS BIGINT) AS value, CAST(count(*) AS BIGINT) AS reports ${engage(any)} GROUP BY b, k`);
  return joinSql(each, ' UNION ALL ');
}

/**
 * The counts per value of some pages' vitals over some days, one statement per source:
 * vitals_daily up to the watermark, raw events after it (imported days have none). Columns: k,
 * vital, value, reports.
 */
export function vitalsStatements(d: Dialect, siteId: string, days: DaySources, pages: readonly string[]): Sql[] {
  if (pages.length === 0) return [];
  const statements: Sql[] = [];
  if (days.rollup) {
    statements.push(
      sql`SELECT page AS k, vital, value, CAST(sum(reports) AS BIGINT) AS reports FROM ${trusted(VITALS_DAILY.name)}
        WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND page IN (${pageList(pages)}) GROUP BY page, vital, value`,
    );
  }
  for (const raw of [days.sessions, days.raw]) {
    if (raw) statements.push(sql`SELECT k, vital, value, CAST(sum(reports) AS BIGINT) AS reports FROM (${measureVitals(d, trusted('day'), siteId, raw, pages)}) r GROUP BY k, vital, value`);
  }
  return statements;
}
