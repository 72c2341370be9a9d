// The site dashboard's breakdown panels and the reads a view of the dashboard starts with, as
// /app/v1 paths. Shared by the page, which asks them as its script runs (web/lib/early.ts), and by
// the server, whose page shell names them as preloads: the browser asks them while it reads the
// shell, before the script has loaded, and the script takes their answers.
import { DEFAULT_COMPARISON, type BreakdownInclude, type Comparison, type Dimension, type MatchKind, type QueryDimension } from './vocabulary.js';
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

export interface DimensionTab {
  dimension: Dimension;
  label: string;
  /** The kind of goal whose pattern is one of the tab's keys (an event goal's pattern is an event name). */
  goals?: MatchKind;
  /** Shown only when the view's period has more than one key of the dimension (a site on one host has no use for its hosts). */
  several?: true;
}

export type PanelTab =
  | DimensionTab
  /** The values of one custom property, its key picked among the site's. */
  | { properties: true; label: string }
  /** The site's goals (page goals too) as the view's goals read gives them, each a goal filter. */
  | { goalList: true; label: string };

export interface PanelSpec {
  id: string;
  title: string;
  /** The first tab, the one shown first, is a dimension's. */
  tabs: readonly [DimensionTab, ...PanelTab[]];
}

export const PANELS: readonly PanelSpec[] = [
  {
    id: 'pages',
    title: 'Pages',
    tabs: [
      { dimension: 'page', label: 'Top pages' },
      { dimension: 'entry', label: 'Entry pages' },
      { dimension: 'exit', label: 'Exit pages' },
      { dimension: 'hostname', label: 'Hostnames', several: true },
    ],
  },
  {
    id: 'sources',
    title: 'Sources',
    tabs: [{ dimension: 'referrer', label: 'Referrers' }, { dimension: 'utm_source', label: 'UTM sources' }, { dimension: 'utm_medium', label: 'UTM mediums' }, { dimension: 'utm_campaign', label: 'UTM campaigns' }],
  },
  { id: 'locations', title: 'Locations', tabs: [{ dimension: 'country', label: 'Countries' }, { dimension: 'region', label: 'Regions' }, { dimension: 'city', label: 'Cities' }] },
  { id: 'devices', title: 'Devices', tabs: [{ dimension: 'browser', label: 'Browsers' }, { dimension: 'os', label: 'Systems' }, { dimension: 'device', label: 'Devices' }] },
  {
    id: 'events',
    title: 'Events',
    tabs: [
      { dimension: 'event', label: 'Events', goals: 'event' },
      { goalList: true, label: 'Goals' },
      { properties: true, label: 'Properties' },
    ],
  },
];

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
