// The planner alone: which days come from rollups and which from raw events, and what it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { isLongRead, planQuery, splitMonths, type DaySources } from '../../src/stats/planner.js';
import { PATH_CASES, PLANNER_NOW, REFUSAL_CASES } from '../helpers/planner-cases.js';

const NOW = PLANNER_NOW;
const SITE = { id: 's', timezone: 'UTC' };

function plan(kind: QueryKind, params: RawParams, watermark: string | null = '2026-03-19', retentionMonths: number | null = null, rawDays = 30) {
  return planQuery(parseQuery(kind, params, SITE, NOW), { watermark, retentionMonths, rawDays });
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
  for (const [kind, params, path] of PATH_CASES) assert.equal(plan(kind, params).plan.path, path, `${kind} ${JSON.stringify(params)}`);
});

test('refusals', () => {
  for (const [kind, params, code] of REFUSAL_CASES) assert.equal(errorCode(() => plan(kind, params)), code, `${kind} ${JSON.stringify(params)}`);
});

test("the raw window follows a site's rawDays: raw-only queries may span that many days, and the refusal names them", () => {
  const twoFilters = ['country:FR', 'page:/'];
  const cases: Array<[number, RawParams, string | undefined]> = [
    [30, { period: '90d', filter: twoFilters }, 'RAW_WINDOW_EXCEEDED'],
    [90, { period: '90d', filter: twoFilters }, undefined],
    [90, { period: 'year', filter: twoFilters }, undefined], // 2026-01-01 to today: 79 days
    [90, { from: '2025-09-01', to: '2026-03-20', filter: twoFilters }, 'RAW_WINDOW_EXCEEDED'],
    [90, { from: '2025-12-21', to: '2026-03-20', filter: twoFilters }, undefined], // the window's first day
    [90, { from: '2025-12-20', to: '2026-03-20', filter: twoFilters }, 'RAW_WINDOW_EXCEEDED'],
    [800, { from: '2025-01-01', to: '2026-03-20', filter: twoFilters }, undefined],
  ];
  for (const [rawDays, params, code] of cases) {
    assert.equal(errorCode(() => plan('stats', params, '2026-03-19', null, rawDays)), code, `${rawDays} ${JSON.stringify(params)}`);
  }
  assert.throws(() => plan('stats', { from: '2025-09-01', to: '2026-03-20', filter: twoFilters }, '2026-03-19', null, 90), /within the last 90 days/);
  // Long reads: raw events of more days than the default window, counting only days that can hold events.
  const long = (params: RawParams, rawDays: number) => isLongRead(plan('stats', params, '2026-03-19', null, rawDays).plan);
  assert.equal(long({ period: '30d', filter: twoFilters }, 30), false, 'the default window is never long');
  assert.equal(long({ period: 'month', filter: twoFilters }, 30), false, 'days after today hold no events');
  assert.equal(long({ period: '30d', filter: twoFilters }, 90), true, 'with its previous period: 60 raw days');
  assert.equal(long({ period: '7d', filter: twoFilters }, 90), false);
  assert.equal(long({ period: '90d' }, 90), false, 'rollups answer one or no filter');
  // The dashboard's reads (raw=clip) under one filter: the stats count conversions from raw events, a long read;
  // the chart and a breakdown of the filter's dimension read rollups alone, whatever the goals would need.
  const clipped = (kind: QueryKind, params: RawParams) => isLongRead(plan(kind, { period: '90d', filter: 'country:FR', raw: 'clip', ...params }, '2026-03-19', null, 396).plan);
  assert.equal(clipped('stats', {}), true);
  assert.equal(clipped('timeseries', {}), false);
  assert.equal(clipped('breakdown', { dimension: 'country' }), false);
  assert.equal(plan('breakdown', { period: '90d', filter: 'country:FR', raw: 'clip', dimension: 'country' }, '2026-03-19', null, 396).plan.goalSpan, null);
  // A raw-only plan reads every day of a 90-day window from raw events.
  assert.deepEqual(plan('stats', { period: '90d', filter: twoFilters }, '2026-03-19', null, 90).plan.period, sources(null, ['2025-12-21', '2026-03-20']));
});

/** Day sources from [from, to] pairs; the first computable day is the first day read. */
function sources(rollup: [string, string] | null, raw: [string, string] | null, sessions: [string, string] | null = null, imported: [string, string] | null = null): DaySources {
  const period = (r: [string, string] | null) => r && { from: r[0], to: r[1] };
  const firstComputable = [imported, rollup ?? sessions ?? raw].flatMap((r) => (r ? [r[0]] : [])).sort()[0] ?? null;
  return { rollup: period(rollup), sessions: period(sessions), raw: period(raw), imported: period(imported), firstComputable };
}

test('day sources of the period, the previous period and the span: rollups up to the watermark, raw after, retention and raw window cut', () => {
  type Expected = { period: DaySources; previous: DaySources; span: DaySources; previousComplete: boolean };
  const cases: Array<[string, QueryKind, RawParams, string | null, number | null, Expected]> = [
    [
      'rollups up to the watermark, raw events after it',
      'stats',
      { from: '2026-03-01', to: '2026-03-25' },
      '2026-03-19',
      null,
      {
        period: sources(['2026-03-01', '2026-03-19'], ['2026-03-20', '2026-03-25']),
        previous: sources(['2026-02-04', '2026-02-28'], null),
        span: sources(['2026-02-04', '2026-03-19'], ['2026-03-20', '2026-03-25']),
        previousComplete: true,
      },
    ],
    [
      'no watermark: raw events only',
      'stats',
      { period: '7d' },
      null,
      null,
      {
        period: sources(null, ['2026-03-14', '2026-03-20']),
        previous: sources(null, ['2026-03-07', '2026-03-13']),
        span: sources(null, ['2026-03-07', '2026-03-20']),
        previousComplete: true,
      },
    ],
    [
      'retention of 1 month cuts the period, and the previous period away',
      'stats',
      { period: '90d' },
      '2026-03-19',
      1,
      {
        period: sources(['2026-02-20', '2026-03-19'], ['2026-03-20', '2026-03-20']),
        previous: sources(null, null),
        span: sources(['2026-02-20', '2026-03-19'], ['2026-03-20', '2026-03-20']),
        previousComplete: false,
      },
    ],
    [
      'raw path: the previous period is outside the raw window',
      'stats',
      { period: '30d', filter: ['country:FR', 'page:/'] },
      '2026-03-19',
      null,
      {
        period: sources(null, ['2026-02-19', '2026-03-20']),
        previous: sources(null, null),
        span: sources(null, ['2026-02-19', '2026-03-20']),
        previousComplete: false,
      },
    ],
    [
      'old hours are not computable',
      'timeseries',
      { from: '2025-01-01', to: '2025-01-02' },
      '2026-03-19',
      null,
      { period: sources(null, null), previous: sources(null, null), span: sources(null, null), previousComplete: false },
    ],
  ];
  for (const [what, kind, params, watermark, retentionMonths, expected] of cases) {
    const { period, previous, span, previousComplete } = plan(kind, params, watermark, retentionMonths).plan;
    assert.deepEqual({ period, previous, span, previousComplete }, expected, what);
  }
  const q = plan('stats', { period: '7d' });
  assert.ok(Object.isFrozen(q) && Object.isFrozen(q.plan) && Object.isFrozen(q.plan.period));
});

test("a breakdown's rolled-up days of the period, split for the monthly sums", () => {
  const split = (params: RawParams) => plan('breakdown', { dimension: 'page', ...params }).plan.breakdownMonths;
  assert.deepEqual(split({ from: '2026-01-15', to: '2026-03-20' }), {
    head: { from: '2026-01-15', to: '2026-01-31' },
    months: { from: '2026-02-01', to: '2026-02-01' },
    tail: { from: '2026-03-01', to: '2026-03-19' },
  });
  assert.equal(split({ period: '7d', filter: 'country:FR' }), null, 'raw path: no rolled-up days');
  assert.equal(plan('stats', { period: 'year' }).plan.breakdownMonths, null, 'other kinds read no monthly sums');
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
    planQuery(parseQuery('stats', params, SITE, NOW), { watermark: '2026-03-19', retentionMonths: null, rawDays: 30, firstFoldedDay });
  const cases: Array<[string | null, string | null, string]> = [
    [null, '2026-03-19', 'nothing folded: rollups up to the watermark'],
    ['2026-03-10', '2026-03-09', 'folded on the 10th: rollups up to the 9th, raw events from the 10th'],
    ['2026-02-19', '2026-02-18', 'folded on the first day of the raw window'],
    ['2026-02-18', '2026-03-19', 'folded before the raw window: only rollups hold that day'],
    ['2026-03-20', '2026-03-19', 'after the watermark: raw events already'],
  ];
  for (const [day, watermark, what] of cases) assert.equal(folded(day).plan.watermark, watermark, what);
  assert.deepEqual(folded('2026-03-10').plan.period, sources(['2026-03-01', '2026-03-09'], ['2026-03-10', '2026-03-19']));
  // Raw-only queries keep the watermark they were given (it is not read).
  assert.equal(folded('2026-03-10', { period: '7d', filter: ['page:/rare', 'country:FR'] }).plan.path, 'raw');
});

test('session rows answer the raw-path days up to the watermark where every filter and the breakdown are session-scoped', () => {
  const sessionFilters = ['country:FR', 'device:mobile'];
  const at = (kind: QueryKind, params: RawParams, sessionRowsFrom: string | null = null, watermark: string | null = '2026-03-19') =>
    planQuery(parseQuery(kind, { period: '90d', ...params }, SITE, NOW), { watermark, retentionMonths: null, rawDays: 90, sessionRowsFrom }).plan;
  const window: [string, string] = ['2025-12-21', '2026-03-19'];
  const today: [string, string] = ['2026-03-20', '2026-03-20'];
  const cases: Array<[string, QueryKind, RawParams, string | null, string | null, DaySources]> = [
    ['two session filters', 'stats', { filter: sessionFilters }, null, '2026-03-19', sources(null, today, window)],
    ['two session filters and a breakdown of another session dimension', 'breakdown', { filter: sessionFilters, dimension: 'referrer' }, null, '2026-03-19', sources(null, today, window)],
    ['the exit page is session-scoped', 'breakdown', { filter: ['exit:/'], dimension: 'entry' }, null, '2026-03-19', sources(null, today, window)],
    ['a daily timeseries', 'timeseries', { filter: sessionFilters, metric: 'bounceRate' }, null, '2026-03-19', sources(null, today, window)],
    ['an event-scoped filter needs the events', 'stats', { filter: ['country:FR', 'page:/'] }, null, '2026-03-19', sources(null, ['2025-12-21', '2026-03-20'])],
    ['a breakdown of pages needs the events', 'breakdown', { filter: 'country:FR', dimension: 'page' }, null, '2026-03-19', sources(null, ['2025-12-21', '2026-03-20'])],
    ['an hourly timeseries needs the events', 'timeseries', { filter: sessionFilters, period: 'today' }, null, '2026-03-19', sources(null, today)],
    ['session rows written from a day inside the period: events answer it all', 'stats', { filter: sessionFilters }, '2026-01-10', '2026-03-19', sources(null, ['2025-12-21', '2026-03-20'])],
    ['session rows written from the first day read', 'stats', { filter: sessionFilters }, '2025-12-21', '2026-03-19', sources(null, today, window)],
    ['no rollups yet', 'stats', { filter: sessionFilters }, null, null, sources(null, ['2025-12-21', '2026-03-20'])],
    ['the watermark two days back', 'stats', { filter: sessionFilters }, null, '2026-03-18', sources(null, ['2026-03-19', '2026-03-20'], ['2025-12-21', '2026-03-18'])],
  ];
  for (const [what, kind, params, sessionRowsFrom, watermark, expected] of cases) {
    assert.deepEqual(at(kind, params, sessionRowsFrom, watermark).period, expected, what);
  }
  // A year read from session rows is a long read like one from raw events.
  assert.equal(isLongRead(at('stats', { filter: sessionFilters })), true);
  assert.equal(at('stats', { filter: sessionFilters, period: '7d', comparison: 'off' }).detailDaysRead, 7);
  // One filter or none: rollups, whatever the session rows.
  assert.equal(at('breakdown', { filter: 'country:FR', dimension: 'country' }).period.sessions, null);
});

test('pair months answer the whole months from the first day of a breakdown under one session-scoped filter of few keys; the rest as planned', () => {
  // The raw window holds 2025-01-01 on (rawDays 500); pair months are written for the months of `written`.
  const at = (params: RawParams, written: string[] | undefined = ['2026-01-01', '2026-02-01'], retentionMonths: number | null = null) =>
    planQuery(parseQuery('breakdown', { period: 'year', ...params }, SITE, NOW), { watermark: '2026-03-19', retentionMonths, rawDays: 500, pairMonths: written }).plan;
  const split = (params: RawParams, written?: string[], retentionMonths?: number | null) => at(params, written, retentionMonths).breakdownPairs;
  const rest = sources(null, ['2026-03-01', '2026-03-20']);
  assert.deepEqual(split({ filter: 'country:FR', dimension: 'event' }), { months: { from: '2026-01-01', to: '2026-02-01' }, rest }, 'an event-scoped dimension under a session filter');
  assert.deepEqual(split({ filter: 'utm_campaign:spring', dimension: 'page' }), { months: { from: '2026-01-01', to: '2026-02-01' }, rest }, 'pages');
  assert.deepEqual(split({ filter: 'country:FR', dimension: 'referrer' }), { months: { from: '2026-01-01', to: '2026-02-01' }, rest: sources(null, ['2026-03-20', '2026-03-20'], ['2026-03-01', '2026-03-19']) }, 'session rows after the months');
  assert.deepEqual(split({ filter: 'device:mobile', dimension: 'country' }, ['2026-01-01', '2026-03-01'])?.months, { from: '2026-01-01', to: '2026-01-01' }, 'months one after another from the first');
  const none: Array<[string, RawParams, string[]?, number?]> = [
    ['a month not written first', { filter: 'country:FR', dimension: 'event' }, ['2026-02-01']],
    ['no month written', { filter: 'country:FR', dimension: 'event' }, []],
    ['a period that starts within a month', { filter: 'country:FR', dimension: 'event', from: '2026-01-02', to: '2026-03-20' }],
    ['retention cuts the first month', { filter: 'country:FR', dimension: 'event', from: '2025-12-01', to: '2026-03-20' }, ['2025-12-01', '2026-01-01'], 3],
    ['an event-scoped filter', { filter: 'event:signup', dimension: 'country' }],
    ['an entry page filter (keys by the thousand)', { filter: 'entry:/', dimension: 'browser' }],
    ['a city filter (keys by the thousand)', { filter: 'city:Paris', dimension: 'browser' }],
    ['a referrer filter', { filter: 'referrer:google.com', dimension: 'browser' }],
    ['a tab after the first of its panel', { filter: 'country:FR', dimension: 'os' }],
    ['a property breakdown', { filter: 'country:FR', dimension: 'prop.plan' }],
    ['two filters', { filter: ['country:FR', 'device:mobile'], dimension: 'event' }],
    ['several values', { filter: 'country:FR|DE', dimension: 'event' }],
    ['is not', { filter: 'country!:FR', dimension: 'event' }],
    ['the filter on (other)', { filter: 'country:(other)', dimension: 'event' }],
    ['visits under an event-scoped breakdown', { filter: 'country:FR', dimension: 'event', include: 'bounceRate', raw: 'clip' }],
  ];
  for (const [what, params, written, retention] of none) assert.equal(split(params, written, retention ?? null), null, what);
  // The filter's own dimension reads rollups, as does no filter.
  assert.equal(at({ filter: 'country:FR', dimension: 'country' }).breakdownPairs, null);
  assert.equal(at({ dimension: 'event' }).breakdownPairs, null);
  // The period's own sources are left as they are (scroll depth and vitals read them).
  assert.deepEqual(at({ filter: 'country:FR', dimension: 'event' }).period, sources(null, ['2026-01-01', '2026-03-20']));
  // Only the days after the months are detail days: a year of a few months' rows is no long read.
  assert.equal(at({ filter: 'country:FR', dimension: 'event' }).detailDaysRead, 20);
  assert.equal(isLongRead(at({ filter: 'country:FR', dimension: 'event' })), false);
  assert.equal(isLongRead(at({ filter: 'country:FR', dimension: 'event' }, [])), true);
});

test("a raw-path breakdown's and goals read's period visitors: from rollups where they answer its filters alone, else from the period's own days", () => {
  const at = (params: RawParams, inputs: { watermark?: string | null; firstFoldedDay?: string | null; importedDays?: { from: string; to: string } } = {}) =>
    planQuery(parseQuery('breakdown', { period: '90d', ...params }, SITE, NOW), { watermark: '2026-03-19', retentionMonths: null, rawDays: 90, sessionRowsFrom: null, ...inputs }).plan;
  const window: [string, string] = ['2025-12-21', '2026-03-19'];
  const today: [string, string] = ['2026-03-20', '2026-03-20'];
  const cases: Array<[string, RawParams, Parameters<typeof at>[1], DaySources, DaySources]> = [
    ['one filter, pages broken down: rows from raw events, visitors from rollups', { filter: 'country:FR', dimension: 'page' }, {}, sources(null, ['2025-12-21', '2026-03-20']), sources(window, today)],
    ['a session-scoped breakdown: rows from session rows, visitors from rollups', { filter: 'country:FR', dimension: 'referrer' }, {}, sources(null, today, window), sources(window, today)],
    ['an event-scoped filter', { filter: 'page:/docs', dimension: 'country' }, {}, sources(null, ['2025-12-21', '2026-03-20']), sources(window, today)],
    ['the key folded on the 10th: raw events from then on', { filter: 'country:FR', dimension: 'page' }, { firstFoldedDay: '2026-03-10' }, sources(null, ['2025-12-21', '2026-03-20']), sources(['2025-12-21', '2026-03-09'], ['2026-03-10', '2026-03-20'])],
    ['imported days left out, as the rows leave them out', { filter: 'country:FR', dimension: 'page' }, { importedDays: { from: '2025-06-01', to: '2026-01-31' } }, sources(null, ['2025-12-21', '2026-03-20']), sources(window, today)],
    ['no rollups yet', { filter: 'country:FR', dimension: 'page' }, { watermark: null }, sources(null, ['2025-12-21', '2026-03-20']), sources(null, ['2025-12-21', '2026-03-20'])],
  ];
  for (const [what, params, inputs, period, visitors] of cases) {
    const plan = at(params, inputs);
    assert.deepEqual(plan.period, period, what);
    assert.deepEqual(plan.periodVisitors, visitors, what);
  }
  // Filters rollups cannot answer alone: the visitors come from the rows' own sources.
  for (const filter of [['country:FR', 'device:mobile'], 'country!:FR', 'country~:F', 'country:(other)']) {
    const plan = at({ filter, dimension: 'page' });
    assert.deepEqual(plan.periodVisitors, plan.period, JSON.stringify(filter));
  }
  // On the rollup path, the period's own days.
  const rolledUp = at({ filter: 'country:FR', dimension: 'country' });
  assert.deepEqual(rolledUp.periodVisitors, rolledUp.period);
  // The goals read's visitors (its conversion rates' base): from rollups under a filter the stats count from them.
  const goals = (filter: string | string[]) =>
    planQuery(parseQuery('goals', { period: '90d', filter, raw: 'clip' }, SITE, NOW, [], { filteredGoals: true }), { watermark: '2026-03-19', retentionMonths: null, rawDays: 90, sessionRowsFrom: null }).plan;
  assert.deepEqual(goals('country:FR').periodVisitors, sources(window, today), 'one session filter');
  for (const filter of ['page:/docs', ['country:FR', 'device:mobile'], 'country!:FR', 'country:(other)']) {
    const plan = goals(filter);
    assert.deepEqual(plan.periodVisitors, plan.period, `goals under ${JSON.stringify(filter)}`);
  }
});

test('journeys: session paths answer up to the watermark where every filter is a carried key, a page or none, the day after the period included; raw events the rest', () => {
  const at = (params: RawParams, sessionPathsFrom: string | null = null, watermark: string | null = '2026-03-19') =>
    planQuery(parseQuery('journeys', { from: '2026-03-01', to: '2026-03-18', ...params }, SITE, NOW), { watermark, retentionMonths: null, rawDays: 90, sessionPathsFrom }).plan.journeyDays;
  const starts = { from: '2026-03-01', to: '2026-03-18' };
  const rawAlone = { starts, paths: null, raw: { from: '2026-03-01', to: '2026-03-19' } };
  const cases: Array<[string, RawParams, string | null, string | null, unknown]> = [
    ['no filter: the day after the period from session paths too', {}, null, '2026-03-19', { starts, paths: { from: '2026-03-01', to: '2026-03-19' }, raw: null }],
    ['carried keys, is not and contains', { filter: ['country!:FR', 'browser~:fire', 'entry:/'] }, null, '2026-03-19', { starts, paths: { from: '2026-03-01', to: '2026-03-19' }, raw: null }],
    ['the period ends on the watermark: the day after from raw events', {}, null, '2026-03-18', { starts, paths: { from: '2026-03-01', to: '2026-03-18' }, raw: { from: '2026-03-19', to: '2026-03-19' } }],
    ['the watermark inside the period', {}, null, '2026-03-10', { starts, paths: { from: '2026-03-01', to: '2026-03-10' }, raw: { from: '2026-03-11', to: '2026-03-19' } }],
    ['a page and a carried key: session paths too', { page: '/', direction: 'previous', filter: ['country:FR'] }, null, '2026-03-19', { starts, paths: { from: '2026-03-01', to: '2026-03-19' }, raw: null }],
    ['the exit page is derived per session: raw events', { filter: ['exit:/'] }, null, '2026-03-19', rawAlone],
    ['an event-scoped filter: raw events', { filter: ['event:signup'] }, null, '2026-03-19', rawAlone],
    ['session paths written from a day inside the period: raw events', {}, '2026-03-05', '2026-03-19', rawAlone],
    ['no rollups yet', {}, null, null, rawAlone],
  ];
  for (const [what, params, sessionPathsFrom, watermark, expected] of cases) assert.deepEqual(at(params, sessionPathsFrom, watermark), expected, what);
  assert.equal(planQuery(parseQuery('stats', { period: '7d' }, SITE, NOW), { watermark: null, retentionMonths: null, rawDays: 30 }).plan.journeyDays, null);
});

test("a shared link's page pattern: raw events on every day read, within the raw window, or refused naming the pattern", () => {
  const locked = (kind: QueryKind, params: RawParams, filters: string[] = ['page:/blog/**']) =>
    planQuery(parseQuery(kind, params, SITE, NOW, filters), { watermark: '2026-03-19', retentionMonths: null, rawDays: 30, sessionRowsFrom: null });
  const raw30: [string, string] = ['2026-02-19', '2026-03-20'];
  const cases: Array<[string, QueryKind, RawParams, DaySources]> = [
    ['stats', 'stats', { period: '30d' }, sources(null, raw30)],
    ['a breakdown of its own dimension', 'breakdown', { period: '30d', dimension: 'page' }, sources(null, raw30)],
    ['with a session filter, still no session rows (they hold no page)', 'stats', { period: '30d', filter: 'country:FR' }, sources(null, raw30)],
    ['a daily timeseries', 'timeseries', { period: '30d' }, sources(null, raw30)],
  ];
  for (const [what, kind, params, expected] of cases) {
    const planned = locked(kind, params);
    assert.equal(planned.plan.path, 'raw', what);
    assert.deepEqual(planned.plan.period, expected, what);
  }
  // A literal page is the read API's exact filter, which rollups answer.
  assert.equal(locked('stats', { period: 'year' }, ['page:/blog/a']).plan.path, 'rollup');
  for (const params of [{ period: '90d' }, { from: '2026-02-18', to: '2026-03-01' }]) {
    assert.throws(() => locked('stats', params), { code: 'RAW_WINDOW_EXCEEDED', message: 'a page pattern (this shared link is limited to matching pages) needs a period within the last 30 days' });
  }
  // Imported aggregates hold each page's own figures, as rollups do: a pattern leaves them out, and says so.
  const imported = planQuery(parseQuery('stats', { period: '30d' }, SITE, NOW, ['page:/blog/**']), {
    watermark: '2026-03-19',
    retentionMonths: null,
    rawDays: 30,
    importedDays: { from: '2026-03-01', to: '2026-03-05' },
  }).plan;
  assert.deepEqual([imported.imported, imported.period.imported], ['excluded', null]);
});

test('imported aggregates: read where they answer exactly, left out otherwise, and the plan says which', () => {
  const held = { from: '2025-01-01', to: '2025-12-31' };
  const at = (kind: QueryKind, params: RawParams, importedDays: { from: string; to: string } | null = held, retentionMonths: number | null = null) =>
    planQuery(parseQuery(kind, params, SITE, NOW), { watermark: '2026-03-19', retentionMonths, rawDays: 30, importedDays }).plan;
  const lastYear = { from: '2025-06-01', to: '2026-01-31' };
  const cases: Array<[string, QueryKind, RawParams, 'included' | 'excluded' | 'none', [string, string] | null]> = [
    ['stats, no filter', 'stats', lastYear, 'included', ['2025-06-01', '2025-12-31']],
    ['stats, one filter', 'stats', { ...lastYear, filter: 'page:/pricing' }, 'included', ['2025-06-01', '2025-12-31']],
    ['daily timeseries', 'timeseries', lastYear, 'included', ['2025-06-01', '2025-12-31']],
    ['monthly timeseries', 'timeseries', { ...lastYear, grain: 'month' }, 'included', ['2025-06-01', '2025-12-31']],
    ['breakdown', 'breakdown', { ...lastYear, dimension: 'referrer' }, 'included', ['2025-06-01', '2025-12-31']],
    ['breakdown of the filter own dimension', 'breakdown', { ...lastYear, dimension: 'country', filter: 'country:FR' }, 'included', ['2025-06-01', '2025-12-31']],
    ['goals', 'goals', lastYear, 'included', ['2025-06-01', '2025-12-31']],
    ['hourly timeseries', 'timeseries', { from: '2025-12-30', to: '2025-12-31', grain: 'hour' }, 'excluded', null],
    ['funnel', 'funnel', lastYear, 'excluded', null],
    ['a period after the imported days', 'stats', { period: '7d' }, 'none', null],
    ['a period before them', 'stats', { from: '2024-01-01', to: '2024-01-31', comparison: 'off' }, 'none', null],
  ];
  for (const [what, kind, params, answer, period] of cases) {
    const plan = at(kind, params);
    assert.equal(plan.imported, answer, what);
    assert.deepEqual(plan.period.imported, period && { from: period[0], to: period[1] }, what);
  }
  // Two filters, or a filter with another dimension's breakdown, need raw events: inside the raw
  // window only, which a site's imported days may reach when the import is recent.
  const recent = { from: '2026-02-20', to: '2026-03-01' };
  assert.equal(at('stats', { period: '30d', filter: ['country:FR', 'page:/'] }, recent).imported, 'excluded');
  assert.equal(at('breakdown', { period: '30d', dimension: 'page', filter: 'country:FR' }, recent).imported, 'excluded');
  assert.equal(at('breakdown', { period: '30d', dimension: 'page', filter: 'country:FR' }, recent).period.imported, null);
  // The compared period reads them too, and says so though the period itself holds none.
  const compared = at('stats', { from: '2026-01-01', to: '2026-01-31', comparison: 'year' });
  assert.equal(compared.imported, 'included');
  assert.deepEqual(compared.previous.imported, { from: '2025-01-01', to: '2025-01-31' });
  assert.equal(compared.previousComplete, true);
  // No imported data at all, and retention that has cut them away: none.
  assert.equal(at('stats', lastYear, null).imported, 'none');
  assert.equal(at('stats', { from: '2025-01-01', to: '2026-03-20' }, held, 1).imported, 'none');
  assert.equal(at('stats', { from: '2025-01-01', to: '2026-03-20' }, held, 1).period.imported, null);
  // A breakdown reads the whole months of its imported days from their monthly sums.
  // Whole months of the period, though the imported days end in December: their sums hold only those.
  assert.deepEqual(at('breakdown', { ...lastYear, dimension: 'page' }).importedMonths, {
    head: null,
    months: { from: '2025-06-01', to: '2026-01-01' },
    tail: null,
  });
  assert.deepEqual(at('breakdown', { from: '2025-11-15', to: '2026-01-20', dimension: 'page' }).importedMonths, {
    head: { from: '2025-11-15', to: '2025-11-30' },
    months: { from: '2025-12-01', to: '2025-12-01' },
    tail: { from: '2026-01-01', to: '2026-01-20' },
  });
  // Retention cuts the period first: a month it cuts into is read by day.
  assert.deepEqual(at('breakdown', { from: '2025-01-01', to: '2025-12-31', dimension: 'page' }, held, 14).importedMonths, {
    head: { from: '2025-01-20', to: '2025-01-31' },
    months: { from: '2025-02-01', to: '2025-12-01' },
    tail: null,
  });
  assert.equal(at('breakdown', { period: '7d', dimension: 'page' }).importedMonths, null, 'no imported day in the period');
  assert.equal(at('stats', lastYear).importedMonths, null);
  // Days read from imported aggregates are computable: a period that holds only them has figures.
  assert.equal(at('stats', { from: '2025-03-01', to: '2025-03-31' }).period.firstComputable, '2025-03-01');
});

test('custom properties: event-scoped like page; a filter on (none) reads raw events only, within the raw window', () => {
  const paths: Array<[QueryKind, RawParams, 'rollup' | 'raw']> = [
    ['breakdown', { period: 'year', dimension: 'prop.plan' }, 'rollup'],
    ['breakdown', { period: 'year', dimension: 'prop.plan', filter: 'prop.plan:pro' }, 'rollup'],
    ['stats', { period: 'year', filter: 'prop.plan:pro' }, 'rollup'],
    ['timeseries', { period: '90d', filter: 'prop.plan:pro' }, 'rollup'],
    ['breakdown', { period: '30d', dimension: 'page', filter: 'prop.plan:pro' }, 'raw'],
    ['breakdown', { period: '30d', dimension: 'prop.plan', filter: 'country:FR' }, 'raw'],
    ['breakdown', { period: '30d', dimension: 'prop.plan', filter: 'prop.seats:3' }, 'raw'],
    ['stats', { period: '30d', filter: 'prop.plan:(none)' }, 'raw'],
  ];
  for (const [kind, params, path] of paths) assert.equal(plan(kind, params).plan.path, path, `${kind} ${JSON.stringify(params)}`);
  // Never from session rows, which hold no property.
  assert.deepEqual(plan('breakdown', { period: '30d', dimension: 'prop.plan', filter: 'country:FR' }).plan.period, sources(null, ['2026-02-19', '2026-03-20']));
  const refusals: Array<[QueryKind, RawParams, string | undefined]> = [
    ['stats', { period: 'year', filter: 'prop.plan:(none)' }, 'RAW_WINDOW_EXCEEDED'],
    ['breakdown', { period: '90d', dimension: 'prop.plan', filter: 'page:/' }, 'RAW_WINDOW_EXCEEDED'],
    ['timeseries', { metric: 'bounceRate', filter: 'prop.plan:pro' }, 'METRIC_NOT_FILTERABLE'],
    ['timeseries', { metric: 'pageviews', filter: 'prop.plan:pro' }, undefined],
  ];
  for (const [kind, params, code] of refusals) assert.equal(errorCode(() => plan(kind, params)), code, `${kind} ${JSON.stringify(params)}`);
  assert.throws(() => plan('stats', { period: 'year', filter: 'prop.plan:(none)' }), /prop.<key>:\(none\) .* within the last 30 days/);
});

test('raw=clip: a raw read past the window reads the period from the window on, compared with the days right before', () => {
  const twoFilters = ['country:FR', 'page:/'];
  // [kind, params, rawDays, the period read, the compared period, whether it is complete]
  const cases: Array<[QueryKind, RawParams, number, string, string, boolean]> = [
    ['stats', { period: '90d', filter: twoFilters }, 30, '2026-02-19..2026-03-20', '2026-01-20..2026-02-18', false],
    ['stats', { period: 'year', filter: twoFilters }, 60, '2026-01-20..2026-03-20', '2025-11-21..2026-01-19', false],
    ['stats', { period: '90d', filter: twoFilters, comparison: 'year' }, 30, '2026-02-19..2026-03-20', '2026-01-20..2026-02-18', false],
    ['breakdown', { period: 'last_month', dimension: 'page', filter: 'country:FR' }, 30, '2026-02-19..2026-02-28', '2026-02-09..2026-02-18', false],
    ['timeseries', { from: '2026-01-01', to: '2026-03-20', filter: twoFilters, compare: 'true' }, 30, '2026-02-19..2026-03-20', '2026-01-20..2026-02-18', false],
  ];
  for (const [kind, params, rawDays, read, compared, complete] of cases) {
    const q = plan(kind, { ...params, raw: 'clip' }, '2026-03-19', null, rawDays);
    const label = JSON.stringify(params);
    assert.equal(`${q.period.from}..${q.period.to}`, read, label);
    assert.equal(`${q.previous.from}..${q.previous.to}`, compared, label);
    assert.equal(q.plan.previousComplete, complete, label);
    assert.equal(q.plan.clippedFrom, parseQuery(kind, params, SITE, NOW).period.from, label);
    assert.equal(q.grain, 'day', label);
    assert.equal(q.plan.period.firstComputable, q.period.from, label);
  }
  // Within the window, or without raw=clip, nothing changes.
  assert.equal(plan('stats', { period: '7d', filter: twoFilters, raw: 'clip' }).plan.clippedFrom, null);
  assert.equal(plan('stats', { period: 'year', raw: 'clip' }).plan.clippedFrom, null, 'a rollup read is never clipped');
  assert.equal(errorCode(() => plan('stats', { period: '90d', filter: twoFilters })), 'RAW_WINDOW_EXCEEDED');
  // No day of the period inside the window: refused as before.
  assert.equal(errorCode(() => plan('stats', { from: '2025-01-01', to: '2025-01-31', filter: twoFilters, raw: 'clip' })), 'RAW_WINDOW_EXCEEDED');
  // raw takes one value, on the kinds that read filters.
  assert.equal(errorCode(() => plan('stats', { period: '7d', raw: 'all' })), 'INVALID_PARAMS');
  assert.equal(errorCode(() => plan('goals', { period: '7d', raw: 'clip' })), 'INVALID_PARAMS');
});

test('raw=clip: visits under event filters read raw events, where the per-session figures are read; session filters keep their sources', () => {
  // [kind, params, whether the read counts visits (the raw path)]
  const cases: Array<[QueryKind, RawParams, boolean]> = [
    ['stats', { period: '7d', filter: 'page:/' }, true],
    ['stats', { period: '7d', filter: 'prop.plan:pro' }, true],
    ['stats', { period: '7d', filter: 'country:FR' }, false],
    ['stats', { period: '7d' }, false],
    ['timeseries', { period: '7d', filter: 'event:signup', metric: 'sessions' }, true],
    ['timeseries', { period: '7d', filter: 'page:/', metric: 'visitors' }, false],
    ['breakdown', { period: '7d', dimension: 'page', include: 'bounceRate' }, true],
    ['breakdown', { period: '7d', dimension: 'page', include: 'timeOnPage' }, true],
    ['breakdown', { period: '7d', dimension: 'page' }, false],
    ['breakdown', { period: '7d', dimension: 'country', include: 'avgDuration', filter: 'country:FR' }, false],
  ];
  for (const [kind, params, visits] of cases) {
    const label = JSON.stringify(params);
    const q = plan(kind, { ...params, raw: 'clip' });
    assert.equal(q.plan.visits, visits, label);
    assert.equal(q.plan.path, visits ? 'raw' : 'rollup', label);
    // The base API's requests never count visits: sessions refused under filters, bounce rate under event filters.
    if (kind === 'stats') assert.equal(plan(kind, params).plan.visits, false, label);
  }
  assert.equal(errorCode(() => plan('timeseries', { period: '7d', filter: 'page:/', metric: 'bounceRate' })), 'METRIC_NOT_FILTERABLE');
  assert.equal(plan('timeseries', { period: '7d', filter: 'page:/', metric: 'bounceRate', raw: 'clip' }).plan.visits, true);
  // The page breakdown's period visitors (its shares) still come from rollups.
  assert.equal(plan('breakdown', { period: '7d', dimension: 'page', include: 'bounceRate', raw: 'clip' }).plan.periodVisitors.rollup !== null, true);
});

test('filters is not (!:) and contains (~:): the raw path, session rows where every filter is session-scoped, within the raw window', () => {
  const paths: Array<[QueryKind, RawParams, 'rollup' | 'raw']> = [
    ['stats', { period: '30d', filter: 'referrer!:(none)' }, 'raw'],
    ['stats', { period: '30d', filter: 'page~:blog' }, 'raw'],
    ['breakdown', { period: '30d', dimension: 'country', filter: 'country!:FR' }, 'raw'],
    ['breakdown', { period: '30d', dimension: 'prop.plan', filter: 'prop.plan~:pro' }, 'raw'],
    ['timeseries', { period: '30d', filter: 'device~:mob' }, 'raw'],
  ];
  for (const [kind, params, path] of paths) assert.equal(plan(kind, params).plan.path, path, `${kind} ${JSON.stringify(params)}`);
  const inputs = { watermark: '2026-03-19', retentionMonths: null, rawDays: 30, sessionRowsFrom: null };
  const sessions = (params: RawParams) => planQuery(parseQuery('stats', { period: '30d', ...params }, SITE, NOW), inputs).plan.period;
  assert.deepEqual(sessions({ filter: 'referrer!:(none)' }), sources(null, ['2026-03-20', '2026-03-20'], ['2026-02-19', '2026-03-19']));
  assert.deepEqual(sessions({ filter: ['country~:r', 'device!:mobile'] }), sources(null, ['2026-03-20', '2026-03-20'], ['2026-02-19', '2026-03-19']));
  assert.deepEqual(sessions({ filter: 'page!:/' }), sources(null, ['2026-02-19', '2026-03-20']));
  // Imported aggregates cannot tell these filters' visitors: left out.
  const imported = planQuery(parseQuery('stats', { period: '30d', filter: 'country!:FR' }, SITE, NOW), { ...inputs, importedDays: { from: '2026-02-01', to: '2026-03-01' } });
  assert.equal(imported.plan.imported, 'excluded');
  for (const filter of ['referrer!:(none)', 'page~:blog', 'prop.plan!:pro']) {
    assert.throws(() => plan('stats', { period: '90d', filter }), { code: 'RAW_WINDOW_EXCEEDED', message: 'a filter with several values, !: (is not) or ~: (contains) needs a period within the last 30 days' });
  }
  assert.throws(() => plan('stats', { period: '90d', filter: ['page~:blog', 'country:FR'] }), { code: 'RAW_WINDOW_EXCEEDED', message: /two or more filters/ });
  assert.equal(errorCode(() => plan('stats', { period: '90d', filter: 'page~:blog' }, '2026-03-19', null, 90)), undefined);
});

test("goals under filters: goal rows and raw events, of whole periods inside the raw window; the goals read's filters an extension", () => {
  const raw = (days: DaySources | null) => days && { rollup: days.rollup, sessions: days.sessions, raw: days.raw, imported: days.imported };
  // The base API's requests (no raw=clip) leave conversions under filters out: no goal days, a conversions timeseries refused.
  assert.equal(plan('stats', { period: '7d', filter: 'country:FR' }).plan.goalSpan, null);
  assert.equal(errorCode(() => plan('timeseries', { period: '7d', metric: 'conversions', filter: 'country:FR' })), 'METRIC_NOT_FILTERABLE');
  // Without filters, the span itself; with raw=clip and one filter: the traffic from rollups, the
  // goals from goal rows up to the watermark (2026-03-19) and raw events after it.
  const unfiltered = plan('stats', { period: '7d' });
  assert.equal(unfiltered.plan.goalSpan, unfiltered.plan.span);
  assert.equal(unfiltered.plan.goalsCompared, true);
  const one = plan('stats', { from: '2026-03-10', to: '2026-03-20', filter: 'country:FR', raw: 'clip' });
  assert.equal(one.plan.path, 'rollup');
  assert.deepEqual(raw(one.plan.goalSpan), { rollup: null, sessions: { from: '2026-02-27', to: '2026-03-19' }, raw: { from: '2026-03-20', to: '2026-03-20' }, imported: null });
  assert.equal(one.plan.goalsCompared, true);
  // Two session filters: session rows answer the traffic, goal rows the goals.
  const two = plan('stats', { from: '2026-03-10', to: '2026-03-19', filter: ['country:FR', 'referrer:(none)'], raw: 'clip' });
  assert.deepEqual(two.plan.span.sessions, { from: '2026-02-28', to: '2026-03-19' });
  assert.deepEqual(raw(two.plan.goalSpan), { rollup: null, sessions: { from: '2026-02-28', to: '2026-03-19' }, raw: null, imported: null });
  // A filter goal rows do not hold (a page, the exit page, an event), or goal rows not yet written for every rolled-up day: raw events alone.
  for (const filter of ['page:/a', 'exit:/a', 'event:signup', 'prop.plan:pro']) {
    assert.deepEqual(raw(plan('stats', { from: '2026-03-10', to: '2026-03-19', filter, raw: 'clip' }).plan.goalSpan), { rollup: null, sessions: null, raw: { from: '2026-02-28', to: '2026-03-19' }, imported: null }, filter);
  }
  const backfilling = { watermark: '2026-03-19', retentionMonths: null, rawDays: 30, goalRowsFrom: '2026-03-01' };
  const stats = (inputs: typeof backfilling) => planQuery(parseQuery('stats', { from: '2026-03-10', to: '2026-03-19', filter: 'country:FR', raw: 'clip' }, SITE, NOW), inputs);
  assert.deepEqual(raw(stats(backfilling).plan.goalSpan)?.sessions, null, 'goal rows missing from 2026-02-28');
  assert.deepEqual(raw(stats({ ...backfilling, goalRowsFrom: '2026-02-28' }).plan.goalSpan)?.sessions, { from: '2026-02-28', to: '2026-03-19' });
  // The compared period outside the window: the period's goals alone, uncompared; the period outside it: none.
  const month = plan('stats', { period: '30d', filter: 'country:FR', raw: 'clip' });
  assert.deepEqual(raw(month.plan.goalSpan), { rollup: null, sessions: { from: month.period.from, to: '2026-03-19' }, raw: { from: '2026-03-20', to: month.period.to }, imported: null });
  assert.equal(month.plan.goalsCompared, false);
  assert.equal(month.plan.goalsSince, null);
  // A period that starts before the window: with raw=clip, its days inside the window, uncompared, and the day they start said; without, none.
  const quarter = plan('stats', { period: '90d', filter: 'country:FR', raw: 'clip' });
  assert.deepEqual(raw(quarter.plan.goalSpan), { rollup: null, sessions: { from: '2026-02-19', to: '2026-03-19' }, raw: { from: '2026-03-20', to: quarter.period.to }, imported: null });
  assert.equal(quarter.plan.goalsSince, '2026-02-19');
  assert.equal(quarter.plan.goalsCompared, false);
  assert.equal(quarter.plan.clippedFrom, null, 'the traffic figures read the whole period from rollups');
  assert.equal(plan('stats', { period: '90d', filter: 'country:FR' }).plan.goalSpan, null);
  // The goals read and a conversions timeseries under a filter are raw-path reads, clipped with
  // raw=clip: goal rows (and session rows for the visitors) answer the rolled-up days where both
  // are written, raw events the rest.
  const goalsRead = (inputs: typeof backfilling) => planQuery(parseQuery('goals', { period: '90d', filter: 'country:FR', raw: 'clip' }, SITE, NOW, [], { filteredGoals: true }), inputs);
  const goals = goalsRead({ ...backfilling, goalRowsFrom: null as unknown as string });
  assert.equal(goals.plan.path, 'raw');
  assert.equal(goals.plan.clippedFrom, '2025-12-21');
  assert.equal(goals.plan.imported === 'included', false);
  assert.deepEqual(goals.plan.period.sessions, { from: '2026-02-19', to: '2026-03-19' });
  assert.equal(goalsRead(backfilling).plan.period.sessions, null, 'goal rows missing from 2026-02-19');
  assert.equal(goalsRead({ ...backfilling, goalRowsFrom: '2026-02-19', sessionRowsFrom: '2026-03-01' } as typeof backfilling).plan.period.sessions, null, 'session rows missing');
  assert.deepEqual(plan('timeseries', { period: '7d', metric: 'conversions', filter: 'country:FR', raw: 'clip' }).plan.span.sessions, { from: '2026-03-07', to: '2026-03-19' });
  assert.equal(plan('timeseries', { period: '7d', metric: 'conversions', filter: 'page:/a', raw: 'clip' }).plan.span.sessions, null, 'goal rows hold no page');
  assert.equal(errorCode(() => parseQuery('goals', { period: '7d', raw: 'clip' }, SITE, NOW)), 'INVALID_PARAMS');
  assert.equal(parseQuery('goals', { period: '7d', raw: 'clip' }, SITE, NOW, [], { filteredGoals: true }).rawClip, true);
});
