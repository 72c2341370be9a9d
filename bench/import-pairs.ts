// bench/import-pairs: this checkout's import rate against another checkout's, side by side. Both
// run at once as `npm start` runs them, idle but for the imports, which alternate between them
// (A B, then B A, …), each 200 000 lines of NDJSON into a fresh site: a machine whose speed drifts
// over minutes slows both of a pair alike, which runs of bench/ingest in turn do not.
//
//   BENCH_BASELINE=../base npm run bench:import-pairs     BENCH_ROUNDS=N (8) pairs;
//                                                          BENCH_WORST=1: every line a new visitor
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnService, type ServiceProcess } from '../test/helpers/child.js';
import { admin, cpuSeconds, TOKEN } from './processes.js';
import { importFile, singleEventVisitorsFile } from './traffic.js';

const BASELINE = process.env.BENCH_BASELINE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

interface Checkout {
  folder: string;
  service: ServiceProcess;
  dataDir: string;
  orgId: string;
  seconds: number[];
  cpu: number[];
}

async function start(folder: string): Promise<Checkout> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-import-pairs-'));
  const service = await spawnService(dataDir, { SVC_ADMIN_TOKEN: TOKEN }, folder);
  const org = await admin(service.url, 'POST', '/orgs', { name: 'bench' });
  if (!org.id) throw new Error(`${folder}: no organisation: ${JSON.stringify(org)}`);
  return { folder, service, dataDir, orgId: org.id, seconds: [], cpu: [] };
}

/** One import into a fresh site of `checkout`: its seconds and the process's CPU seconds. */
async function importOnce(checkout: Checkout, body: string, n: number): Promise<void> {
  const site = await admin(checkout.service.url, 'POST', `/orgs/${checkout.orgId}/sites`, { domain: `s${n}.example`, name: 'Import', timezone: 'Europe/Paris' });
  await new Promise((done) => setTimeout(done, 1500)); // the site's creation settles
  const cpuBefore = cpuSeconds(checkout.service.child.pid!);
  const started = performance.now();
  const res = await fetch(`${checkout.service.url}/admin/v1/sites/${site.id}/events/import`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' }, body });
  const report = (await res.json()) as { accepted?: number };
  if (!res.ok || !report.accepted) throw new Error(`${checkout.folder}: import answered ${res.status} ${JSON.stringify(report)}`);
  checkout.seconds.push((performance.now() - started) / 1000);
  checkout.cpu.push(cpuSeconds(checkout.service.child.pid!) - cpuBefore);
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!BASELINE) throw new Error('BENCH_BASELINE=DIR names the built checkout to compare with');
  const body = process.env.BENCH_WORST ? singleEventVisitorsFile() : importFile();
  const pair = [await start(resolve('.')), await start(resolve(BASELINE))] as const;
  try {
    for (let round = 0, n = 0; round < ROUNDS; round++) {
      for (const checkout of round % 2 === 0 ? pair : [pair[1], pair[0]]) await importOnce(checkout, body, n++);
    }
  } finally {
    for (const checkout of pair) {
      checkout.service.child.kill('SIGTERM');
      await checkout.service.exited;
      rmSync(checkout.dataDir, { recursive: true, force: true });
    }
  }
  for (const c of pair) console.log(`${c.folder}: ${c.seconds.map((s) => s.toFixed(2)).join(' ')} s; median ${median(c.seconds).toFixed(2)} s, CPU ${median(c.cpu).toFixed(2)} s`);
  const ratios = pair[0].seconds.map((s, i) => s / pair[1].seconds[i]!);
  console.log(`time against the baseline, pair by pair: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(2)}`);
  console.log(`CPU against the baseline: ${(median(pair[0].cpu) / median(pair[1].cpu)).toFixed(2)}`);
}

await main();
