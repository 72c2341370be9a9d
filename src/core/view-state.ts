// The site dashboard's view as its address carries it, with the read API's own parameters: `period`
// (a preset) or `from` + `to` (site-local days), `filter` (repeated, `<dimension>:<value>`, `!:` for
// is not, `~:` for contains), `metric` (the chart's), `comparison` (what the figures are compared
// with) and `segment` (a saved segment, whose filters the server adds to the view's). A view is a
// link: parsing an address and writing it back gives the same view, and the figures are read with
// the same parameters.
import {
  DEFAULT_COMPARISON,
  DEFAULT_PRESET,
  filterParam,
  GOAL_DIMENSION,
  isComparison,
  isFilterDimension,
  FILTER_VALUES_MAX,
  joinFilterValues,
  makeFilter,
  PRESETS,
  RAW_CLIP,
  splitFilterParam,
  type Comparison,
  type Filter,
  type FilterDimension,
  type FilterOperator,
  type Preset,
} from './vocabulary.js';
import { DEFAULT_METRIC, isMetric, metricsUnder, type Metric } from './metric-registry.js';
import { SEGMENT_PARAM } from './segments.js';

/** A period: a preset, or a custom range of site-local days (`YYYY-MM-DD`, inclusive). */
export type PeriodChoice = { preset: Preset } | { from: string; to: string };

export interface ViewState {
  period: PeriodChoice;
  /** At most one per dimension, in the order they were added. */
  filters: Filter[];
  metric: Metric;
  comparison: Comparison;
  /** A segment of the site (its id): its filters add to `filters` on the server (`segment=`). */
  segment?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A segment's id as an address says it: a positive integer that a number holds exactly. */
const SEGMENT_ID = /^[1-9]\d{0,14}$/;

const isPreset = (v: string | null): v is Preset => (PRESETS as readonly string[]).includes(v ?? '');

/**
 * The view of an address's query. What an address cannot mean falls back to the default (an
 * unknown preset or metric, a half range, a filter without a known dimension or a value, a goal
 * filter with another operator than `is`, a goal filter's metric without one); a dimension given
 * twice keeps its last value.
 */
export function parseViewState(search: string | URLSearchParams): ViewState {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  const from = query.get('from');
  const to = query.get('to');
  const preset = query.get('period');
  const period: PeriodChoice =
    from !== null && to !== null && DAY.test(from) && DAY.test(to) ? { from, to } : { preset: isPreset(preset) ? preset : DEFAULT_PRESET };
  let filters: Filter[] = [];
  for (const text of query.getAll('filter')) {
    const parts = splitFilterParam(text);
    // The API refuses a goal filter with another operator than `is`: such an address would fail every read.
    if (parts && parts.value !== '' && isFilterDimension(parts.dimension) && (parts.dimension !== GOAL_DIMENSION || parts.operator === 'is')) {
      const filter = makeFilter(parts.dimension, parts.operator, parts.value);
      filters = withFilter({ period, filters, metric: DEFAULT_METRIC, comparison: DEFAULT_COMPARISON }, filter).filters;
    }
  }
  const metric = query.get('metric');
  const comparison = query.get('comparison');
  const segment = query.get(SEGMENT_PARAM);
  return {
    period,
    filters,
    metric: metric !== null && isMetric(metric) ? metricUnder(metric, filters) : DEFAULT_METRIC,
    comparison: isComparison(comparison) ? comparison : DEFAULT_COMPARISON,
    ...(segment !== null && SEGMENT_ID.test(segment) ? { segment: Number(segment) } : {}),
  };
}

/** The period and filters (and the segment) as the address says them. */
function periodAndFilters(state: Pick<ViewState, 'period' | 'filters' | 'segment'>, filters: boolean): URLSearchParams {
  const params = new URLSearchParams();
  if ('preset' in state.period) params.set('period', state.period.preset);
  else {
    params.set('from', state.period.from);
    params.set('to', state.period.to);
  }
  if (filters) for (const f of state.filters) params.append('filter', filterParam(f));
  if (filters && state.segment !== undefined) params.set(SEGMENT_PARAM, String(state.segment));
  return params;
}

/**
 * The period and filters as read API parameters (what every figure of the view is read with), with
 * `raw=clip`: under filters (the view's, or a shared link's locked ones, which the server adds), a
 * period reaching past the raw window reads its days inside it (the dashboard says so in a notice)
 * instead of failing.
 */
export function queryParams(state: Pick<ViewState, 'period' | 'filters' | 'segment'>, options: { filters?: boolean } = {}): URLSearchParams {
  const filters = options.filters !== false;
  const params = periodAndFilters(state, filters);
  if (filters) params.set('raw', RAW_CLIP);
  return params;
}

/**
 * The parameters of the view's KPIs: its period and filters, what they are compared with, and,
 * for a period that contains today, only the elapsed part of the compared period (a whole previous
 * day against today's first minutes reads as a fall of every figure).
 */
export function statsParams(state: Pick<ViewState, 'period' | 'filters' | 'comparison' | 'segment'>): URLSearchParams {
  const params = queryParams(state);
  if (state.comparison !== DEFAULT_COMPARISON) params.set('comparison', state.comparison);
  if (state.comparison !== 'off') params.set('elapsed', 'true');
  return params;
}

/** The metric, or the default where the filters do not answer it (conversion rate without a goal filter). */
const metricUnder = (metric: Metric, filters: readonly Filter[]): Metric => (metricsUnder(filters).includes(metric) ? metric : DEFAULT_METRIC);

/** The address query of a view ('' for the default view); defaults are left out. */
export function viewSearch(state: ViewState): string {
  const params = periodAndFilters(state, true);
  if ('preset' in state.period && state.period.preset === DEFAULT_PRESET) params.delete('period');
  if (state.metric !== DEFAULT_METRIC) params.set('metric', state.metric);
  if (state.comparison !== DEFAULT_COMPARISON) params.set('comparison', state.comparison);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The view with `filter` (replacing one on the same dimension: the API takes one filter per dimension). */
export function withFilter(state: ViewState, filter: Filter): ViewState {
  const at = state.filters.findIndex((f) => f.dimension === filter.dimension);
  const filters = [...state.filters];
  if (at === -1) filters.push(filter);
  else filters[at] = filter;
  return { ...state, filters };
}

/**
 * The view with a filter the filter dialog made: its values added to those of the view's filter on
 * the same dimension with the same operator (an `or`: `Country is Germany or Austria`), up to
 * FILTER_VALUES_MAX; else it replaces that filter, as `withFilter` does.
 */
export function withFilterValues(state: ViewState, filter: Filter): ViewState {
  const same = state.filters.find((f) => f.dimension === filter.dimension && f.operator === filter.operator);
  if (!same) return withFilter(state, filter);
  const values = [...new Set([...same.values, ...filter.values])].slice(0, FILTER_VALUES_MAX);
  return withFilter(state, makeFilter(filter.dimension, filter.operator ?? 'is', joinFilterValues(values)));
}

/**
 * The view with its filter on `replaced` given over to `filter`, in the same place (a chip edited in
 * the filter dialog); a filter on `filter`'s dimension elsewhere goes, one filter per dimension.
 */
export function withFilterReplaced(state: ViewState, replaced: FilterDimension, filter: Filter): ViewState {
  const filters = state.filters.flatMap((f) => (f.dimension === replaced ? [filter] : f.dimension === filter.dimension ? [] : [f]));
  if (!filters.includes(filter)) return withFilter(state, filter);
  return { ...state, filters, metric: metricUnder(state.metric, filters) };
}

export function withoutFilter(state: ViewState, dimension: FilterDimension): ViewState {
  const filters = state.filters.filter((f) => f.dimension !== dimension);
  return { ...state, filters, metric: metricUnder(state.metric, filters) };
}

export function withPeriod(state: ViewState, period: PeriodChoice): ViewState {
  return { ...state, period };
}

export function withMetric(state: ViewState, metric: Metric): ViewState {
  return { ...state, metric };
}

export function withComparison(state: ViewState, comparison: Comparison): ViewState {
  return { ...state, comparison };
}
