// bench/crash-loss: what `kill -9` under load loses, with the event log (SVC_EVENT_LOG_SYNC_MS=100,
// the default) and without it (0: the write buffer alone, flushed every second). For each run svc
// starts on a data folder of its own, takes live events at a fixed rate (each on a page of its own,
// through the trusted relay, none of them dropped) for a few seconds plus a random part of a second (so that the kill
// falls anywhere in the flush interval), and is killed with SIGKILL. A restart on the same data
// stores what the event log or the spool holds and stops gracefully; the bench then reads the
// events table and counts the events answered 202 that are not stored (lost), how long before the
// kill the oldest of them was answered, and the events stored twice.
//
//   npm run bench:crash-loss        (BENCH_RUNS=3 kills a mode, BENCH_RATE=1000 events/s, BENCH_SECONDS=4)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { sql } from '../src/sql/sql.js';
import { freePort } from '../support/ports.js';
import { admin, spawnSvc, stopProcess, waitHealthy } from './processes.js';
import { visitEvent } from './traffic.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Requests under way at once: enough for the rate on a loaded machine. */
const CONCURRENCY = 32;

const MODES = [
  { name: 'event log (sync every 100 ms)', env: { SVC_EVENT_LOG_SYNC_MS: '100' } },
  { name: 'write buffer alone (flush every 1 s)', env: { SVC_EVENT_LOG_SYNC_MS: '0' } },
];

interface RunResult {
  answered: number;
  stored: number;
  lost: number;
  /** How long before the kill the oldest lost event was answered (0 when none is lost). */
  lostWindowMs: number;
  twice: number;
  /** Events answered a second before the kill: the rate reached. */
  rate: number;
  /** Events stored that the bench never saw answered (sent just before the kill). */
  unanswered: number;
}

/** Sends events at RATE on CONCURRENCY connections until `stopAt`; returns each answered page with when its 202 came. */
async function sendUntil(url: string, siteId: string, relayKey: string, domain: string, stopAt: number): Promise<Map<string, number>> {
  const answeredAt = new Map<string, number>();
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (true) {
      const n = next++;
      const due = started + (n * 1000) / RATE;
      if (due >= stopAt) return;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const { ua, event } = visitEvent(n);
      // Benchmarking addresses (198.18.0.0/15): no hosting network, and 512 networks share the rate (each under its limit).
      const ip = `198.${18 + ((n >> 8) & 1)}.${n & 255}.${1 + ((n >> 9) & 127)}`;
      const page = `/crash/${n}`;
      try {
        const res = await fetch(`${url}/api/e`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: `https://${domain}`, 'user-agent': ua, 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip },
          body: JSON.stringify({ s: siteId, ...event, u: page }),
        });
        await res.arrayBuffer();
        if (res.status === 202) answeredAt.set(page, Date.now());
      } catch {
        return; // the process was killed
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return answeredAt;
}

async function crashRun(env: Record<string, string>): Promise<RunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-crash-'));
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const svcEnv = { PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, ...env };
    const svc = spawnSvc(svcEnv);
    await waitHealthy(`${url}/healthz`);
    const org = await admin(url, 'POST', '/orgs', { name: 'crash' });
    const domain = 'crash.example';
    const site = await admin(url, 'POST', `/orgs/${org.id}/sites`, { domain, name: 'Crash', timezone: 'Europe/Paris' });
    const relay = await admin(url, 'POST', '/relay-keys', { name: 'crash' });

    const killAt = Date.now() + SECONDS * 1000 + Math.random() * 1000;
    const exited = new Promise((r) => svc.once('exit', r));
    let killedAt = killAt;
    setTimeout(() => {
      killedAt = Date.now();
      svc.kill('SIGKILL');
    }, killAt - Date.now());
    const sendingFrom = Date.now();
    const answeredAt = await sendUntil(url, site.id, relay.key, domain, killAt + 1000);
    await exited;

    // The restart stores what the log or the spool holds; a graceful stop writes the rest.
    const restarted = spawnSvc(svcEnv);
    await waitHealthy(`${url}/healthz`);
    await stopProcess(restarted);
    const store = await DuckDbEventStore.open({ path: join(dataDir, 'events.duckdb'), readers: 1 });
    let pages: string[];
    try {
      pages = (await store.query<{ page: string }>(sql`SELECT page FROM events WHERE site_id = ${site.id}`)).map((r) => r.page);
    } finally {
      await store.close();
    }
    const stored = new Set(pages);
    const lost = [...answeredAt].filter(([page]) => !stored.has(page));
    return {
      answered: answeredAt.size,
      stored: stored.size,
      lost: lost.length,
      lostWindowMs: Math.max(0, ...lost.map(([, at]) => killedAt - at)),
      twice: pages.length - stored.size,
      unanswered: [...stored].filter((page) => !answeredAt.has(page)).length,
      rate: (answeredAt.size * 1000) / (killedAt - sendingFrom),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`crash-loss bench: ${RUNS} kills a mode, ${RATE} events/s for ${SECONDS}–${SECONDS + 1} s before each; load average ${load()}`);
  console.log(`${'mode'.padEnd(38)} ${'answered'.padStart(8)} ${'rate/s'.padStart(7)} ${'lost'.padStart(6)} ${'lost ms'.padStart(8)} ${'twice'.padStart(6)} ${'unanswered'.padStart(10)}`);
  const summary: string[] = [];
  let failed = false;
  // The modes alternate, so that a change in the machine's load falls on both.
  const results = new Map<string, RunResult[]>(MODES.map((m) => [m.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const mode of MODES) {
      const r = await crashRun(mode.env);
      results.get(mode.name)!.push(r);
      console.log(`${mode.name.padEnd(38)} ${String(r.answered).padStart(8)} ${String(Math.round(r.rate)).padStart(7)} ${String(r.lost).padStart(6)} ${String(Math.round(r.lostWindowMs)).padStart(8)} ${String(r.twice).padStart(6)} ${String(r.unanswered).padStart(10)}`);
      if (r.twice > 0) failed = true;
    }
  }
  for (const [name, runs] of results) {
    const lost = runs.map((r) => r.lost);
    const windows = runs.map((r) => Math.round(r.lostWindowMs));
    const asMs = runs.map((r) => Math.round((r.lost * 1000) / r.rate));
    summary.push(`${name}: lost ${Math.min(...lost)}–${Math.max(...lost)} events (${Math.min(...asMs)}–${Math.max(...asMs)} ms of traffic at the rate reached), oldest lost answered ${Math.min(...windows)}–${Math.max(...windows)} ms before the kill`);
  }
  for (const line of summary) console.log(line);
  console.log(`load average at the end ${load()}`);
  if (failed) {
    console.log('MISMATCH: events stored twice');
    process.exitCode = 1;
  }
}

await main();
