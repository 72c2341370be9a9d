// bench/session-memory: bytes of heap a live session holds on the collection path. Starts N sessions
// (bench/ingest's visitors, one event each, through the ingestor's steps on a real data dir), then
// lets go of the rate limiter's entries and of the sessions in turn, and prints the heap each held,
// per visitor, beside the session cache's own estimate (what its byte bound counts).
//
//   npm run build && node --expose-gc --import tsx bench/session-memory.ts     (BENCH_SESSIONS: 100000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { ManualClock } from '../src/core/clock.js';
import { SESSION_GAP_MS } from '../src/core/session-gap.js';
import { startService } from '../src/server.js';
import { SessionCache } from '../src/storage/counters/memory-sessions.js';
import { visitEvent } from './traffic.js';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
const TOKEN = 'bench-admin-token-0123456789';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sessions-'));
const clock = new ManualClock(Date.now());
const quiet = { info() {}, warn() {}, error() {} };
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: TOKEN, SVC_MEMORY_BUDGET_MB: '4096' });
const service = await startService(config, { clock, log: quiet, maintenanceTimers: false });
try {
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${service.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, any>;
  };
  const org = await admin('/orgs', { name: 'Bench' });
  const domain = 'bench.example';
  const site = await admin(`/orgs/${org.id}/sites`, { domain, name: 'Bench', timezone: 'UTC' });
  const ingest = service.ctx.ingest;
  const sessions = ingest.sessions;
  if (!(sessions instanceof SessionCache)) throw new Error('bench/session-memory measures the in-process session cache (no SVC_REDIS_URL)');
  const collect = (visitor: number) => {
    const { ip, ua, event } = visitEvent(visitor * 4);
    return ingest.collect({ body: Buffer.from(JSON.stringify({ s: site.id, ...event })), origin: `https://${domain}`, userAgent: ua, socketIp: ip, relay: {} });
  };
  // Warm: the site, the day's salt, the parsers' caches; then an empty cache to start from.
  await collect(SESSIONS + 1);
  await ingest.flush();
  sessions.sweep(clock.now() + SESSION_GAP_MS);
  const empty = heapAfterGc();

  for (let v = 0; v < SESSIONS; v++) {
    const outcome = collect(v);
    if (outcome instanceof Promise) await outcome;
    if (v % 10_000 === 0) await ingest.flush();
  }
  await ingest.flush();
  const live = sessions.size;
  const estimate = sessions.estimatedBytes;
  const loaded = heapAfterGc();

  // The rate limiter forgets a network one to two windows after its last hit (on a later hit).
  clock.advance(2 * config.collectRateLimit.windowMs);
  await collect(SESSIONS + 2);
  await ingest.flush();
  const withoutLimiter = heapAfterGc();
  sessions.sweep(clock.now() + SESSION_GAP_MS);
  const withoutSessions = heapAfterGc();

  const per = (bytes: number) => (bytes / live).toFixed(0);
  console.log(`live sessions: ${live} (of ${SESSIONS} visitors)`);
  console.log(`heap with them: +${((loaded - empty) / 1048576).toFixed(1)} MB, ${per(loaded - empty)} bytes a visitor`);
  console.log(`  rate limiter (one entry a network, for ${config.collectRateLimit.windowMs / 1000} s): ${per(loaded - withoutLimiter)} bytes a visitor`);
  console.log(`  session cache: ${per(withoutLimiter - withoutSessions)} bytes a session (the cache counts ${per(estimate)})`);
  console.log(`  shared attribute values (bounded table, stays): ${per(withoutSessions - empty)} bytes a visitor`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
