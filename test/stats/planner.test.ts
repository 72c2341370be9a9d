// The planner alone: which days come from rollups and which from raw events, and what it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { daySources, fullyComputable, planQuery, splitMonths } from '../../src/stats/planner.js';

const NOW = Date.UTC(2026, 2, 20, 12); // today 2026-03-20 in UTC; raw window from 2026-02-19
const SITE = { id: 's', timezone: 'UTC' };

function plan(kind: QueryKind, params: RawParams, watermark: string | null = '2026-03-19', retentionMonths: number | null = null) {
  return planQuery(parseQuery(kind, params, SITE, NOW), { watermark, retentionMonths });
}

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

test('path choice', () => {
  const cases: Array<[QueryKind, RawParams, 'rollup' | 'raw']> = [
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
  for (const [kind, params, path] of cases) assert.equal(plan(kind, params).plan?.path, path, `${kind} ${JSON.stringify(params)}`);
});

test('refusals', () => {
  const cases: Array<[QueryKind, RawParams, string | undefined]> = [
    ['stats', { period: '90d', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
    ['stats', { from: '2026-02-18', to: '2026-02-20', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
    ['stats', { from: '2026-02-19', to: '2026-03-20', filter: ['country:FR', 'page:/'] }, undefined],
    // Inside the window but 35 days long (reaching into the future): over the 30-day limit.
    ['stats', { from: '2026-02-19', to: '2026-03-25', filter: ['country:FR', 'page:/'] }, 'RAW_WINDOW_EXCEEDED'],
    ['breakdown', { period: 'month', dimension: 'page', filter: 'country:FR' }, undefined],
    ['breakdown', { period: 'last_month', dimension: 'page', filter: 'country:FR' }, 'RAW_WINDOW_EXCEEDED'],
    ['timeseries', { metric: 'sessions', filter: 'country:FR' }, 'METRIC_NOT_FILTERABLE'],
    ['timeseries', { metric: 'conversions', filter: 'page:/' }, 'METRIC_NOT_FILTERABLE'],
    ['timeseries', { metric: 'bounceRate', filter: 'event:signup' }, 'METRIC_NOT_FILTERABLE'],
    ['timeseries', { metric: 'avgDuration', filter: 'exit:/' }, undefined],
    ['timeseries', { metric: 'pageviews', filter: 'event:signup' }, undefined],
    ['timeseries', { metric: 'conversions', period: 'yesterday' }, 'HOURLY_CONVERSIONS_UNSUPPORTED'],
    ['timeseries', { metric: 'conversions', period: '7d' }, undefined],
    ['stats', { metric: 'sessions', filter: 'country:FR' }, undefined],
  ];
  for (const [kind, params, code] of cases) assert.equal(errorCode(() => plan(kind, params)), code, `${kind} ${JSON.stringify(params)}`);
});

test('day sources: rollups up to the watermark, raw after, retention and raw window cut', () => {
  const q = plan('stats', { from: '2026-03-01', to: '2026-03-25' }, '2026-03-19');
  assert.deepEqual(daySources(q, q.period), {
    rollup: { from: '2026-03-01', to: '2026-03-19' },
    raw: { from: '2026-03-20', to: '2026-03-25' },
    firstComputable: '2026-03-01',
  });
  const noWatermark = plan('stats', { period: '7d' }, null);
  assert.deepEqual(daySources(noWatermark, noWatermark.period).rollup, null);
  assert.deepEqual(daySources(noWatermark, noWatermark.period).raw, { from: '2026-03-14', to: '2026-03-20' });
  const retained = plan('stats', { period: '90d' }, '2026-03-19', 1);
  assert.equal(daySources(retained, retained.period).firstComputable, '2026-02-20');
  assert.equal(fullyComputable(retained, retained.previous), false);
  const raw = plan('stats', { period: '30d', filter: ['country:FR', 'page:/'] });
  assert.equal(fullyComputable(raw, raw.period), true);
  assert.equal(fullyComputable(raw, raw.previous), false, 'the previous period is outside the raw window');
  const hourly = plan('timeseries', { from: '2025-01-01', to: '2025-01-02' });
  assert.equal(daySources(hourly, hourly.period).firstComputable, null, 'old hours are not computable');
  assert.ok(Object.isFrozen(q) && Object.isFrozen(q.plan));
});

test('rolled-up days split into whole months and the days around them', () => {
  assert.deepEqual(splitMonths({ from: '2026-01-15', to: '2026-03-19' }), {
    head: { from: '2026-01-15', to: '2026-01-31' },
    months: { from: '2026-02-01', to: '2026-02-01' },
    tail: { from: '2026-03-01', to: '2026-03-19' },
  });
  assert.deepEqual(splitMonths({ from: '2026-01-01', to: '2026-02-28' }), { head: null, months: { from: '2026-01-01', to: '2026-02-01' }, tail: null });
  assert.deepEqual(splitMonths({ from: '2026-01-02', to: '2026-01-31' }), { head: { from: '2026-01-02', to: '2026-01-31' }, months: null, tail: null });
  assert.deepEqual(splitMonths({ from: '2024-02-01', to: '2024-02-29' }).months, { from: '2024-02-01', to: '2024-02-01' });
});

test('a filter key folded into (other) inside the raw window: raw events from that day on', () => {
  const folded = (firstFoldedDay: string | null, params: RawParams = { from: '2026-03-01', to: '2026-03-19', filter: 'page:/rare' }) =>
    planQuery(parseQuery('stats', params, SITE, NOW), { watermark: '2026-03-19', retentionMonths: null, firstFoldedDay });
  const cases: Array<[string | null, string | null, string]> = [
    [null, '2026-03-19', 'nothing folded: rollups up to the watermark'],
    ['2026-03-10', '2026-03-09', 'folded on the 10th: rollups up to the 9th, raw events from the 10th'],
    ['2026-02-19', '2026-02-18', 'folded on the first day of the raw window'],
    ['2026-02-18', '2026-03-19', 'folded before the raw window: only rollups hold that day'],
    ['2026-03-20', '2026-03-19', 'after the watermark: raw events already'],
  ];
  for (const [day, watermark, what] of cases) assert.equal(folded(day).plan?.watermark, watermark, what);
  const sources = daySources(folded('2026-03-10'), { from: '2026-03-01', to: '2026-03-19' });
  assert.deepEqual([sources.rollup, sources.raw], [{ from: '2026-03-01', to: '2026-03-09' }, { from: '2026-03-10', to: '2026-03-19' }]);
  // Raw-only queries keep the watermark they were given (it is not read).
  assert.equal(folded('2026-03-10', { period: '7d', filter: ['page:/rare', 'country:FR'] }).plan?.path, 'raw');
});
