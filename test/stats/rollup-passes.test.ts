// The passes a rollup run makes over a range of days: at most 31 days and 1 000 000 events each, a
// larger day alone, every day of the range in exactly one pass, in order; a backfill's latest pass,
// counted back from the range's end, under the same bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays } from '../../src/core/localtime.js';
import { chunks, latestPassStart } from '../../src/stats/rollups/passes.js';

const range = (from: string, to: string) => ({ from, to });
const day = (d: string, events: number) => ({ day: d, events });

const cases: Array<{ name: string; range: { from: string; to: string }; days: Array<{ day: string; events: number }>; passes: Array<[string, string]> }> = [
  { name: 'no events: 31 days a pass', range: range('2026-01-01', '2026-03-05'), days: [], passes: [['2026-01-01', '2026-01-31'], ['2026-02-01', '2026-03-03'], ['2026-03-04', '2026-03-05']] },
  { name: 'few events: 31 days a pass', range: range('2026-01-01', '2026-01-31'), days: [day('2026-01-03', 500_000), day('2026-01-30', 500_000)], passes: [['2026-01-01', '2026-01-31']] },
  {
    name: 'a pass ends before the day that takes it past 1 000 000 events',
    range: range('2026-01-01', '2026-01-10'),
    days: [day('2026-01-02', 400_000), day('2026-01-03', 400_000), day('2026-01-04', 400_000), day('2026-01-08', 700_000)],
    passes: [['2026-01-01', '2026-01-03'], ['2026-01-04', '2026-01-07'], ['2026-01-08', '2026-01-10']],
  },
  {
    name: 'a day past the bound is a pass of its own',
    range: range('2026-01-01', '2026-01-05'),
    days: [day('2026-01-01', 3_000_000), day('2026-01-02', 2_000_000), day('2026-01-04', 10)],
    passes: [['2026-01-01', '2026-01-01'], ['2026-01-02', '2026-01-03'], ['2026-01-04', '2026-01-05']],
  },
  { name: 'exactly 1 000 000 events: one pass', range: range('2026-01-01', '2026-01-05'), days: [day('2026-01-01', 600_000), day('2026-01-05', 400_000)], passes: [['2026-01-01', '2026-01-05']] },
  {
    name: 'the 31-day cap and the event bound together',
    range: range('2026-01-01', '2026-03-01'),
    days: [day('2026-01-10', 900_000), day('2026-02-05', 200_000), day('2026-02-20', 100)],
    passes: [['2026-01-01', '2026-01-31'], ['2026-02-01', '2026-03-01']],
  },
  { name: 'events before the range are not counted', range: range('2026-01-05', '2026-01-06'), days: [day('2026-01-01', 5_000_000), day('2026-01-06', 1)], passes: [['2026-01-05', '2026-01-06']] },
];

for (const c of cases) {
  test(`rollup passes: ${c.name}`, () => {
    const passes = chunks(c.range, c.days);
    assert.deepEqual(passes.map((p) => [p.from, p.to]), c.passes);
    // Every day of the range in exactly one pass, in order.
    for (let i = 1; i < passes.length; i++) assert.equal(passes[i]!.from, addDays(passes[i - 1]!.to, 1));
    assert.equal(passes[0]!.from, c.range.from);
    assert.equal(passes.at(-1)!.to, c.range.to);
  });
}

const backfills: Array<{ name: string; days: Array<{ day: string; events: number }>; from: string }> = [
  { name: 'few events: the whole range', days: [day('2026-01-02', 10), day('2026-01-30', 10)], from: '2026-01-01' },
  { name: 'it starts after the day that takes it past 1 000 000 events', days: [day('2026-01-02', 500_000), day('2026-01-20', 600_000), day('2026-01-25', 500_000)], from: '2026-01-21' },
  { name: 'a last day past the bound holds the pass\'s only events', days: [day('2026-01-29', 10), day('2026-01-31', 2_000_000)], from: '2026-01-30' },
  { name: 'exactly 1 000 000 events: the whole range', days: [day('2026-01-01', 500_000), day('2026-01-31', 500_000)], from: '2026-01-01' },
  { name: 'days outside the range are not counted', days: [day('2025-12-31', 5_000_000), day('2026-01-15', 1), day('2026-02-01', 5_000_000)], from: '2026-01-01' },
];

for (const c of backfills) {
  test(`a backfill's latest pass: ${c.name}`, () => {
    assert.equal(latestPassStart(range('2026-01-01', '2026-01-31'), c.days), c.from);
  });
}
