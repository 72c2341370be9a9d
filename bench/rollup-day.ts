// bench/rollup-day: what a site's daily rollup run costs on DuckDB: the run that rolls up one day
// (yesterday) while the days either side are stored, as the rollup task does once a day for every
// site. Stores three days of BENCH_SESSIONS_PER_DAY sessions (support/datasets' small shape, about
// 2.7 events each) in a fresh data folder, rolls up the first day, then rolls up the middle
// day BENCH_REPEAT times (the rollup state set back before each run) and prints each run's time and
// the process's CPU time (user + system, DuckDB's threads included), median and range.
//
// With BENCH_BASELINE (the folders of other checkouts, separated by `:`, this file copied into each
// one's bench/), each checkout runs in a process of its own, BENCH_ROUNDS rounds in turn (each round
// in another order), and the bench prints each one's medians and the ratio of the current checkout's
// to each baseline's.
//
//   node --import tsx bench/rollup-day.ts
//   cp bench/rollup-day.ts ../old/bench/ && BENCH_BASELINE=../old node --import tsx bench/rollup-day.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addDays, startOfLocalDay } from '../src/core/localtime.js';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { openSqliteMetaStore } from '../src/storage/meta/sqlite.js';
import { rollupKey } from '../src/stats/rollups/key.js';
import { createRollupTables } from '../src/stats/rollups/write.js';
import { rollupSite } from '../src/stats/rollups/run.js';
import { dataset } from '../support/datasets.js';

const SESSIONS_PER_DAY = Number(process.env.BENCH_SESSIONS_PER_DAY ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BASELINES = (process.env.BENCH_BASELINE ?? '').split(':').filter((dir) => dir !== '');
const TZ = 'UTC';
const DAYS = ['2026-03-04', '2026-03-05', '2026-03-06'];

interface Runs {
  events: number;
  wallMs: number[];
  cpuMs: number[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const range = (values: readonly number[]) => `${Math.min(...values).toFixed(0)} – ${Math.max(...values).toFixed(0)}`;

/** Loads the three days into a fresh data folder and times the middle day's rollup run. */
async function measure(): Promise<Runs> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-rollup-day-'));
  const events = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), memoryLimit: '224MB' });
  const meta = await openSqliteMetaStore(join(dir, 'meta.sqlite'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('bench', 0);
    const site = await meta.createSite(org.id, { domain: 'rollup-day.example', name: 'bench', timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, 'rollupday', 0);
    const rows = dataset({ seed: 7, siteId: site.id, days: DAYS, dayStart: (day) => startOfLocalDay(day, TZ), sessionsPerDay: SESSIONS_PER_DAY, visitorsPerDay: SESSIONS_PER_DAY, timeZone: TZ });
    rows.sort((a, b) => a.ts - b.ts);
    for (let i = 0; i < rows.length; i += 100_000) await events.append(rows.slice(i, i + 100_000));
    const noonAfter = (day: string) => startOfLocalDay(addDays(day, 1), TZ) + 12 * 3_600_000;
    await rollupSite({ events, meta }, site, noonAfter(DAYS[0]!));
    const key = rollupKey(events, site.id);
    const before = (await meta.getRollupState(key))!;
    const runs: Runs = { events: rows.length, wallMs: [], cpuMs: [] };
    for (let i = 0; i < REPEAT; i++) {
      await meta.setRollupState(key, before);
      const cpu = process.cpuUsage();
      const started = performance.now();
      await rollupSite({ events, meta }, site, noonAfter(DAYS[1]!));
      runs.wallMs.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      runs.cpuMs.push((used.user + used.system) / 1000);
    }
    return runs;
  } finally {
    await events.close();
    await meta.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ROLLUP_DAY_CHILD === '1') {
  process.stdout.write(JSON.stringify(await measure()));
} else if (BASELINES.length === 0) {
  const runs = await measure();
  console.log(`${runs.events} events over 3 days; the middle day's rollup run, ${REPEAT} runs: ${median(runs.wallMs).toFixed(0)} ms (${range(runs.wallMs)}), CPU ${median(runs.cpuMs).toFixed(0)} ms (${range(runs.cpuMs)})`);
} else {
  const checkouts = ['.', ...BASELINES].map((dir) => resolve(dir));
  const results = new Map<string, Runs[]>(checkouts.map((dir) => [dir, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const dir of order) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/rollup-day.ts'], {
        cwd: dir,
        env: { ...process.env, BENCH_ROLLUP_DAY_CHILD: '1', BENCH_BASELINE: '' },
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      results.get(dir)!.push(JSON.parse(out) as Runs);
    }
  }
  const medians = (dir: string) => {
    const all = results.get(dir)!;
    return { wall: median(all.flatMap((r) => r.wallMs)), cpu: median(all.flatMap((r) => r.cpuMs)), events: all[0]!.events, cpus: all.map((r) => median(r.cpuMs)) };
  };
  const current = medians(checkouts[0]!);
  console.log(`${current.events} events over 3 days; the middle day's rollup run, ${ROUNDS} processes of ${REPEAT} runs per checkout`);
  for (const dir of checkouts) {
    const m = medians(dir);
    const ratio = dir === checkouts[0] ? '' : `  current / this: wall ${(current.wall / m.wall).toFixed(2)}, CPU ${(current.cpu / m.cpu).toFixed(2)}`;
    console.log(`${dir}: ${m.wall.toFixed(0)} ms, CPU ${m.cpu.toFixed(0)} ms (process medians ${range(m.cpus)})${ratio}`);
  }
}
