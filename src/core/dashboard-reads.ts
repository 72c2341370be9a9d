// The site dashboard's breakdown panels and the reads a view of the dashboard starts with, as
// /app/v1 paths. Shared by the page, which asks them as its script runs (web/lib/early.ts), and by
// the server, whose page shell names them as preloads: the browser asks them while it reads the
// shell, before the script has loaded, and the script takes their answers.
import { DEFAULT_COMPARISON, DIMENSION_SPECS, DIMENSIONS, type BreakdownInclude, type Comparison, type Dimension, type DimensionTabSpec, type PanelId, type QueryDimension } from './vocabulary.js';
import type { Metric } from './metric-registry.js';
import { parseViewState, queryParams, statsParams, type ViewState } from './view-state.js';
import type { SiteRead } from './app-paths.js';

/** Whether the site holds an event yet, its tracker tag and its recent collection outcomes. */
export const INSTALLATION: SiteRead = { path: '/installation' };

/** A page of breakdown rows: how many, from which, matching what, and what the rows add (`include`). */
export interface RowsPage {
  limit: number;
  offset?: number;
  search?: string;
  include?: readonly BreakdownInclude[];
}

export function breakdownRead(view: URLSearchParams, dimension: QueryDimension, page: RowsPage): SiteRead {
  const params = new URLSearchParams(view);
  params.set('dimension', dimension);
  params.set('limit', String(page.limit));
  if (page.offset) params.set('offset', String(page.offset));
  if (page.search) params.set('search', page.search);
  if (page.include?.length) params.set('include', page.include.join(','));
  return { path: '/breakdown', params };
}

export function timeseriesRead(view: URLSearchParams, metric: Metric, comparison: Comparison): SiteRead {
  const params = new URLSearchParams(view);
  params.set('metric', metric);
  if (comparison !== 'off') params.set('compare', 'true');
  if (comparison !== DEFAULT_COMPARISON) params.set('comparison', comparison);
  return { path: '/timeseries', params };
}

/**
 * The goals over the view's period and filters (with `raw=clip`, as every filtered figure: the
 * dashboard's mount counts goals under filters), for the conversion rates of the Events panel.
 */
export const goalsRead = (state: ViewState): SiteRead => ({ path: '/goals', params: queryParams(state) });

/** A dimension's tab: its spec in DIMENSION_SPECS. */
export type DimensionTab = DimensionTabSpec & { dimension: Dimension };

export type PanelTab =
  | DimensionTab
  /** The values of one custom property, its key picked among the site's. */
  | { properties: true }
  /** The site's goals (page goals too) as the view's goals read gives them, each a goal filter. */
  | { goalList: true };

/** A panel (named by the catalogue, keyed by its id). */
export interface PanelSpec {
  id: PanelId;
  /** The first tab, the one shown first, is a dimension's. */
  tabs: readonly [DimensionTab, ...PanelTab[]];
}

/** A panel: the tabs of its dimensions (DIMENSION_SPECS), in their order, then `more`. */
function panel(id: PanelId, more: PanelTab[] = []): PanelSpec {
  const [first, ...rest] = DIMENSIONS.filter((dimension) => DIMENSION_SPECS[dimension].tab.panel === id).map((dimension): DimensionTab => ({ dimension, ...DIMENSION_SPECS[dimension].tab }));
  return { id, tabs: [first!, ...rest, ...more] };
}

export const PANELS: readonly PanelSpec[] = [panel('pages'), panel('sources'), panel('locations'), panel('devices'), panel('events', [{ goalList: true }, { properties: true }])];

/** The rows a panel shows. */
export const PANEL_ROWS = 10;

/**
 * What a view of the site dashboard (`search`: its address's query) reads first: whether the site
 * holds an event, and every figure of the view (KPIs, chart, goals, each panel's first tab).
 */
export function dashboardReads(search: string | URLSearchParams): SiteRead[] {
  const initial = parseViewState(search);
  const view = queryParams(initial);
  return [
    INSTALLATION,
    { path: '/stats', params: statsParams(initial) },
    timeseriesRead(view, initial.metric, initial.comparison),
    goalsRead(initial),
    ...PANELS.map((spec) => breakdownRead(view, spec.tabs[0].dimension, { limit: PANEL_ROWS })),
  ];
}
