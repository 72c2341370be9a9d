// The passes a rollup run makes over a range of days: at most 31 days and 1 000 000 events each, a
// larger day alone, every day of the range in exactly one pass, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays } from '../../src/core/localtime.js';
import { chunks } from '../../src/stats/rollups/job.js';

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
