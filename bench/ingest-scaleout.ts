// bench/ingest-scaleout: collection throughput of the embedded profile (one process, DuckDB and
// SQLite) against the scale-out profile (PostgreSQL of the machine, a private ClickHouse the bench
// starts, Redis of the machine on a database index of its own) with one and with two collect
// processes, in one run, side by side. wrk (bench/collect.lua) drives each collect process with a
// generator of its own, 64 connections split between them, visitors disjoint.
//
// Beside events/s, each run prints the CPU seconds every process used per second of the run (svc
// processes, ClickHouse, Redis, and the whole machine: wrk, PostgreSQL, Redis and anything else running), the figures that say what limits the ratio on this machine, and
// checks that every event the collect processes accepted is stored.
//
//   npm run bench:ingest:scaleout       (BENCH_SECONDS=10 by default)
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { sql } from '../src/sql/sql.js';
import { startClickHouse } from '../support/clickhouse.js';
import { freePort } from '../support/ports.js';
import { createTestDatabase } from '../support/postgres.js';
import { admin, cpuSeconds, hasWrk, machineBusySeconds, metric, spawnSvc, stopProcess, waitHealthy, wrkLoad, type WrkResult } from './processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
const DOMAIN = 'bench.example';

interface Run {
  name: string;
  result: WrkResult;
  accepted: number;
  stored: number;
  /** CPU seconds per second of the run, by process. */
  cpu: Record<string, number>;
}

/** PIDs of the processes that `matches` (their /proc stat line and command line), read from /proc. */
function pidsWhere(matches: (stat: string, cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (matches(readFileSync(`/proc/${entry}/stat`, 'utf8'), readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** The PID of this process's ClickHouse server (a child of this process: the bench started it). */
function clickhousePid(): number {
  const [pid] = pidsWhere((stat, cmdline) => Number(stat.split(') ')[1]!.split(' ')[1]) === process.pid && cmdline.includes('clickhouse-server'));
  if (pid === undefined) throw new Error('the bench\'s ClickHouse server is not among its child processes');
  return pid;
}

/** The machine's Redis server (shared: its CPU includes whatever else uses it meanwhile). */
function redisPid(): number | undefined {
  return pidsWhere((stat) => stat.includes('(redis-server)'))[0];
}

async function started(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawnSvc({ PORT: String(port), HOST: '127.0.0.1', ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`);
  return { url, child };
}

/** Drives every collect process with a wrk of its own at once, `CONNECTIONS` split between them; CPU per process measured around it. */
async function drive(collectUrls: string[], setup: { siteId: string; relayKey: string }, pids: Record<string, number>): Promise<{ result: WrkResult; cpu: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const machineBefore = machineBusySeconds();
  const wall = performance.now();
  const results = await Promise.all(
    collectUrls.map((url, i) =>
      wrkLoad(url, { BENCH_SITE: setup.siteId, BENCH_RELAY_KEY: setup.relayKey, BENCH_DOMAIN: DOMAIN, BENCH_VISITOR_BASE: String(i * 100_000_000) }, SECONDS, CONNECTIONS / collectUrls.length),
    ),
  );
  const seconds = (performance.now() - wall) / 1000;
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, (cpuSeconds(pid) - before[name]!) / seconds]));
  cpu.machine = (machineBusySeconds() - machineBefore) / seconds;
  const result = results.reduce((sum, r) => ({
    rps: sum.rps + r.rps,
    p50: Math.max(sum.p50, r.p50),
    p99: Math.max(sum.p99, r.p99),
    answered: sum.answered + r.answered,
    non2xx: sum.non2xx + r.non2xx,
    errors: sum.errors + r.errors,
  }));
  return { result, cpu };
}

async function setUp(apiUrl: string): Promise<{ siteId: string; relayKey: string }> {
  const org = await admin(apiUrl, 'POST', '/orgs', { name: 'bench' });
  const site = await admin(apiUrl, 'POST', `/orgs/${org.id}/sites`, { domain: DOMAIN, name: 'Bench', timezone: 'Europe/Paris' });
  const relay = await admin(apiUrl, 'POST', '/relay-keys', { name: 'bench' });
  return { siteId: site.id, relayKey: relay.key };
}

async function embeddedRun(): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  try {
    const svc = await started({ SVC_DATA_DIR: dataDir });
    const setup = await setUp(svc.url);
    const { result, cpu } = await drive([svc.url], setup, { svc: svc.child.pid! });
    await new Promise((r) => setTimeout(r, 1500)); // the last 202s leave the pipeline
    const accepted = await metric(svc.url, 'svc_events_accepted_total{source="collect"}');
    await stopProcess(svc.child);
    const store = await DuckDbEventStore.open({ path: join(dataDir, 'events.duckdb'), readers: 1 });
    const [{ n } = { n: 0n }] = await store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${setup.siteId}`);
    await store.close();
    return { name: 'embedded, 1 process', result, accepted, stored: Number(n), cpu };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function scaleOutRun(collectProcesses: number, clickhouseUrl: string): Promise<Run> {
  const database = await createTestDatabase();
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
    dirs.push(dir);
    return dir;
  };
  const chDatabase = `svc_bench_${collectProcesses}`;
  const shared = { SVC_DATABASE_URL: database.url, SVC_CLICKHOUSE_URL: `${clickhouseUrl}/${chDatabase}`, SVC_REDIS_URL: REDIS_URL };
  const children: ChildProcess[] = [];
  try {
    const api = await started({ ...shared, SVC_ROLE: 'api', SVC_DATA_DIR: dataDir() });
    children.push(api.child);
    const setup = await setUp(api.url);
    const collectors = [];
    for (let i = 0; i < collectProcesses; i++) {
      const c = await started({ ...shared, SVC_ROLE: 'collect', SVC_DATA_DIR: dataDir() });
      children.push(c.child);
      collectors.push(c);
    }
    const pids: Record<string, number> = { clickhouse: clickhousePid() };
    const redis = redisPid();
    if (redis !== undefined) pids.redis = redis;
    collectors.forEach((c, i) => (pids[`collect ${i + 1}`] = c.child.pid!));
    const { result, cpu } = await drive(collectors.map((c) => c.url), setup, pids);
    await new Promise((r) => setTimeout(r, 1500));
    let accepted = 0;
    for (const c of collectors) accepted += await metric(c.url, 'svc_events_accepted_total{source="collect"}');
    for (const c of collectors) await stopProcess(c.child);
    const count = await fetch(`${clickhouseUrl}/?database=${chDatabase}`, { method: 'POST', body: `SELECT count() FROM events WHERE site_id = '${setup.siteId.replace(/[^0-9A-Za-z_-]/g, '')}'` });
    const stored = Number((await count.text()).trim());
    return { name: `scale-out, ${collectProcesses} collect`, result, accepted, stored, cpu };
  } finally {
    for (const child of children) await stopProcess(child);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

async function main(): Promise<void> {
  if (!hasWrk) throw new Error('bench:ingest:scaleout needs wrk (Debian package wrk)');
  console.log(`ingest scale-out bench: ${SECONDS} s per run, wrk with ${CONNECTIONS} connections split between the collect processes`);
  const clickhouse = await startClickHouse();
  const runs: Run[] = [];
  try {
    runs.push(await embeddedRun());
    runs.push(await scaleOutRun(1, clickhouse.url));
    runs.push(await scaleOutRun(2, clickhouse.url));
  } finally {
    await clickhouse.stop();
  }
  const base = runs[0]!.result.rps;
  console.log(`\n${'profile'.padEnd(24)}${'events/s'.padStart(10)}${'ratio'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}  CPU s per s (svc, ClickHouse, Redis, whole machine)            stored = accepted`);
  let ok = true;
  for (const run of runs) {
    const r = run.result;
    const cpu = Object.entries(run.cpu).map(([name, s]) => `${name} ${s.toFixed(2)}`).join(', ');
    const same = run.stored === run.accepted && r.errors === 0;
    ok &&= same;
    console.log(`${run.name.padEnd(24)}${String(Math.round(r.rps)).padStart(10)}${(r.rps / base).toFixed(2).padStart(8)}${String(r.p50).padStart(8)}${String(r.p99).padStart(8)}  ${cpu.padEnd(56)} ${run.stored} = ${run.accepted}${same ? '' : ' MISMATCH'}`);
  }
  if (!ok) process.exitCode = 1;
}

await main();
