// bench/stats-statements: where `/stats?period=year` spends its time, statement by statement. Loads
// a few days of bench/query's traffic (today's up to half an hour ago), asks the year's stats over
// HTTP, and times each statement where the service runs it: side by side as the service runs them,
// or one at a time (BENCH_ONE_AT_A_TIME=1), on DuckDB or on a private ClickHouse server
// (BENCH_PROFILE=clickhouse).
// With BENCH_DATA_DIR (DuckDB), the data folder is kept: the first run loads the days there, later
// runs (of this or another checkout, on a copy of it) start a fresh process on it, the same day.
// The first line prints today's events and settled sessions, which the statements of today read.
//
//   node --expose-gc --import tsx bench/stats-statements.ts
//   BENCH_DAYS=4 BENCH_PAGEVIEWS_PER_DAY=20000 BENCH_REPEAT=40 BENCH_ONE_AT_A_TIME=1 BENCH_PROFILE=clickhouse node --expose-gc --import tsx bench/stats-statements.ts
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/server.js';
import { localDay } from '../src/core/localtime.js';
import { sql, trusted, type Sql } from '../src/sql/sql.js';
import { startClickHouse, type ClickHouseServer } from '../support/clickhouse.js';
import { loadYearSite, TZ, type YearSite } from './year-site.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 4);
const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 20_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 40);
const ONE_AT_A_TIME = process.env.BENCH_ONE_AT_A_TIME === '1';
const CLICKHOUSE = process.env.BENCH_PROFILE === 'clickhouse';
const TOKEN = 'bench-admin-token-0123456789';

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
const ms = (v: number) => v.toFixed(1).padStart(6);

/** A data folder kept between runs: the first run loads the site there, later runs of the same day start a fresh process on it. */
const KEPT_DIR = process.env.BENCH_DATA_DIR || undefined;
if (KEPT_DIR !== undefined && CLICKHOUSE) throw new Error('BENCH_DATA_DIR keeps DuckDB data only: ClickHouse runs on a private server of its own each time');
const dataDir = KEPT_DIR ?? mkdtempSync(join(tmpdir(), 'svc-bench-statements-'));
if (KEPT_DIR !== undefined) mkdirSync(KEPT_DIR, { recursive: true });
const siteFile = join(dataDir, 'bench-site.json');
const today = localDay(Date.now(), TZ);
const clickhouse: ClickHouseServer | undefined = CLICKHOUSE ? await startClickHouse() : undefined;
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  SVC_DATA_DIR: dataDir,
  SVC_ADMIN_TOKEN: TOKEN,
  SVC_API_RATE_LIMIT: '1000000/60s',
  SVC_LOG_LEVEL: 'silent',
  ...(clickhouse ? { SVC_CLICKHOUSE_URL: `${clickhouse.url}/svc` } : {}),
});
const quiet = { info() {}, warn() {}, error() {} };
const service = await startService(config, { log: quiet, maintenanceTimers: false });
try {
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as any;
  };
  const kept = KEPT_DIR !== undefined && existsSync(siteFile);
  const site: YearSite & { days: number; loadedOn: string } = kept
    ? JSON.parse(readFileSync(siteFile, 'utf8'))
    : { ...(await loadYearSite(service, admin, { pageviewsPerDay: PAGEVIEWS_PER_DAY, days: DAYS })), days: DAYS, loadedOn: today };
  // On another day, the loaded today is yesterday: read from raw events without its settlement.
  if (site.loadedOn !== today) throw new Error(`${siteFile} holds the days up to ${site.loadedOn}: load them again (an empty BENCH_DATA_DIR)`);
  if (KEPT_DIR !== undefined && !kept) writeFileSync(siteFile, JSON.stringify(site));
  (globalThis as { gc?: () => void }).gc?.();
  const [todays] = await service.ctx.events.query<{ events: bigint; settled: bigint }>(
    sql`SELECT (SELECT count(*) FROM events WHERE site_id = ${site.siteId} AND day = ${trusted(service.ctx.events.dialect.dateLiteral(today))}) AS events,
      (SELECT count(*) FROM settled_sessions WHERE site_id = ${site.siteId}) AS settled`,
  );

  // Each statement timed where the service runs it; one at a time, each waits for the one before.
  const events = service.ctx.events;
  const query = events.query.bind(events);
  const timings = new Map<string, number[]>();
  let measuring = false;
  let previous: Promise<unknown> = Promise.resolve();
  events.query = (async (statement: Sql, options?: object) => {
    let done = () => {};
    if (ONE_AT_A_TIME) {
      const before = previous;
      previous = new Promise<void>((resolve) => (done = resolve));
      await before;
    }
    const started = performance.now();
    try {
      return await query(statement, options);
    } finally {
      done();
      if (measuring) {
        const name = statement.text.replace(/\s+/g, ' ').slice(0, 110);
        (timings.get(name) ?? timings.set(name, []).get(name)!).push(performance.now() - started);
      }
    }
  }) as typeof events.query;

  const ask = async () => {
    const res = await fetch(`${service.url}/v1/sites/${site.siteId}/stats?period=year`, { headers: { authorization: `Bearer ${site.key}` } });
    if (res.status !== 200) throw new Error(`stats: ${res.status} ${await res.text()}`);
    await res.json();
  };
  for (let i = 0; i < 5; i++) await ask();
  measuring = true;
  const requests: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await ask();
    requests.push(performance.now() - started);
  }
  measuring = false;
  console.log(`${CLICKHOUSE ? 'ClickHouse' : 'DuckDB'}, ${site.days} days (${site.rows} events${kept ? ', loaded by an earlier run' : ''}; today ${todays!.events} events, ${todays!.settled} settled sessions), statements ${ONE_AT_A_TIME ? 'one at a time' : 'side by side'}, ${REPEAT} requests; p50 and p95 ms`);
  console.log(`${ms(percentile(requests, 0.5))} ${ms(percentile(requests, 0.95))}  the request`);
  for (const [name, values] of timings) console.log(`${ms(percentile(values, 0.5))} ${ms(percentile(values, 0.95))}  ×${values.length / REPEAT} ${name}`);
} finally {
  await service.stop();
  await clickhouse?.stop();
  if (KEPT_DIR === undefined) rmSync(dataDir, { recursive: true, force: true });
}
