// The compared period: the previous one, the same days a year earlier, and the elapsed part of
// either for a period that contains today, across DST changes, month ends, leap days and zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparedPeriod, elapsedPart, yearEarlier } from '../../src/core/period.js';
import { localToEpoch, startOfLocalDay } from '../../src/core/localtime.js';
import { ApiError } from '../../src/core/errors.js';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';

const HOUR = 3_600_000;

test('a year earlier: the same local days, the first day clamped, the same length', () => {
  const cases: Array<[string, string, string, string]> = [
    // from, to → from, to
    ['2026-03-01', '2026-03-31', '2025-03-01', '2025-03-31'],
    ['2024-02-29', '2024-02-29', '2023-02-28', '2023-02-28'],
    ['2024-02-01', '2024-02-29', '2023-02-01', '2023-03-01'],
    ['2025-03-01', '2025-03-31', '2024-03-01', '2024-03-31'],
    ['2024-01-01', '2024-12-31', '2023-01-01', '2024-01-01'],
    ['2026-12-31', '2027-01-01', '2025-12-31', '2026-01-01'],
    ['1971-01-01', '1971-01-07', '1970-01-01', '1970-01-07'],
  ];
  for (const [from, to, pFrom, pTo] of cases) assert.deepEqual(yearEarlier({ from, to }), { from: pFrom, to: pTo }, `${from}..${to}`);
});

test('the compared period of each comparison', () => {
  const p = { from: '2026-03-10', to: '2026-03-16' };
  assert.deepEqual(comparedPeriod(p, 'previous'), { from: '2026-03-03', to: '2026-03-09' });
  assert.deepEqual(comparedPeriod(p, 'year'), { from: '2025-03-10', to: '2025-03-16' });
  assert.equal(comparedPeriod(p, 'off'), null);
});

test('the elapsed part: the same number of begun days, the last up to the same local time of day', () => {
  const cases: Array<{ name: string; zone: string; period: [string, string]; compared: [string, string]; now: [number, number, number, number, number]; to: string; until: [number, number, number, number, number]; share: number }> = [
    // today at 00:10 against yesterday up to 00:10
    { name: 'today', zone: 'Europe/Paris', period: ['2026-05-12', '2026-05-12'], compared: ['2026-05-11', '2026-05-11'], now: [2026, 5, 12, 0, 10], to: '2026-05-11', until: [2026, 5, 11, 0, 10], share: 10 / 1440 },
    // yesterday had 23 hours (spring forward): 12:00 is 11 hours into it
    { name: 'after a DST start', zone: 'Europe/Paris', period: ['2026-03-30', '2026-03-30'], compared: ['2026-03-29', '2026-03-29'], now: [2026, 3, 30, 12, 0], to: '2026-03-29', until: [2026, 3, 29, 12, 0], share: 11 / 23 },
    // yesterday had 25 hours (fall back): 12:00 is 13 hours into it
    { name: 'after a DST end', zone: 'America/New_York', period: ['2026-11-02', '2026-11-02'], compared: ['2026-11-01', '2026-11-01'], now: [2026, 11, 2, 12, 0], to: '2026-11-01', until: [2026, 11, 1, 12, 0], share: 13 / 25 },
    // this month on its 3rd day against the previous 31 days' first 3
    { name: 'this month', zone: 'Asia/Kathmandu', period: ['2026-03-01', '2026-03-03'], compared: ['2026-01-29', '2026-02-28'], now: [2026, 3, 3, 18, 0], to: '2026-01-31', until: [2026, 1, 31, 18, 0], share: 0.75 },
    // this year on 29 February against the same days a year earlier
    { name: 'a leap day', zone: 'America/St_Johns', period: ['2024-01-01', '2024-02-29'], compared: ['2023-01-01', '2023-03-01'], now: [2024, 2, 29, 6, 0], to: '2023-03-01', until: [2023, 3, 1, 6, 0], share: 0.25 },
    // 30 days that end today
    { name: '30d', zone: 'UTC', period: ['2026-04-02', '2026-05-01'], compared: ['2026-03-03', '2026-04-01'], now: [2026, 5, 1, 23, 59], to: '2026-04-01', until: [2026, 4, 1, 23, 59], share: 1439 / 1440 },
  ];
  for (const c of cases) {
    const now = localToEpoch(...c.now, c.zone);
    const part = elapsedPart({ from: c.period[0], to: c.period[1] }, { from: c.compared[0], to: c.compared[1] }, now, c.zone);
    assert.ok(part, c.name);
    assert.deepEqual(part.period, { from: c.compared[0], to: c.to }, c.name);
    assert.equal(part.cut.day, c.to, c.name);
    assert.equal(part.cut.until, localToEpoch(...c.until, c.zone), c.name);
    assert.ok(Math.abs(part.cut.share - c.share) < 1e-9, `${c.name}: share ${part.cut.share}`);
  }
});

test('the elapsed part: a period that is over or has not begun is compared whole; a skipped wall time is cut after the gap', () => {
  const zone = 'Europe/Paris';
  const now = localToEpoch(2026, 5, 12, 9, 0, zone);
  assert.equal(elapsedPart({ from: '2026-05-11', to: '2026-05-11' }, { from: '2026-05-10', to: '2026-05-10' }, now, zone), null);
  assert.equal(elapsedPart({ from: '2026-05-13', to: '2026-05-20' }, { from: '2026-05-05', to: '2026-05-12' }, now, zone), null);
  // 02:30 on 30 March against 29 March, whose 02:00-03:00 does not exist: cut at 03:00 local.
  const part = elapsedPart({ from: '2026-03-30', to: '2026-03-30' }, { from: '2026-03-29', to: '2026-03-29' }, localToEpoch(2026, 3, 30, 2, 30, zone), zone);
  assert.equal(part?.cut.until, startOfLocalDay('2026-03-29', zone) + 2 * HOUR);
});

const SITE = { id: 's1', timezone: 'Europe/Paris' };
const NOW = Date.UTC(2026, 4, 12, 10, 30); // 12:30 in Paris

function parse(kind: 'stats' | 'timeseries', params: RawParams) {
  return parseQuery(kind, params, SITE, NOW);
}

test('parser: comparison and elapsed, their defaults and refusals', () => {
  const plain = parse('stats', { period: 'today' });
  assert.equal(plain.comparison, 'previous');
  assert.deepEqual(plain.previous, { from: '2026-05-11', to: '2026-05-11' });
  assert.equal(plain.previousCut, null);
  assert.deepEqual(parse('stats', { period: '7d', comparison: 'year' }).previous, { from: '2025-05-06', to: '2025-05-12' });
  assert.deepEqual(parse('timeseries', { period: 'month', comparison: 'year', compare: 'true' }).previous, { from: '2025-05-01', to: '2025-05-12' });
  const elapsed = parse('stats', { period: 'today', elapsed: 'true' });
  assert.deepEqual(elapsed.previous, { from: '2026-05-11', to: '2026-05-11' });
  assert.deepEqual(elapsed.previousCut, { day: '2026-05-11', until: Date.UTC(2026, 4, 11, 10, 30), share: 12.5 / 24 });
  assert.equal(parse('stats', { period: 'today', elapsed: 'true', comparison: 'off' }).previousCut, null);
  // timeseries take no elapsed part: its prev is a series, bucket against bucket
  assert.equal(parse('timeseries', { period: 'today', elapsed: 'true' }).previousCut, null);
  const refusals: Array<[RawParams, 'stats' | 'timeseries', string]> = [
    [{ comparison: 'lastyear' }, 'stats', 'comparison must be one of previous, year, off'],
    [{ comparison: ['year', 'off'] }, 'stats', 'comparison must be given at most once'],
    [{ elapsed: 'yes' }, 'stats', 'elapsed must be true or false'],
    [{ comparison: 'off', compare: 'true' }, 'timeseries', 'compare=true needs a compared period; comparison is off'],
  ];
  for (const [params, kind, message] of refusals) {
    assert.throws(() => parse(kind, params), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_PARAMS' && e.message === message, JSON.stringify(params));
  }
});

test('planner: the compared period read, nothing under off, the cut day from raw events inside their window', () => {
  const inputs = { watermark: '2026-05-11', retentionMonths: null, rawDays: 30 };
  const off = planQuery(parse('stats', { period: '7d', comparison: 'off' }), inputs);
  assert.deepEqual(off.plan.previous, { rollup: null, sessions: null, raw: null, imported: null, firstComputable: null });
  assert.deepEqual(off.plan.span, off.plan.period);
  assert.equal(off.plan.previousComplete, false);
  const year = planQuery(parse('stats', { period: '7d', comparison: 'year' }), inputs);
  assert.deepEqual(year.plan.previous.rollup, { from: '2025-05-06', to: '2025-05-12' });
  assert.equal(year.plan.previousComplete, true);
  assert.deepEqual(year.plan.span.rollup, { from: '2025-05-06', to: '2026-05-11' });
  assert.equal(planQuery(parse('stats', { period: 'today', elapsed: 'true' }), inputs).plan.previousCut, 'raw');
  assert.equal(planQuery(parse('stats', { period: 'today', elapsed: 'true', comparison: 'year' }), inputs).plan.previousCut, 'share');
  assert.equal(planQuery(parse('stats', { period: 'today' }), inputs).plan.previousCut, null);
  // the filters' raw path cannot reach a year back: no previous value
  const raw = planQuery(parse('stats', { period: '7d', comparison: 'year', filter: ['page:/a', 'country:FR'] }), inputs);
  assert.equal(raw.plan.previousComplete, false);
});
