// Periods, grains and buckets in zones with 30- and 45-minute offsets and on DST days.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMonths, dayBuckets, grainFor, hourBuckets, presetPeriod, previousPeriod } from '../../src/core/period.js';
import { resolvePeriod } from '../../src/core/query.js';
import { PRESETS } from '../../src/core/vocabulary.js';
import { localParts, startOfLocalDay } from '../../src/core/localtime.js';
import { ApiError } from '../../src/core/errors.js';
import { parseQuery } from '../../src/core/query.js';

const HOUR = 3_600_000;

test('hour buckets follow the local wall clock', () => {
  const cases: Array<[string, string, number, number]> = [
    // zone, day, bucket count, UTC instant of local midnight
    ['Asia/Kathmandu', '2026-03-20', 24, Date.UTC(2026, 2, 19, 18, 15)],
    ['Asia/Kolkata', '2026-03-20', 24, Date.UTC(2026, 2, 19, 18, 30)],
    ['America/St_Johns', '2026-01-15', 24, Date.UTC(2026, 0, 15, 3, 30)],
    ['America/St_Johns', '2026-03-08', 23, Date.UTC(2026, 2, 8, 3, 30)],
    ['America/St_Johns', '2026-11-01', 25, Date.UTC(2026, 10, 1, 2, 30)],
    ['Europe/Paris', '2026-03-29', 23, Date.UTC(2026, 2, 28, 23)],
    ['Europe/Paris', '2026-10-25', 25, Date.UTC(2026, 9, 24, 22)],
    ['America/New_York', '2026-03-08', 23, Date.UTC(2026, 2, 8, 5)],
    ['America/New_York', '2026-11-01', 25, Date.UTC(2026, 10, 1, 4)],
  ];
  for (const [zone, day, count, midnight] of cases) {
    const { starts, end } = hourBuckets({ from: day, to: day }, zone);
    assert.equal(starts.length, count, `${zone} ${day}`);
    assert.equal(starts[0], midnight, `${zone} ${day} first bucket`);
    assert.equal(end, midnight + count * HOUR, `${zone} ${day} end`);
    for (let i = 1; i < starts.length; i++) assert.equal(starts[i]! - starts[i - 1]!, HOUR, `${zone} ${day} step ${i}`);
    for (const t of starts) assert.equal(localParts(t, zone).minute, 0, `${zone}: buckets start on local hours`);
  }
  // The repeated hour gives two buckets with the same local hour and distinct t.
  const paris = hourBuckets({ from: '2026-10-25', to: '2026-10-25' }, 'Europe/Paris').starts;
  assert.deepEqual(paris.map((t) => localParts(t, 'Europe/Paris').hour).slice(0, 5), [0, 1, 2, 2, 3]);
  const newYork = hourBuckets({ from: '2026-03-08', to: '2026-03-08' }, 'America/New_York').starts;
  assert.deepEqual(newYork.map((t) => localParts(t, 'America/New_York').hour).slice(0, 4), [0, 1, 3, 4], 'the skipped hour has no bucket');
  assert.equal(hourBuckets({ from: '2026-03-28', to: '2026-03-29' }, 'Europe/Paris').starts.length, 47);
});

test('day, week and month buckets start at local midnight of their day, Monday or 1st', () => {
  const kathmandu = dayBuckets({ from: '2026-03-18', to: '2026-03-20' }, 'day', 'Asia/Kathmandu');
  assert.deepEqual(kathmandu.map((b) => b.t), [17, 18, 19].map((d) => Date.UTC(2026, 2, d, 18, 15)));
  const ny = dayBuckets({ from: '2026-03-07', to: '2026-03-09' }, 'day', 'America/New_York');
  assert.deepEqual(ny.map((b) => b.t), [Date.UTC(2026, 2, 7, 5), Date.UTC(2026, 2, 8, 5), Date.UTC(2026, 2, 9, 4)]);
  const weeks = dayBuckets({ from: '2026-03-04', to: '2026-03-20' }, 'week', 'Asia/Kolkata');
  assert.deepEqual(
    weeks.map((b) => [b.t, b.from, b.to]),
    [
      [Date.UTC(2026, 2, 1, 18, 30), '2026-03-04', '2026-03-08'],
      [Date.UTC(2026, 2, 8, 18, 30), '2026-03-09', '2026-03-15'],
      [Date.UTC(2026, 2, 15, 18, 30), '2026-03-16', '2026-03-20'],
    ],
  );
  const months = dayBuckets({ from: '2025-10-15', to: '2026-01-02' }, 'month', 'America/St_Johns');
  assert.deepEqual(
    months.map((b) => [b.t, b.from, b.to]),
    [
      [startOfLocalDay('2025-10-01', 'America/St_Johns'), '2025-10-15', '2025-10-31'],
      [Date.UTC(2025, 10, 1, 2, 30), '2025-11-01', '2025-11-30'],
      [Date.UTC(2025, 11, 1, 3, 30), '2025-12-01', '2025-12-31'],
      [Date.UTC(2026, 0, 1, 3, 30), '2026-01-01', '2026-01-02'],
    ],
  );
  assert.equal(months[0]!.t, Date.UTC(2025, 9, 1, 2, 30));
});

test('grain by local days', () => {
  const cases: Array<[string, string, string]> = [
    ['2026-03-20', '2026-03-20', 'hour'],
    ['2026-03-28', '2026-03-29', 'hour'],
    ['2026-03-18', '2026-03-20', 'day'],
    ['2025-12-21', '2026-03-20', 'day'],
    ['2025-12-20', '2026-03-20', 'week'],
    ['2025-03-20', '2026-03-20', 'week'],
    ['2025-03-19', '2026-03-20', 'month'],
  ];
  for (const [from, to, grain] of cases) assert.equal(grainFor({ from, to }), grain, `${from}..${to}`);
});

test('presets, previous periods and month arithmetic', () => {
  assert.deepEqual(presetPeriod('last_month', '2026-01-15'), { from: '2025-12-01', to: '2025-12-31' });
  assert.deepEqual(presetPeriod('last_month', '2024-03-31'), { from: '2024-02-01', to: '2024-02-29' });
  assert.deepEqual(presetPeriod('year', '2026-03-20'), { from: '2026-01-01', to: '2026-03-20' });
  assert.deepEqual(presetPeriod('7d', '2026-03-02'), { from: '2026-02-24', to: '2026-03-02' });
  for (const preset of PRESETS) {
    const p = presetPeriod(preset, '2026-03-20', '2025-06-01');
    const prev = previousPeriod(p);
    assert.ok(prev.to < p.from);
  }
  assert.deepEqual(previousPeriod({ from: '2026-03-01', to: '2026-03-31' }), { from: '2026-01-29', to: '2026-02-28' });
  assert.equal(addMonths('2026-03-31', -1), '2026-02-28');
  assert.equal(addMonths('2026-01-31', -13), '2024-12-31');
});

test('period parameters: priority, pairing and validation', () => {
  const code = (params: Record<string, string>) => {
    try {
      resolvePeriod(params, '2026-03-20');
      return 'ok';
    } catch (err) {
      return (err as ApiError).code;
    }
  };
  assert.equal(code({ from: '2026-03-01', to: '2026-03-02', period: 'nonsense' }), 'ok');
  assert.equal(code({ from: '2026-03-01' }), 'INVALID_PARAMS');
  assert.equal(code({ to: '2026-03-01' }), 'INVALID_PARAMS');
  assert.equal(code({ period: 'week' }), 'INVALID_PARAMS');
  assert.equal(code({ from: '2026-3-1', to: '2026-03-02' }), 'INVALID_PARAMS');
  assert.equal(code({ from: '2026-03-02', to: '2026-03-01' }), 'INVALID_PERIOD');
  assert.equal(code({ from: '2026-04-01', to: '2027-04-01' }), 'ok');
});

test('the Query value: today in the site zone, filters, frozen', () => {
  const now = Date.UTC(2026, 2, 20, 20, 0); // already the 21st in Kathmandu
  const q = parseQuery('stats', { period: 'today', filter: ['page:/a:b', 'country:(none)'] }, { id: 's', timezone: 'Asia/Kathmandu' }, now);
  assert.equal(q.today, '2026-03-21');
  assert.deepEqual(q.filters, [
    { dimension: 'page', value: '/a:b', values: ['/a:b'] },
    { dimension: 'country', value: '(none)', values: ['(none)'] },
  ]);
  assert.ok(Object.isFrozen(q) && Object.isFrozen(q.filters) && Object.isFrozen(q.period));
  assert.throws(() => parseQuery('stats', { filter: ['page:/a', 'page:/b'] }, { id: 's', timezone: 'UTC' }, now), { code: 'INVALID_PARAMS' });
  assert.throws(() => parseQuery('stats', {}, { id: 's', timezone: 'Nowhere/Land' }, now), { code: 'INVALID_TIMEZONE' });
});

test('12mo and all: resolved in the site zone, with the grain and previous period of their days', () => {
  // [zone, instant, first day with data, preset, from, to, grain, previous from, previous to]
  const cases: Array<[string, number, string | null, '12mo' | 'all', string, string, string, string, string]> = [
    ['UTC', Date.UTC(2026, 2, 20, 12), null, '12mo', '2025-04-01', '2026-03-20', 'week', '2024-04-12', '2025-03-31'],
    ['Pacific/Kiritimati', Date.UTC(2026, 2, 31, 12), null, '12mo', '2025-05-01', '2026-04-01', 'week', '2024-05-30', '2025-04-30'],
    ['Pacific/Pago_Pago', Date.UTC(2026, 0, 1, 6), null, '12mo', '2025-01-01', '2025-12-31', 'week', '2024-01-02', '2024-12-31'],
    ['Asia/Kathmandu', Date.UTC(2024, 1, 29, 19), null, '12mo', '2023-04-01', '2024-03-01', 'week', '2022-04-30', '2023-03-31'],
    ['UTC', Date.UTC(2026, 2, 20, 12), '2026-02-03', 'all', '2026-02-03', '2026-03-20', 'day', '2025-12-19', '2026-02-02'],
    ['UTC', Date.UTC(2026, 2, 20, 12), null, 'all', '2026-03-20', '2026-03-20', 'hour', '2026-03-19', '2026-03-19'],
    ['Asia/Tokyo', Date.UTC(2026, 2, 19, 16), '2026-03-20', 'all', '2026-03-20', '2026-03-20', 'hour', '2026-03-19', '2026-03-19'],
    ['America/Los_Angeles', Date.UTC(2026, 2, 19, 16), '2026-03-20', 'all', '2026-03-19', '2026-03-19', 'hour', '2026-03-18', '2026-03-18'],
    ['Europe/Paris', Date.UTC(2026, 2, 20, 12), '2024-11-05', 'all', '2024-11-05', '2026-03-20', 'month', '2023-06-23', '2024-11-04'],
    ['UTC', Date.UTC(2026, 2, 20, 12), '1990-01-01', 'all', '2016-03-13', '2026-03-20', 'month', '2006-03-06', '2016-03-12'],
  ];
  for (const [zone, now, firstDataDay, period, from, to, grain, prevFrom, prevTo] of cases) {
    const q = parseQuery('stats', { period }, { id: 's', timezone: zone, firstDataDay }, now);
    const label = `${period} in ${zone} at ${new Date(now).toISOString()} (first day ${firstDataDay})`;
    assert.deepEqual([q.period, q.grain, q.previous], [{ from, to }, grain, { from: prevFrom, to: prevTo }], label);
  }
  // `all` needs the first day gathered by the caller; the other presets never read it.
  assert.throws(() => parseQuery('stats', { period: 'all' }, { id: 's', timezone: 'UTC' }, Date.UTC(2026, 2, 20)), /first day with data/);
  assert.deepEqual(parseQuery('stats', { period: '12mo' }, { id: 's', timezone: 'UTC' }, Date.UTC(2026, 2, 20)).period, { from: '2025-04-01', to: '2026-03-20' });
});
