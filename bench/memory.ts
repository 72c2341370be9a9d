// bench/memory: the service's memory as an operator sees it, started as `npm start` starts it, for
// this checkout and, side by side, for each built checkout in BENCH_BASELINE (folders separated by
// `:`, e.g. `git worktree add ../base main && (cd ../base && npm ci && npm run build)`).
//
// 1. At rest: an empty data folder, 20 s after the start: resident memory, V8's heap used and
//    external memory (`svc_process_memory_bytes`).
// 2. After `svc demo` (its defaults) and 15 s (the idle collection checks every 10 s): the same figures.
// 3. A 2 000 000-line import (support/import-lines.ts) into a fresh process under
//    SVC_MEMORY_BUDGET_MB=256: its peak resident memory (VmHWM).
//
//   npm run bench:memory                     BENCH_ROUNDS=N (1) repeats each checkout's runs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { IMPORT_CALLS, importCallLines } from '../support/import-lines.js';
import { spawnService, type ServiceProcess } from '../test/helpers/child.js';
import { ADMIN_TOKEN, BROWSER_UA } from '../test/helpers/server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CHECKOUTS = ['.', ...(process.env.BENCH_BASELINE ?? '').split(':').filter((dir) => dir !== '')].map((dir) => resolve(dir));
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** `npm start` in `checkout` on a fresh data folder, with `env` besides the bench's own. */
const start = (checkout: string, dataDir: string, env: Record<string, string> = {}) => spawnService(dataDir, { SVC_LOG_FORMAT: 'json', ...env }, checkout);

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

/** The process's own figures (`svc_process_memory_bytes`), in MB. */
async function reported(service: ServiceProcess): Promise<{ rss: number; heapUsed: number; external: number }> {
  const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const of = (kind: string) => Number(new RegExp(`svc_process_memory_bytes\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1] ?? NaN) / MB;
  return { rss: of('rss'), heapUsed: of('heap_used'), external: of('external') };
}

const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function admin(service: ServiceProcess, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${service.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** At rest, then after the demo, in one process. */
async function restAndDemo(checkout: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const service = await start(checkout, dataDir);
  try {
    await sleep(20_000);
    const rest = await reported(service);
    const demo = spawn(process.execPath, ['dist/cli/svc.js', 'demo'], { cwd: checkout, env: { ...process.env, SVC_URL: service.url, SVC_ADMIN_TOKEN: ADMIN_TOKEN }, stdio: 'ignore' });
    const code = await new Promise((done) => demo.once('exit', done));
    if (code !== 0) throw new Error(`${checkout}: svc demo exited ${code}`);
    await sleep(15_000);
    return { rest, demo: await reported(service) };
  } finally {
    await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The 2 000 000-line import under a 256 MB budget: the process's peak resident memory. */
async function importPeak(checkout: string): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const service = await start(checkout, dataDir, { SVC_MEMORY_BUDGET_MB: '256' });
  try {
    const org = await admin(service, '/orgs', { name: 'Memory' });
    const site = await admin(service, `/orgs/${org.id}/sites`, { domain: 'memory.example', name: 'Memory', timezone: 'UTC' });
    for (const [call, days] of IMPORT_CALLS.entries()) {
      const res = await fetch(`${service.url}/admin/v1/sites/${site.id}/events/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        body: Readable.toWeb(Readable.from(importCallLines(days, call, BROWSER_UA))) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      if (res.status !== 200) throw new Error(`${checkout}: import answered ${res.status} ${await res.text()}`);
    }
    return peakRss(service.child.pid!);
  } finally {
    await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toFixed(0).padStart(5);
const rows: string[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const checkout of CHECKOUTS) {
    const { rest, demo } = await restAndDemo(checkout);
    const peak = await importPeak(checkout);
    rows.push(`${fmt(rest.rss)} ${fmt(rest.heapUsed)} ${fmt(rest.external)} | ${fmt(demo.rss)} ${fmt(demo.heapUsed)} ${fmt(demo.external)} | ${fmt(peak)} | ${checkout}`);
    console.log(rows.at(-1));
  }
}
console.log('\nMB: at rest (rss heap external) | after svc demo (rss heap external) | 2 000 000-line import peak rss (256 MB budget) | checkout');
for (const row of rows) console.log(row);
