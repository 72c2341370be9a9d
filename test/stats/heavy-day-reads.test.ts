// A site's own heavy reads of a day of many sessions with long paths (test/helpers/heavy-day.ts), on
// a real process under a 256 MB budget (DuckDB's pool 224 MiB): the exit-page breakdown answers 200
// (a session's exit page is found by its last instant, not by an argMax over its pages, which held
// three times the day's pages), every other read answers 200 or, past the pool,
// `503 QUERY_TOO_LARGE` (never 500). The process's peaks, while it takes the events and while it
// reads, are logged (docs/performance.md#memory).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heavyDay } from '../helpers/heavy-day.js';

const BUDGET_MB = 256;

test(`a day of 50 000 sessions of three 2 KB pageviews under a ${BUDGET_MB} MB budget: its exit pages answer 200, no read 500`, { timeout: 600_000 }, async () => {
  const run = await heavyDay({ sessions: 50_000, pageviews: 3, pathBytes: 2_000, budgetMb: BUDGET_MB, rounds: 2 });
  console.log(JSON.stringify({ peakRssMb: run.peakRssMb, peakBeforeReadsMb: run.peakBeforeReadsMb, reads: run.reads.map((r) => [r.path, r.status, r.ms]) }));
  for (const read of run.reads) {
    if (read.path.includes('dimension=exit')) assert.equal(read.status, 200, `${read.path}: ${read.body.slice(0, 300)}`);
    else assert.ok(read.status === 200 || (read.status === 503 && JSON.parse(read.body).error.code === 'QUERY_TOO_LARGE'), `${read.path}: ${read.status} ${read.body.slice(0, 300)}\n${run.logs.slice(-2000)}`);
  }
  const exits = run.reads.filter((r) => r.path.includes('dimension=exit')).map((r) => JSON.parse(r.body) as { totalKeys: number; rows: Array<{ visitors: number; views: number }> });
  assert.deepEqual(exits.map((e) => [e.totalKeys, e.rows[0]!.visitors, e.rows[0]!.views]), [[50_000, 1, 3], [50_000, 1, 3]]);
});
