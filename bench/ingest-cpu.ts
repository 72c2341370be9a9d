// bench/ingest-cpu: the CPU time svc's process spends per event, on collection and on import, the
// figure bench/ingest's throughput rests on but which, unlike throughput, other processes on the
// machine barely move. With BENCH_BASELINE (the folders of other built checkouts, separated by
// `:`, e.g. a `git worktree` of an earlier commit), all run in interleaved rounds (each round in
// another order) and the bench prints each one's median and range, and the ratio of the current
// checkout's median to each baseline's.
//
// A round starts the checkout's svc as `npm start` does (an empty data folder), warms it up with 2 s
// of collection, then times: collection by wrk (1 thread, 64 connections, bench/collect.lua) for
// BENCH_SECONDS, the write buffer's last flush included; the import of bench/ingest's 200 000
// lines; its worst case (every line a new visitor). CPU time is the process's user + system time
// (/proc/<pid>/stat), its threads (DuckDB's, the GC's) included; the system part of collection's is
// printed apart, and the process's peak resident memory by the round's end. Needs wrk (Debian package `wrk`) and Linux's /proc.
//
//   npm run bench:ingest-cpu                                   (BENCH_ROUNDS=5, BENCH_SECONDS=6)
//   BENCH_BASELINE=../old npm run bench:ingest-cpu             (the other checkout built: npm run build)
//   BENCH_BASELINE=. BENCH_BASELINE_ENV=SVC_EVENT_LOG_SYNC_MS=0 npm run bench:ingest-cpu
//                                                              (the baselines run with these variables: here, this checkout without its event log)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/ports.js';
import { importFile, singleEventVisitorsFile } from './traffic.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const TOKEN = 'bench-admin-token-0123456789';
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds of a process so far, its threads included: user, system, and their sum. */
function cpuSeconds(pid: number): { user: number; system: number; total: number } {
  // Fields after the command (which may hold spaces) start at the state, field 3; utime and stime are 14 and 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = [Number(fields[11]) / TICKS_PER_SECOND, Number(fields[12]) / TICKS_PER_SECOND];
  return { user, system, total: user + system };
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

async function admin(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** 202s answered by a wrk run on svc's collection endpoint. */
function wrkAnswered(url: string, env: Record<string, string>, seconds: number): number {
  const out = execFileSync('wrk', ['-t1', '-c64', `-d${seconds}s`, '-s', 'bench/collect.lua', url], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line.slice('BENCH_RESULT '.length)) as { statuses: Record<string, number> };
  return r.statuses['202'] ?? 0;
}

interface RoundFigures {
  /** CPU µs per event. */
  collect: number;
  /** The system (kernel) part of `collect`. */
  collectSystem: number;
  import: number;
  importWorst: number;
  /** Events a second, wall clock: what other processes on the machine move. */
  collectRate: number;
  importRate: number;
  /** The process's peak resident memory (MB) by the round's end: collection's, then the imports'. */
  peakMb: number;
}

/** A checkout's folder, and the variables it runs with. */
interface Checkout {
  dir: string;
  env: Record<string, string>;
}

async function round({ dir: checkout, env: checkoutEnv }: Checkout, files: { traffic: string; worst: string }): Promise<RoundFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-cpu-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startArgs = (JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/).slice(1);
  const svc: ChildProcess = spawn(process.execPath, startArgs, {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: TOKEN, SVC_LOG_LEVEL: 'warn', ...checkoutEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(`${url}/healthz`);
    const org = await admin(url, 'POST', '/orgs', { name: 'bench' });
    const domain = 'bench.example';
    const site = await admin(url, 'POST', `/orgs/${org.id}/sites`, { domain, name: 'Bench', timezone: 'Europe/Paris' });
    const relay = await admin(url, 'POST', '/relay-keys', { name: 'bench' });
    const env = { BENCH_SITE: site.id, BENCH_RELAY_KEY: relay.key, BENCH_DOMAIN: domain };
    wrkAnswered(url, env, 2);
    await new Promise((r) => setTimeout(r, 1500)); // the warm-up's last flush

    const pid = svc.pid!;
    let cpu = cpuSeconds(pid);
    let wall = performance.now();
    const answered = wrkAnswered(url, env, SECONDS);
    const collectRate = answered / ((performance.now() - wall) / 1000);
    await new Promise((r) => setTimeout(r, 1500)); // the write buffer flushes every second
    const after = cpuSeconds(pid);
    const collect = ((after.total - cpu.total) * 1e6) / answered;
    const collectSystem = ((after.system - cpu.system) * 1e6) / answered;

    const timeImport = async (siteId: string, body: string) => {
      cpu = cpuSeconds(pid);
      wall = performance.now();
      const res = await fetch(`${url}/admin/v1/sites/${siteId}/events/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      const { accepted } = (await res.json()) as { accepted: number };
      return { cpuPerEvent: ((cpuSeconds(pid).total - cpu.total) * 1e6) / accepted, rate: accepted / ((performance.now() - wall) / 1000) };
    };
    const traffic = await timeImport(site.id, files.traffic);
    const worstSite = await admin(url, 'POST', `/orgs/${org.id}/sites`, { domain: 'worst.example', name: 'Worst case', timezone: 'Europe/Paris' });
    const worst = await timeImport(worstSite.id, files.worst);
    const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    return { collect, collectSystem, import: traffic.cpuPerEvent, importWorst: worst.cpuPerEvent, collectRate, importRate: traffic.rate, peakMb };
  } finally {
    svc.kill('SIGTERM');
    await new Promise((r) => svc.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Round `r`'s order: the checkouts rotated by `r`, and reversed every other round. */
function order<T>(items: T[], r: number): T[] {
  const rotated = [...items.slice(r % items.length), ...items.slice(0, r % items.length)];
  return Math.floor(r / items.length) % 2 === 0 ? rotated : rotated.reverse();
}

async function main() {
  const baselineEnv = Object.fromEntries((process.env.BENCH_BASELINE_ENV ?? '').split(/\s+/).filter((v) => v.includes('=')).map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]));
  const current: Checkout = { dir: process.cwd(), env: {} };
  const baselines = (process.env.BENCH_BASELINE ?? '').split(':').filter((p) => p !== '').map((p): Checkout => ({ dir: resolve(p), env: baselineEnv }));
  const checkouts = [current, ...baselines];
  const files = { traffic: importFile(), worst: singleEventVisitorsFile() };
  console.log(`ingest CPU bench: ${ROUNDS} rounds, collection ${SECONDS} s by wrk, imports of 200 000 lines; CPU time of svc's process per event`);
  checkouts.forEach((c, i) => console.log(`${i === 0 ? 'current' : `baseline ${i}`}: ${c.dir}${Object.keys(c.env).length ? ` with ${JSON.stringify(c.env)}` : ''}`));
  const figures = new Map<Checkout, RoundFigures[]>(checkouts.map((c) => [c, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const checkout of order(checkouts, r)) {
      const f = await round(checkout, files);
      figures.get(checkout)!.push(f);
      const index = checkouts.indexOf(checkout);
      console.log(
        `round ${r + 1} ${(index === 0 ? 'current' : `baseline ${index}`).padEnd(10)} collect ${f.collect.toFixed(1)} µs/event (system ${f.collectSystem.toFixed(1)}; ${Math.round(f.collectRate)}/s), import ${f.import.toFixed(2)} µs/event (${Math.round(f.importRate)}/s), worst case ${f.importWorst.toFixed(2)} µs/event, peak ${f.peakMb.toFixed(0)} MB`,
      );
    }
  }
  const measures: Array<[keyof RoundFigures, string, number]> = [
    ['collect', 'collection, CPU µs/event', 1],
    ['collectSystem', '  of which system', 1],
    ['import', 'import, CPU µs/event', 2],
    ['importWorst', 'import worst case, CPU µs/event', 2],
    ['collectRate', 'collection, events/s (wall)', 0],
    ['importRate', 'import, events/s (wall)', 0],
    ['peakMb', 'peak resident memory, MB', 0],
  ];
  const medianOf = (checkout: Checkout, key: keyof RoundFigures) => median(figures.get(checkout)!.map((f) => f[key]));
  checkouts.forEach((checkout, i) => {
    console.log(`\n${i === 0 ? 'current' : `baseline ${i}`}: median (range)${i === 0 ? '' : '; current / this baseline, of the medians'}`);
    for (const [key, label, digits] of measures) {
      const xs = figures.get(checkout)!.map((f) => f[key]);
      const text = `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)} – ${Math.max(...xs).toFixed(digits)})`;
      console.log(`  ${label.padEnd(34)} ${text.padEnd(30)} ${i === 0 ? '' : (medianOf(current, key) / median(xs)).toFixed(3)}`);
    }
  });
}

await main();
