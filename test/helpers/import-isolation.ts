// Two Umami uploads in which every line is a new session, sent at once with a manage key to a real
// process started as `npm start` does, while another organisation's dashboard reads run in a loop:
// what every read answered, how promptly /healthz answered, and the process's peak resident memory.
// Shared by test/imports/import-isolation.test.ts (scaled down) and bench/import-isolation.ts (full size).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnService } from './child.js';
import { sampleHealthz } from './healthz.js';
import { ADMIN_TOKEN, BROWSER_UA } from './server.js';
import { newSessionUmamiExport } from './umami-export.js';

export interface IsolationRun {
  /** The gzip files' sizes, in bytes. */
  uploadBytes: number[];
  /** Each import job's status and accepted lines, or why it failed. */
  imports: Array<{ status: string; accepted?: number; error?: unknown }>;
  /** The other organisation's reads by status code (0: no answer). */
  reads: Record<number, number>;
  /** The bodies of the first reads that did not answer 200. */
  failedReads: string[];
  healthz: { samples: number; failures: number; worstMs: number };
  /** The process's peak resident memory (VmHWM), in MB, and its resident memory once started, before the imports. */
  peakRssMb: number;
  startRssMb: number;
  seconds: number;
  logs: string;
}

const DAY_MS = 86_400_000;
const OTHER_EVENTS = 40_000;
const statusMb = (pid: number, field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function call(url: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * `lines` lines an upload, over `days` days before today, each path `pathBytes` long (short when
 * absent); the process's memory budget `budgetMb` (its default when absent).
 */
export async function importIsolation(options: { lines: number; days: number; pathBytes?: number; budgetMb?: number; cwd?: string }): Promise<IsolationRun> {
  const now = Date.now();
  // Made first: a connection idle while they are made would be closed under the next request.
  const files = [1, 2].map((seed) => gzipSync([...newSessionUmamiExport(options.lines, { hostname: 'importer.example', days: options.days, until: now, seed: seed * 16, pathBytes: options.pathBytes })].join('')));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-import-isolation-'));
  const env: Record<string, string> = { SVC_API_RATE_LIMIT: '1000000/60s' };
  if (options.budgetMb !== undefined) env.SVC_MEMORY_BUDGET_MB = String(options.budgetMb);
  const service = await spawnService(dataDir, env, options.cwd);
  const pid = service.child.pid!;
  const adminCall = (method: string, path: string, body?: unknown) => call(service.url, method, `/admin/v1${path}`, ADMIN_TOKEN, body);
  try {
    // The other organisation: a site with a month of collected-like events, read with a key of its own.
    const otherOrg = await adminCall('POST', '/orgs', { name: 'Reader' });
    const other = await adminCall('POST', `/orgs/${otherOrg.id}/sites`, { domain: 'reader.example', name: 'Reader', timezone: 'UTC' });
    const readKey = (await adminCall('POST', `/orgs/${otherOrg.id}/keys`, { name: 'dashboard' })).key as string;
    const ndjson = Array.from({ length: OTHER_EVENTS }, (_, i) =>
      JSON.stringify({ ts: now - 30 * DAY_MS + Math.floor((i * 29 * DAY_MS) / OTHER_EVENTS), ua: BROWSER_UA, ip: `10.1.${(i >> 10) & 255}.${(i >> 2) & 255}`, u: `https://reader.example/p/${i % 400}`, r: i % 3 === 0 ? 'https://www.google.com/' : undefined }),
    ).join('\n');
    const seeded = await fetch(`${service.url}/admin/v1/sites/${other.id}/events/import`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' }, body: ndjson });
    if (!seeded.ok) throw new Error(`the other site's events: ${seeded.status} ${await seeded.text()}`);
    // The importing organisation, its site and a manage key.
    const org = await adminCall('POST', '/orgs', { name: 'Importer' });
    const site = await adminCall('POST', `/orgs/${org.id}/sites`, { domain: 'importer.example', name: 'Importer', timezone: 'UTC' });
    const manageKey = (await adminCall('POST', `/orgs/${org.id}/keys`, { name: 'automation', scope: 'manage' })).key as string;
    const startRssMb = statusMb(pid, 'VmRSS');
    const started = performance.now();

    // The other organisation's dashboard reads, one after another until the imports end.
    const reads: Record<number, number> = {};
    const failedReads: string[] = [];
    const paths = ['stats?period=30d', 'timeseries?period=30d&metric=visitors', 'breakdown?period=30d&dimension=page&limit=10', 'breakdown?period=30d&dimension=referrer&limit=10', 'stats?period=7d&filter=page:/p/1'];
    let importing = true;
    const reading = (async () => {
      for (let i = 0; importing; i++) {
        let failure = '';
        const res = await fetch(`${service.url}/v1/sites/${other.id}/${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${readKey}` } }).catch((err: Error) => ((failure = `${err.message}: ${String(err.cause)}`), null));
        const status = res?.status ?? 0;
        reads[status] = (reads[status] ?? 0) + 1;
        const text = res ? await res.text() : failure;
        if (status !== 200 && failedReads.length < 5) failedReads.push(`${Math.round(performance.now() - started)} ms, ${paths[i % paths.length]}: ${text.slice(0, 300)}`);
      }
    })();
    const healthz = sampleHealthz([service.url], 100);

    // Both uploads at once, with the manage key; then each job until it ends.
    const created = await Promise.all(
      files.map((file, n) =>
        fetch(`${service.url}/app/v1/manage/sites/${site.id}/imports?source=umami&name=umami-${n}.csv.gz`, { method: 'POST', headers: { authorization: `Bearer ${manageKey}`, 'content-type': 'application/gzip' }, body: file }).then(async (res) => {
          const body = (await res.json()) as { importId?: string };
          if (res.status !== 202 || !body.importId) throw new Error(`upload ${n}: ${res.status} ${JSON.stringify(body)}`);
          return body.importId;
        }),
      ),
    );
    const imports: IsolationRun['imports'] = [];
    for (const id of created) {
      for (;;) {
        const { imports: jobs } = await call(service.url, 'GET', `/app/v1/manage/sites/${site.id}/imports`, manageKey);
        const job = jobs.find((j: { importId: string }) => j.importId === id);
        if (job.status === 'done' || job.status === 'failed') {
          imports.push({ status: job.status, accepted: job.rows, error: job.error });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    importing = false;
    await reading;
    const [waits] = await healthz.stop();
    return {
      uploadBytes: files.map((f) => f.length),
      imports,
      reads,
      failedReads,
      healthz: { samples: waits!.samples, failures: waits!.failures, worstMs: Math.round(waits!.worstMs) },
      peakRssMb: Math.round(statusMb(pid, 'VmHWM')),
      startRssMb: Math.round(startRssMb),
      seconds: Math.round((performance.now() - started) / 100) / 10,
      logs: service.logs(),
    };
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
