// The planner's tables of cases (test/stats/planner.test.ts), at its clock and site: which path a
// request takes, and what it refuses. Other tests read the same requests (segments: a request with a
// segment answers as with the segment's filters written out).
import type { QueryKind, RawParams } from '../../src/core/query.js';

/** Today 2026-03-20 in UTC; the raw window from 2026-02-19. */
export const PLANNER_NOW = Date.UTC(2026, 2, 20, 12);

/** A request and the path it takes. */
export const PATH_CASES: ReadonlyArray<[QueryKind, RawParams, 'rollup' | 'raw']> = [
  ['stats', { period: '30d' }, 'rollup'],
  ['stats', { period: 'year', filter: 'country:FR' }, 'rollup'],
  ['breakdown', { period: 'year', dimension: 'country', filter: 'country:FR' }, 'rollup'],
  ['breakdown', { period: '30d', dimension: 'page', filter: 'country:FR' }, 'raw'],
  ['stats', { period: '7d', filter: ['country:FR', 'page:/'] }, 'raw'],
  ['timeseries', { period: 'today' }, 'raw'],
  ['stats', { period: 'today' }, 'rollup'],
  ['goals', { period: 'year' }, 'rollup'],
  ['funnel', { period: '90d' }, 'rollup'],
];

/** A request and the error code it is refused with (undefined: answered). */
export const REFUSAL_CASES: ReadonlyArray<[QueryKind, RawParams, string | undefined]> = [
  ['stats', { period: '90d', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
  ['stats', { from: '2026-02-18', to: '2026-02-20', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
  ['stats', { from: '2026-02-19', to: '2026-03-20', filter: ['country:FR', 'page:/'] }, undefined],
  // Inside the window but 35 days long (reaching into the future): over the 30-day limit.
  ['stats', { from: '2026-02-19', to: '2026-03-25', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
  ['breakdown', { period: 'month', dimension: 'page', filter: 'country:FR' }, undefined],
  ['breakdown', { period: 'last_month', dimension: 'page', filter: 'country:FR' }, 'RAW_WINDOW_EXCEEDED'],
  ['timeseries', { metric: 'sessions', filter: 'country:FR' }, 'METRIC_NOT_FILTERABLE'],
  ['timeseries', { metric: 'conversions', filter: 'page:/' }, 'METRIC_NOT_FILTERABLE'],
  ['timeseries', { metric: 'conversions', filter: 'page:/', raw: 'clip' }, undefined],
  ['timeseries', { metric: 'conversions', from: '2025-12-01', to: '2025-12-31', filter: 'country:FR', raw: 'clip' }, 'RAW_WINDOW_EXCEEDED'],
  ['goals', { period: '7d', filter: 'country:FR' }, 'INVALID_PARAMS'],
  ['timeseries', { metric: 'bounceRate', filter: 'event:signup' }, 'METRIC_NOT_FILTERABLE'],
  ['timeseries', { metric: 'avgDuration', filter: 'exit:/' }, undefined],
  ['timeseries', { metric: 'pageviews', filter: 'event:signup' }, undefined],
  ['timeseries', { metric: 'conversions', period: 'yesterday' }, 'HOURLY_CONVERSIONS_UNSUPPORTED'],
  ['timeseries', { metric: 'conversions', period: '7d' }, undefined],
  ['stats', { metric: 'sessions', filter: 'country:FR' }, undefined],
];
