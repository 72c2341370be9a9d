// bench/raw-disk: the disk a year of bench/query's traffic takes on DuckDB when the site keeps its
// single events 13 months against 30 days (the `Keep single events` choice). One year is loaded,
// rolled up and measured with every raw event kept; then the site's rawDays drops to 30, the retention
// job runs, and it is measured again. Each figure is the size of a fresh copy of events.duckdb: a
// long-running store reuses the blocks deletes free, so a copy is what it settles at, not the file
// that held the whole year once.
//
//   npm run bench:raw-disk    (BENCH_PAGEVIEWS_PER_DAY, default 2 000: a tenth of bench/query's year;
//                              the difference is also printed scaled to 20 000 a day)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadConfig } from '../src/config.js';
import { startService, type RunningService } from '../src/server.js';
import { RAW_DAYS_CHOICES, SUGGESTED_RAW_DAYS } from '../src/core/vocabulary.js';
import { EVENTS_TABLE } from '../src/storage/events/schema.js';
import { fileLiteral, ROW_GROUP_ROWS } from '../src/storage/events/duckdb-file.js';
import { loadYearSite } from './year-site.js';

const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 2_000);
/** bench/query's year: the figures are scaled to it. */
const QUERY_PAGEVIEWS_PER_DAY = 20_000;
const DAYS = 365;
const TOKEN = 'bench-admin-token-0123456789';
const [SHORT, LONG] = [RAW_DAYS_CHOICES[0].days, SUGGESTED_RAW_DAYS];

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-raw-disk-'));
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: TOKEN, SVC_LOG_LEVEL: 'silent' });
const quiet = { info() {}, warn() {}, error() {} };
const start = () => startService(config, { log: quiet, maintenanceTimers: false });

function adminOf(service: RunningService) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };
}

/** Sets the site's rawDays, runs the retention job, stops the service and measures a compact copy of its events file. */
async function keptBytes(service: RunningService, siteId: string, rawDays: number): Promise<{ bytes: number; rawEvents: number }> {
  await adminOf(service)('PATCH', `/sites/${siteId}`, { rawDays });
  await service.ctx.maintenance.run(Date.now(), ['retention']);
  await service.stop();
  const copy = join(dataDir, `copy-${rawDays}.duckdb`);
  const instance = await DuckDBInstance.create(join(dataDir, 'events.duckdb'));
  const conn = await instance.connect();
  try {
    const rawEvents = Number((await conn.runAndReadAll(`SELECT count(*) AS n FROM ${EVENTS_TABLE.name}`)).getRowObjectsJS()[0]!.n);
    const name = String((await conn.runAndReadAll('SELECT current_database() AS name')).getRowObjectsJS()[0]!.name);
    // The copy with the store's row groups (DuckDB's default would compress a little better).
    await conn.run(`ATTACH ${fileLiteral(copy)} AS kept (ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`);
    await conn.run(`COPY FROM DATABASE "${name}" TO kept`);
    await conn.run('DETACH kept');
    return { bytes: statSync(copy).size, rawEvents };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
try {
  const first = await start();
  const loaded = await loadYearSite(first, adminOf(first), { pageviewsPerDay: PAGEVIEWS_PER_DAY, days: DAYS });
  console.log(`loaded ${loaded.rows.toLocaleString()} events (${loaded.pageviews.toLocaleString()} pageviews, ${DAYS} days) in ${(loaded.loadMs / 1000).toFixed(1)} s; rollups in ${(loaded.rollupMs / 1000).toFixed(1)} s`);
  const long = await keptBytes(first, loaded.siteId, LONG);
  const short = await keptBytes(await start(), loaded.siteId, SHORT);
  // Raw events and session rows grow with the traffic; the rollups much less (their keys repeat): only the difference is scaled.
  const scale = QUERY_PAGEVIEWS_PER_DAY / PAGEVIEWS_PER_DAY;
  for (const [days, kept] of [[LONG, long], [SHORT, short]] as const) console.log(`rawDays ${days}: ${kept.rawEvents.toLocaleString()} raw events, ${mb(kept.bytes)}`);
  const extra = long.bytes - short.bytes;
  console.log(
    `${LONG} days take ${mb(extra)} more than ${SHORT} (${(extra / (long.rawEvents - short.rawEvents)).toFixed(1)} B per raw event kept longer)${scale === 1 ? '' : `; ×${scale} (${QUERY_PAGEVIEWS_PER_DAY.toLocaleString()} pageviews a day): ${mb(extra * scale)}`}`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
