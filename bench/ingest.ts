// bench/ingest: svc's collection endpoint against a bare Fastify route answering 202, driven by the
// same load generator in the same run. Prints throughput (and the ratio), p99 latency at a fixed
// 5 000 events/s, peak RSS, checks that every accepted event was stored, and import throughput (the
// same traffic, and the worst case of one event per visitor).
//
// Maximum throughput is driven by wrk (Debian package `wrk`, script bench/collect.lua) when it is
// installed: a C generator in its own process, so that on a 2-core machine the generator's cost
// does not cap the bare route. The runs at 5 000 events/s use wrk too, paced by collect.lua's
// schedule (BENCH_RATE): autocannon in this process delays the answers it times by its own event
// loop's work (docs/performance.md has the bare route's p99 under each). Without wrk, autocannon
// drives every run, and the bare route's figure is then partly the generator's limit. The run
// beside an import uses autocannon in a child process (bench/rate-load.ts), so that sending the
// import does not delay the requests it times.
//
// BENCH_CEILING (microseconds, separated by commas; with wrk) adds a run of the bare route per
// value, its route spinning that long before it answers (bench/bare-server.mjs): the ratio those
// reach against the bare route is what a collection path that adds that much work can reach on the
// machine at hand.
//
//   npm run bench:ingest            (BENCH_SECONDS=10 by default)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { freePort } from '../support/ports.js';
import { admin, benchSite, cpuSeconds, hasWrk, metric, rssMb, spawnSvc, startBareServer, stopBareServer, TOKEN, waitHealthy, wrkLoad } from './processes.js';
import { eventRequests, importFile, load, singleEventVisitorsFile } from './traffic.js';
import { sql } from '../src/sql/sql.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CEILING_US = (process.env.BENCH_CEILING ?? '').split(',').filter((v) => v.trim() !== '').map(Number);
if (CEILING_US.some((us) => !(us > 0))) throw new Error(`BENCH_CEILING: microseconds above 0, separated by commas (${process.env.BENCH_CEILING})`);
if (CEILING_US.length > 0 && !hasWrk) throw new Error('BENCH_CEILING needs wrk (Debian package wrk)');
/** bench/rate-load.ts in a child process: the fixed-rate run's figures. */
function rateLoadProcess(env: Record<string, string>): Promise<Awaited<ReturnType<typeof load>>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/rate-load.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('LOAD_RESULT '));
      if (line) resolve(JSON.parse(line.slice('LOAD_RESULT '.length)));
      else reject(new Error(`bench/rate-load.ts printed no result:\n${out}`));
    }),
  );
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const [svcPort, barePort] = [await freePort(), await freePort()];
  const svcUrl = `http://127.0.0.1:${svcPort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const svc = spawnSvc({ PORT: String(svcPort), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir });
  const [bare] = await Promise.all([startBareServer(barePort), waitHealthy(`${svcUrl}/healthz`)]);

  const domain = 'bench.example';
  const { orgId, siteId, relayKey, wrkEnv } = await benchSite(svcUrl, domain);
  const requests = () => eventRequests(siteId, relayKey, domain);

  const generator = hasWrk ? 'wrk (1 thread, own process)' : 'autocannon in this process (install wrk for a generator that does not cap the bare route)';
  console.log(`ingest bench: ${SECONDS}s per run, 2 servers side by side; maximum throughput and 5 000 events/s by ${generator}`);
  const max = (url: string) => (hasWrk ? wrkLoad(url, wrkEnv, SECONDS) : load(url, requests(), { connections: 64, seconds: SECONDS }));
  const at5k = (url: string) => (hasWrk ? wrkLoad(url, { ...wrkEnv, BENCH_RATE: '5000' }, SECONDS) : load(url, requests(), { connections: 64, overallRate: 5000, seconds: SECONDS }));
  const warm = await load(svcUrl, requests(), { connections: 16, seconds: 2 });
  /** A maximum-throughput run, with the CPU time a request cost the server's process (every thread). */
  const maxWithCpu = async (url: string, pid: number) => {
    const before = cpuSeconds(pid);
    const result = await max(url);
    return { ...result, cpuUs: ((cpuSeconds(pid) - before) / result.answered) * 1e6 };
  };
  const bareMax = await maxWithCpu(bareUrl, bare.pid!);
  const svcMax = await maxWithCpu(svcUrl, svc.pid!);
  const svcAt5k = await at5k(svcUrl);
  const bareAt5k = await at5k(bareUrl);
  // After the runs at 5 000 events/s, whose p99 is measured right after the maximum throughput's.
  const ceilings: Array<{ us: number; rps: number; cpuUs: number }> = [];
  for (const us of CEILING_US) {
    const port = await freePort();
    const busy = await startBareServer(port, us);
    try {
      ceilings.push({ us, ...(await maxWithCpu(`http://127.0.0.1:${port}`, busy.pid!)) });
    } finally {
      await stopBareServer(busy);
    }
  }

  const collectPeakRss = rssMb(svc.pid!, 'VmHWM');
  const memoryLines = (await (await fetch(`${svcUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text())
    .split('\n')
    .filter((l) => l.startsWith('svc_process_memory_bytes') || l.startsWith('svc_live_sessions'))
    .map((l) => (l.startsWith('svc_live') ? l : l.replace(/ (\d+)$/, (_m, n) => ` ${(Number(n) / 1e6).toFixed(0)} MB`)));

  // Imports: 200 000 lines of NDJSON, one request each: the bench's traffic, then (to a site of
  // its own) the worst case.
  const timeImport = async (siteId: string, body: string) => {
    const started = performance.now();
    const res = await fetch(`${svcUrl}/admin/v1/sites/${siteId}/events/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    const report = (await res.json()) as { accepted: number; rejected: number };
    return { ...report, seconds: (performance.now() - started) / 1000 };
  };
  const report = await timeImport(siteId, importFile());
  const worstSite = await admin(svcUrl, 'POST', `/orgs/${orgId}/sites`, { domain: 'worst.example', name: 'Worst case', timezone: 'Europe/Paris' });
  const worst = await timeImport(worstSite.id, singleEventVisitorsFile());
  // Live traffic at 1 000 events/s while the same import goes to a third site: an import gives the
  // event loop back every few milliseconds, so collection must not wait for it.
  const loadedSite = await admin(svcUrl, 'POST', `/orgs/${orgId}/sites`, { domain: 'loaded.example', name: 'Import under load', timezone: 'Europe/Paris' });
  const loadedFile = importFile();
  const liveDuring = rateLoadProcess({ ...wrkEnv, BENCH_URL: svcUrl, BENCH_CONNECTIONS: '16', BENCH_RATE: '1000', BENCH_SECONDS: String(Math.ceil(report.seconds) + 4) });
  // The child needs a moment to start sending; the import then runs inside its run.
  await new Promise((r) => setTimeout(r, 2000));
  const underLoad = await timeImport(loadedSite.id, loadedFile);
  const live = await liveDuring;

  await new Promise((r) => setTimeout(r, 1500)); // let the last 202s leave the pipeline
  const accepted = await metric(svcUrl, 'svc_events_accepted_total{source="collect"}');
  const dropped = await metric(svcUrl, 'svc_events_dropped_total{reason=');
  const dropLines = (await (await fetch(`${svcUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()).split('\n').filter((l) => l.startsWith('svc_events_dropped_total') && l.includes('collect'));
  const importPeakRss = rssMb(svc.pid!, 'VmHWM');
  svc.kill('SIGTERM');
  const exitCode = await new Promise<number | null>((r) => svc.once('exit', r));
  await stopBareServer(bare);

  const store = await DuckDbEventStore.open({ path: join(dataDir, 'events.duckdb'), readers: 1 });
  const [{ n } = { n: 0n }] = await store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${siteId} AND page <> ''`);
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });

  const answered = warm.answered + svcMax.answered + svcAt5k.answered + live.answered;
  const stored = Number(n) - report.accepted;
  const ratio = svcMax.rps / bareMax.rps;
  const rows = [
    ['bare Fastify 202, max', `${Math.round(bareMax.rps)} req/s`, `p50 ${bareMax.p50} ms, p99 ${bareMax.p99} ms; ${bareMax.cpuUs.toFixed(1)} µs of CPU a request`],
    ['svc /api/e, max', `${Math.round(svcMax.rps)} events/s`, `p50 ${svcMax.p50} ms, p99 ${svcMax.p99} ms; ${svcMax.cpuUs.toFixed(1)} µs of CPU an event`],
    ['svc / bare throughput', `${ratio.toFixed(2)}`, ratio >= 0.5 ? 'target ≥ 0.5: met' : 'target ≥ 0.5: MISSED'],
    ...ceilings.map((c) => [`bare + ${c.us} µs of work, max`, `${Math.round(c.rps)} req/s`, `${(c.rps / bareMax.rps).toFixed(2)} of the bare route; ${c.cpuUs.toFixed(1)} µs of CPU a request`]),
    ['svc at 5 000 events/s', `${Math.round(svcAt5k.rps)} events/s`, `p99 ${svcAt5k.p99} ms (target ≤ 12 ms: ${svcAt5k.p99 <= 12 ? 'met' : 'MISSED'})`],
    ['bare at 5 000 req/s', `${Math.round(bareAt5k.rps)} req/s`, `p99 ${bareAt5k.p99} ms`],
    ['svc peak RSS, collection', `${collectPeakRss.toFixed(0)} MB`, collectPeakRss < 300 ? 'target < 300 MB: met' : 'target < 300 MB: MISSED'],
    ['svc peak RSS, with imports', `${importPeakRss.toFixed(0)} MB`, 'after three 200 000-line imports, the last beside live traffic'],
    ['import', `${Math.round(report.accepted / report.seconds)} events/s`, `${report.accepted} accepted in ${report.seconds.toFixed(2)} s (target ≥ 100 000/s: ${report.accepted / report.seconds >= 100_000 ? 'met' : 'MISSED'})`],
    ['live p99 during an import', `${live.p99} ms`, `max ${live.max} ms; 1 000 events/s beside an import (${Math.round(underLoad.accepted / underLoad.seconds)} events/s)`],
    ['import, 1 event a visitor', `${Math.round(worst.accepted / worst.seconds)} events/s`, `${worst.accepted} accepted in ${worst.seconds.toFixed(2)} s (worst case: every line a new session)`],
    ['stored = accepted', `${stored} = ${accepted}`, stored === accepted ? 'every accepted event stored' : 'MISMATCH'],
    // A request cut off by the end of a run may still reach the pipeline: at most one per connection
    // of each run (16, 64, 64 and 16).
    ['202s ≈ accepted + dropped', `${answered} ≈ ${accepted} + ${dropped}`, Math.abs(accepted + dropped - answered) <= 16 + 64 + 64 + 16 ? 'ok' : 'MISMATCH'],
    ['graceful stop', `exit ${exitCode}`, ''],
  ];
  for (const [what, figure, note] of rows) console.log(`${what!.padEnd(26)} ${figure!.padEnd(28)} ${note}`);
  if (dropLines.length > 0) console.log(`drops: ${dropLines.join('; ')}`);
  console.log(`memory after collection: ${memoryLines.join('; ')}`);
  if (stored !== accepted || exitCode !== 0 || svcMax.errors + svcAt5k.errors + live.errors > 0) process.exitCode = 1;
}

await main();
