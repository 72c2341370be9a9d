// A site whose day holds `sessions` sessions of `pageviews` pageviews each, every path `pathBytes`
// long and its own, sent to a real process started as `npm start` does; then its own heavy reads
// of that day (exit pages, entry pages, journeys): what each answered and the process's peak
// resident memory (test/stats/heavy-day-reads.test.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService } from './child.js';
import { ADMIN_TOKEN, BROWSER_UA } from './server.js';

export interface HeavyDayRun {
  /** Each read's path, status, time and body. */
  reads: Array<{ path: string; status: number; ms: number; body: string }>;
  /** The process's peak resident memory (VmHWM) while it read, and before, while it took the events, in MB. */
  peakRssMb: number;
  peakBeforeReadsMb: number;
  logs: string;
}

const statusMb = (pid: number, field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** The reads of the heavy day, each `rounds` times. */
export const HEAVY_READS = ['breakdown?period=today&dimension=exit&limit=10', 'breakdown?period=today&dimension=entry&limit=10', 'breakdown?period=today&dimension=page&limit=10', 'journeys?period=today'];

/** `cwd`: the checkout whose build runs (another one's, to compare). */
export async function heavyDay(options: { sessions: number; pageviews: number; pathBytes: number; budgetMb?: number; rounds?: number; cwd?: string }): Promise<HeavyDayRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-heavy-day-'));
  const env: Record<string, string> = { SVC_API_RATE_LIMIT: '1000000/60s' };
  if (options.budgetMb !== undefined) env.SVC_MEMORY_BUDGET_MB = String(options.budgetMb);
  const service = await spawnService(dataDir, env, options.cwd);
  const pid = service.child.pid!;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  try {
    const org = await admin('POST', '/orgs', { name: 'Heavy' });
    const site = await admin('POST', `/orgs/${org.id}/sites`, { domain: 'heavy.example', name: 'Heavy', timezone: 'UTC' });
    const key = (await admin('POST', `/orgs/${org.id}/keys`, { name: 'dashboard' })).key as string;
    // Today's sessions, from midnight (UTC) to a minute ago: each visitor its own address.
    const now = Date.now();
    const midnight = Math.floor(now / 86_400_000) * 86_400_000;
    const span = Math.max(60_000, now - 60_000 - midnight - options.pageviews * 1000);
    const lines: string[] = [];
    const send = async () => {
      const res = await fetch(`${service.url}/admin/v1/sites/${site.id}/events/import`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' }, body: lines.join('\n') });
      if (!res.ok) throw new Error(`events: ${res.status} ${await res.text()}`);
      lines.length = 0;
    };
    for (let s = 0; s < options.sessions; s++) {
      const start = midnight + Math.floor((s * span) / options.sessions);
      for (let p = 0; p < options.pageviews; p++) {
        const path = `/s/${s}/${p}/`.padEnd(options.pathBytes, 'abcdefghij');
        lines.push(JSON.stringify({ ts: start + p * 1000, ua: BROWSER_UA, ip: `10.${(s >> 16) & 255}.${(s >> 8) & 255}.${s & 255}`, u: `https://heavy.example${path}` }));
      }
      if (lines.length >= 20_000) await send();
    }
    if (lines.length > 0) await send();
    const peakBeforeReadsMb = statusMb(pid, 'VmHWM');
    // The peak starts again from what the process holds now (Linux: 5 resets VmHWM), so that it is the reads'.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const reads: HeavyDayRun['reads'] = [];
    for (let round = 0; round < (options.rounds ?? 1); round++) {
      for (const path of HEAVY_READS) {
        const started = performance.now();
        const res = await fetch(`${service.url}/v1/sites/${site.id}/${path}`, { headers: { authorization: `Bearer ${key}` } });
        const body = await res.text();
        reads.push({ path, status: res.status, ms: Math.round(performance.now() - started), body });
      }
    }
    return { reads, peakRssMb: Math.round(statusMb(pid, 'VmHWM')), peakBeforeReadsMb: Math.round(peakBeforeReadsMb), logs: service.logs() };
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
