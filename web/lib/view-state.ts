// The site dashboard's view as its address carries it, with the read API's own parameters: `period`
// (a preset) or `from` + `to` (site-local days), `filter` (repeated, `<dimension>:<value>`) and
// `metric` (the chart's). A view is a link: parsing an address and writing it back gives the same
// view, and the figures are read with the same parameters.

export const PERIODS = ['today', 'yesterday', '7d', '30d', '90d', 'month', 'last_month', 'year'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = '30d';

export const METRICS = ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions'] as const;
export type Metric = (typeof METRICS)[number];
export const DEFAULT_METRIC: Metric = 'visitors';

export const DIMENSIONS = [
  'page', 'entry', 'exit',
  'referrer', 'utm_source', 'utm_medium', 'utm_campaign',
  'country', 'region', 'city',
  'browser', 'os', 'device',
  'event',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface Filter {
  dimension: Dimension;
  value: string;
}

/** A period: a preset, or a custom range of site-local days (`YYYY-MM-DD`, inclusive). */
export type PeriodChoice = { preset: Period } | { from: string; to: string };

export interface ViewState {
  period: PeriodChoice;
  /** At most one per dimension, in the order they were added. */
  filters: Filter[];
  metric: Metric;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isPeriod = (v: string | null): v is Period => (PERIODS as readonly string[]).includes(v ?? '');
const isMetric = (v: string | null): v is Metric => (METRICS as readonly string[]).includes(v ?? '');
export const isDimension = (v: string): v is Dimension => (DIMENSIONS as readonly string[]).includes(v);

/**
 * The view of an address's query. What an address cannot mean falls back to the default (an
 * unknown preset or metric, a half range, a filter without a known dimension or a value); a
 * dimension given twice keeps its last value.
 */
export function parseViewState(search: string | URLSearchParams): ViewState {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  const from = query.get('from');
  const to = query.get('to');
  const preset = query.get('period');
  const period: PeriodChoice =
    from !== null && to !== null && DAY.test(from) && DAY.test(to) ? { from, to } : { preset: isPeriod(preset) ? preset : DEFAULT_PERIOD };
  let filters: Filter[] = [];
  for (const text of query.getAll('filter')) {
    const colon = text.indexOf(':');
    const dimension = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (colon > 0 && value !== '' && isDimension(dimension)) filters = withFilter({ period, filters, metric: DEFAULT_METRIC }, dimension, value).filters;
  }
  const metric = query.get('metric');
  return { period, filters, metric: isMetric(metric) ? metric : DEFAULT_METRIC };
}

/** The period and filters as read API parameters (what every figure of the view is read with). */
export function queryParams(state: Pick<ViewState, 'period' | 'filters'>, options: { filters?: boolean } = {}): URLSearchParams {
  const params = new URLSearchParams();
  if ('preset' in state.period) params.set('period', state.period.preset);
  else {
    params.set('from', state.period.from);
    params.set('to', state.period.to);
  }
  if (options.filters !== false) for (const f of state.filters) params.append('filter', `${f.dimension}:${f.value}`);
  return params;
}

/** The address query of a view ('' for the default view); defaults are left out. */
export function viewSearch(state: ViewState): string {
  const params = queryParams(state);
  if ('preset' in state.period && state.period.preset === DEFAULT_PERIOD) params.delete('period');
  if (state.metric !== DEFAULT_METRIC) params.set('metric', state.metric);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The view with a filter on `dimension` (replacing one on the same dimension: the API takes one value per dimension). */
export function withFilter(state: ViewState, dimension: Dimension, value: string): ViewState {
  const at = state.filters.findIndex((f) => f.dimension === dimension);
  const filters = [...state.filters];
  if (at === -1) filters.push({ dimension, value });
  else filters[at] = { dimension, value };
  return { ...state, filters };
}

export function withoutFilter(state: ViewState, dimension: Dimension): ViewState {
  return { ...state, filters: state.filters.filter((f) => f.dimension !== dimension) };
}

export function withPeriod(state: ViewState, period: PeriodChoice): ViewState {
  return { ...state, period };
}

export function withMetric(state: ViewState, metric: Metric): ViewState {
  return { ...state, metric };
}
