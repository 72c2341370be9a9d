// Reading breakdowns: a page of rows for a panel or the details, every row for an export, and the
// CSV text of rows (the same columns for every dimension).
import { toCsv } from './csv.js';
import { dimensionLabel } from './labels.js';
import { readSite } from './site.js';
import { breakdownRead, type RowsPage } from '../../src/core/dashboard-reads.js';
import { BREAKDOWN_INCLUDES, type BreakdownInclude, type QueryDimension } from '../../src/core/vocabulary.js';
import type { BreakdownAnswer, BreakdownRow, PropertyKeysAnswer } from '../../src/core/answers.js';

/**
 * What a breakdown's rows can add in this view: each addition of the dimension, when the view has no
 * filter (the API reads them per key, unfiltered).
 */
export function includesFor(view: URLSearchParams, dimension: QueryDimension): BreakdownInclude[] {
  if (view.has('filter')) return [];
  return (Object.keys(BREAKDOWN_INCLUDES) as BreakdownInclude[]).filter((name) => BREAKDOWN_INCLUDES[name] === dimension);
}

export function readBreakdown(siteId: string, view: URLSearchParams, dimension: QueryDimension, page: RowsPage): Promise<BreakdownAnswer> {
  return readSite<BreakdownAnswer>(siteId, breakdownRead(view, dimension, page));
}

/** Most rows an export holds (ten pages of the API's largest). */
const EXPORT_MAX_ROWS = 10_000;
const EXPORT_PAGE = 1000;

/** Every row of a breakdown (up to EXPORT_MAX_ROWS), in the API's order. */
export async function readAllRows(siteId: string, view: URLSearchParams, dimension: QueryDimension, search?: string): Promise<BreakdownRow[]> {
  const rows: BreakdownRow[] = [];
  for (;;) {
    const page = await readBreakdown(siteId, view, dimension, { limit: EXPORT_PAGE, offset: rows.length, search });
    rows.push(...page.rows);
    if (page.rows.length < EXPORT_PAGE || rows.length >= page.totalKeys || rows.length >= EXPORT_MAX_ROWS) return rows;
  }
}

export function breakdownCsv(dimension: QueryDimension, rows: readonly BreakdownRow[]): string {
  return toCsv(
    [dimensionLabel(dimension), 'Visitors', 'Views', 'Share of visitors'],
    rows.map((r) => [r.key, r.visitors, r.views, r.pct]),
  );
}

/** The custom property keys of the site's events over the view's period (its filters and their raw=clip aside: every event's keys). */
export function readPropertyKeys(siteId: string, view: URLSearchParams): Promise<PropertyKeysAnswer> {
  const params = new URLSearchParams(view);
  params.delete('filter');
  params.delete('raw');
  return readSite<PropertyKeysAnswer>(siteId, { path: '/properties', params });
}
