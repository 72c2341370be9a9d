// Two Umami uploads in which every line is a new session, sent at once with a manage key to a real
// process (the embedded profile, started as `npm start` does), while another organisation's
// dashboard reads run in a loop (test/helpers/import-isolation.ts): both imports complete, rollups
// included; every read of the other organisation answers 200; /healthz answers throughout; and the
// process's peak resident memory stays within the budget plus what docs/operations.md#memory tells
// operators to give a process beyond it (100 MB more where every path is 2 KB long). Under a 256 MB budget an import's rollups have 112 MiB of
// DuckDB's pool, which the other organisation's reads share: a read or a rollup DuckDB refuses for
// want of memory runs again alone, and session rows are written a bounded number of sessions a
// statement. The files (180 000 lines, 3.8 MB of gzip each) are scaled down to run in under two
// minutes, and still past what one statement of their sessions' rows takes in 112 MiB (without the
// bound, both imports' rollups are refused); bench/import-isolation runs them at full size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importIsolation } from '../helpers/import-isolation.js';

const BUDGET_MB = 256;
const BEYOND_BUDGET_MB = 400;
/** What docs/operations.md#memory adds for imports whose every path is 2 KB long. */
const BEYOND_BUDGET_LONG_PATHS_MB = 500;

/** Both uploads of `lines` lines over `days` days, paths `pathBytes` long (short ones when absent), checked as the header says. */
async function isolated(lines: number, days: number, pathBytes?: number): Promise<void> {
  const beyondBudget = pathBytes === undefined ? BEYOND_BUDGET_MB : BEYOND_BUDGET_LONG_PATHS_MB;
  const run = await importIsolation({ lines, days, pathBytes, budgetMb: BUDGET_MB });
  const { logs, ...figures } = run;
  console.log(JSON.stringify(figures));
  assert.deepEqual(run.imports.map((i) => [i.status, i.accepted, i.error]), [['done', lines, null], ['done', lines, null]], logs.slice(-4000));
  assert.deepEqual(Object.keys(run.reads), ['200'], run.failedReads.join('\n'));
  assert.ok(run.reads[200]! >= 20, `only ${run.reads[200]} reads ran beside the imports`);
  assert.equal(run.healthz.failures, 0);
  assert.ok(run.healthz.worstMs < 2000, `/healthz waited ${run.healthz.worstMs} ms`);
  assert.ok(run.peakRssMb <= BUDGET_MB + beyondBudget, `peak ${run.peakRssMb} MB, past ${BUDGET_MB} + ${beyondBudget}`);
}

test(`two uploads of one-pageview sessions at once: every other organisation's read answers 200, within ${BUDGET_MB} + ${BEYOND_BUDGET_MB} MB`, { timeout: 300_000 }, () => isolated(180_000, 6));

// Sessions whose paths are 2 000 bytes, each its own: the rollups' statements are bounded by their
// pages' weight (their entry and exit pages, their string keys), not by their events alone, and
// their rollups complete within an import's 112 MiB of DuckDB's pool; the checkpoint at each
// commit compresses row groups of 16 384 rows (DuckDB's 122 880 peaked at 911 – 1 136 MB here).
test(`two uploads of one-pageview sessions with 2 KB paths at once: within ${BUDGET_MB} + ${BEYOND_BUDGET_LONG_PATHS_MB} MB`, { timeout: 300_000 }, () => isolated(40_000, 3, 2_000));
