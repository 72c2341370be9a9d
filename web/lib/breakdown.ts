// Reading breakdowns: a page of rows for a panel or the details, every row for an export, the
// figures a row can add in a view, the order a Details view sorts its rows in, and the CSV text of rows.
import { toCsv } from './csv.js';
import { dimensionLabel, keyLabel } from './labels.js';
import { readSite } from './site.js';
import { breakdownRead, type RowsPage } from '../../src/core/dashboard-reads.js';
import { BREAKDOWN_INCLUDES, BREAKDOWN_LIMIT, type BreakdownInclude, type QueryDimension } from '../../src/core/vocabulary.js';
import { isMetric } from '../../src/core/metric-registry.js';
import { namesText } from './text/names.js';
import { dashboardText } from './text/dashboard.js';
import type { BreakdownAnswer, BreakdownRow, PropertyKeysAnswer } from '../../src/core/answers.js';

/** What a row adds as one figure of its own column (web vitals have a view of their own: ../components/web-vitals.tsx). */
export type FigureInclude = Exclude<BreakdownInclude, 'vitals'>;
const FIGURE_INCLUDES = (Object.keys(BREAKDOWN_INCLUDES) as BreakdownInclude[]).filter((name): name is FigureInclude => name !== 'vitals');

/** Whether a breakdown of the dimension in this view may add `include` (its dimension, and no filter where it takes none). */
export function includeApplies(view: URLSearchParams, dimension: QueryDimension, include: BreakdownInclude): boolean {
  const rule = BREAKDOWN_INCLUDES[include];
  return rule.dimension === dimension && (rule.filters || !view.has('filter'));
}

/**
 * What a breakdown's rows can add in this view and show a figure for: scroll depth for pages when the
 * view has no filter (read per page, unfiltered); a bounce rate and a visit duration for every
 * dimension, and time on page for pages, under any filter (the dashboard reads with raw=clip: visits
 * under event filters).
 */
export function includesFor(view: URLSearchParams, dimension: QueryDimension): FigureInclude[] {
  return FIGURE_INCLUDES.filter((name) => (isMetric(name) ? (BREAKDOWN_INCLUDES[name].dimension ?? dimension) === dimension : includeApplies(view, dimension, name)));
}

/** A row's field a Details view sorts by. */
export type RowField = 'key' | 'visitors' | 'views' | FigureInclude;
export interface RowOrder {
  by: RowField;
  descending: boolean;
}

/**
 * Rows of a dimension in an order: by their key as shown (a country's name, not its code, in the
 * reader's language) or a figure, rows without the figure last whichever the direction; ties keep
 * the API's order (most visitors first).
 */
export function sortRows(dimension: QueryDimension, rows: readonly BreakdownRow[], order: RowOrder): BreakdownRow[] {
  const sign = order.descending ? -1 : 1;
  const compare = (a: BreakdownRow, b: BreakdownRow): number => {
    if (order.by === 'key') return sign * keyLabel(dimension, a.key).localeCompare(keyLabel(dimension, b.key));
    const [x, y] = [rowFigure(a, order.by), rowFigure(b, order.by)];
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
    if (y === null || y === undefined) return -1;
    return sign * (x - y);
  };
  return [...rows].sort(compare);
}

export function readBreakdown(siteId: string, view: URLSearchParams, dimension: QueryDimension, page: RowsPage): Promise<BreakdownAnswer> {
  return readSite<BreakdownAnswer>(siteId, breakdownRead(view, dimension, page));
}

/** Most rows an export holds (ten pages of the API's largest). */
const EXPORT_MAX_ROWS = 10_000;
const EXPORT_PAGE = BREAKDOWN_LIMIT.max;

/** Every row of a breakdown (up to EXPORT_MAX_ROWS), in the API's order, with the figures it adds in this view, and the period they count. */
export async function readAllRows(siteId: string, view: URLSearchParams, dimension: QueryDimension, search?: string): Promise<Pick<BreakdownAnswer, 'rows' | 'period'>> {
  const rows: BreakdownRow[] = [];
  const include = includesFor(view, dimension);
  for (;;) {
    const page = await readBreakdown(siteId, view, dimension, { limit: EXPORT_PAGE, offset: rows.length, search, include });
    rows.push(...page.rows);
    if (page.rows.length < EXPORT_PAGE || rows.length >= page.totalKeys || rows.length >= EXPORT_MAX_ROWS) return { rows, period: page.period };
  }
}

/** The name of a figure a row adds: a metric's, or scroll depth's. */
export function includeLabel(name: FigureInclude): string {
  return isMetric(name) ? namesText.metricNames[name] : dashboardText.scrollDepthColumn;
}

/** A row's figure: null where it has none (views the days read do not know, or a figure it does not add). */
export function rowFigure(row: BreakdownRow, figure: Exclude<RowField, 'key'>): number | null {
  if (figure === 'views' && row.viewsUnknown) return null;
  return row[figure] ?? null;
}

/** The rows as CSV: key, visitors, views, share, then each figure the rows carry (as the API gives it; empty where null or unknown). */
export function breakdownCsv(dimension: QueryDimension, rows: readonly BreakdownRow[]): string {
  const added = FIGURE_INCLUDES.filter((name) => rows.some((r) => name in r));
  return toCsv(
    [dimensionLabel(dimension), namesText.metricNames.visitors, dashboardText.viewsColumn, dashboardText.shareOfVisitors, ...added.map(includeLabel)],
    rows.map((r) => [r.key, r.visitors, rowFigure(r, 'views') ?? '', r.pct, ...added.map((name) => r[name] ?? '')]),
  );
}

/** The view's period alone: its filters and their raw=clip aside. */
export function unfilteredView(view: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(view);
  params.delete('filter');
  params.delete('raw');
  return params;
}

/** The custom property keys of the site's events over the view's period (every event's keys). */
export function readPropertyKeys(siteId: string, view: URLSearchParams): Promise<PropertyKeysAnswer> {
  return readSite<PropertyKeysAnswer>(siteId, { path: '/properties', params: unfilteredView(view) });
}
