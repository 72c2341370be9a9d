// bench/stats-statements: where a read (`/stats?period=year`, or BENCH_READ) spends its time,
// statement by statement. Loads a few days of bench/query's traffic (today's up to half an hour
// ago), asks the read over HTTP, and times each statement where the service runs it: side by side as
// the service runs them, or one at a time (BENCH_ONE_AT_A_TIME=1), on DuckDB or on a private
// ClickHouse server (BENCH_PROFILE=clickhouse). With BENCH_ALONE=1 (DuckDB), each distinct statement
// of one request then runs alone, BENCH_REPEAT times, and the bench prints its time and the process's
// CPU time (user + system, DuckDB's threads included) a run. On ClickHouse the bench also prints the
// server's own CPU time a request and each statement's, from its query log.
// With BENCH_DIALECT (a JSON object of Dialect members, e.g. '{"fewRowsClause":""}'), a second
// series of requests runs under the engine's dialect with those members changed, in turn with the
// engine's own over BENCH_ROUNDS rounds, and the bench prints the ratios: two forms of the
// statements compared in one process, on the same data and the same machine's minute.
// With BENCH_DATA_DIR (DuckDB), the data folder is kept: the first run loads the days there, later
// runs (of this or another checkout, on a copy of it) start a fresh process on it, the same day.
// The first line prints today's events, which the statements of today read.
//
//   node --expose-gc --import tsx bench/stats-statements.ts
//   BENCH_DAYS=4 BENCH_PAGEVIEWS_PER_DAY=20000 BENCH_REPEAT=40 BENCH_ONE_AT_A_TIME=1 BENCH_PROFILE=clickhouse node --expose-gc --import tsx bench/stats-statements.ts
//   BENCH_READ='breakdown?period=year&dimension=page' BENCH_ALONE=1 BENCH_DATA_DIR=/tmp/year node --expose-gc --import tsx bench/stats-statements.ts
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/server.js';
import { localDay } from '../src/core/localtime.js';
import { sql, trusted, type Sql } from '../src/sql/sql.js';
import type { Dialect } from '../src/sql/dialect.js';
import { duckdbDialect } from '../src/storage/events/duckdb-dialect.js';
import { statementKey } from '../src/stats/shared-reads.js';
import type { ReadOptions } from '../src/storage/events/types.js';
import { startClickHouse, type ClickHouseServer } from '../support/clickhouse.js';
import { loadYearSite, TZ, type YearSite } from './year-site.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 4);
const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 20_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 40);
const ONE_AT_A_TIME = process.env.BENCH_ONE_AT_A_TIME === '1';
const CLICKHOUSE = process.env.BENCH_PROFILE === 'clickhouse';
/** The read asked: a path under /v1/sites/:id/ with its query. */
const READ = process.env.BENCH_READ ?? 'stats?period=year';
const ALONE = process.env.BENCH_ALONE === '1';
if (ALONE && CLICKHOUSE) throw new Error("BENCH_ALONE counts this process's CPU time: ClickHouse runs its statements in a server of its own");
/**
 * Dialect members (JSON) overriding the engine's for a second series of requests, in turn with the
 * engine's own over BENCH_ROUNDS rounds (4 by default then): the bench prints both and their ratios.
 */
const DIALECT_SWITCH = process.env.BENCH_DIALECT ? (JSON.parse(process.env.BENCH_DIALECT) as Partial<Dialect>) : null;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (DIALECT_SWITCH ? 4 : 1));
const unknownMembers = Object.keys(DIALECT_SWITCH ?? {}).filter((member) => !(member in duckdbDialect));
if (unknownMembers.length > 0) throw new Error(`BENCH_DIALECT: a dialect has no member ${unknownMembers.join(', ')}`);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS: a whole number of rounds, at least 1 (${process.env.BENCH_ROUNDS})`);
if (ALONE && DIALECT_SWITCH) throw new Error('BENCH_ALONE runs the statements of the engine\'s dialect alone: leave BENCH_DIALECT out');
const TOKEN = 'bench-admin-token-0123456789';

const label = (statement: Sql) => statement.text.replace(/\s+/g, ' ').slice(0, 110);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
const ms = (v: number) => v.toFixed(1).padStart(6);

/** `run` REPEAT times in turn (`after` each): each run's time, and the process's CPU time (user + system, every thread) a run. */
async function timedRuns(run: () => Promise<unknown>, after = () => {}): Promise<{ times: number[]; cpuMs: number }> {
  const times: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
    after();
  }
  const cpu = process.cpuUsage(before);
  return { times, cpuMs: (cpu.user + cpu.system) / 1000 / REPEAT };
}

/** A data folder kept between runs: the first run loads the site there, later runs of the same day start a fresh process on it. */
const KEPT_DIR = process.env.BENCH_DATA_DIR || undefined;
if (KEPT_DIR !== undefined && CLICKHOUSE) throw new Error('BENCH_DATA_DIR keeps DuckDB data only: ClickHouse runs on a private server of its own each time');
const dataDir = KEPT_DIR ?? mkdtempSync(join(tmpdir(), 'svc-bench-statements-'));
if (KEPT_DIR !== undefined) mkdirSync(KEPT_DIR, { recursive: true });
const siteFile = join(dataDir, 'bench-site.json');
const today = localDay(Date.now(), TZ);
const clickhouse: ClickHouseServer | undefined = CLICKHOUSE ? await startClickHouse({ logQueries: true }) : undefined;
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
  // On another day, the loaded today is yesterday: rolled up, no longer read from raw events.
  if (site.loadedOn !== today) throw new Error(`${siteFile} holds the days up to ${site.loadedOn}: load them again (an empty BENCH_DATA_DIR)`);
  if (KEPT_DIR !== undefined && !kept) writeFileSync(siteFile, JSON.stringify(site));
  // ClickHouse may merge the load's parts in the background: measured meanwhile, the reads would
  // share the 2 cores with the merges. The bench waits for the merges of its database to end.
  let mergesWaited = 0;
  if (CLICKHOUSE) {
    const started = Date.now();
    const merging = async () => Number((await service.ctx.events.query<{ n: unknown }>(sql`SELECT count() AS n FROM system.merges WHERE database = currentDatabase()`))[0]!.n);
    while ((await merging()) > 0) {
      if (Date.now() - started > 15 * 60_000) throw new Error('ClickHouse still merges the loaded parts after 15 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    mergesWaited = (Date.now() - started) / 1000;
  }
  (globalThis as { gc?: () => void }).gc?.();
  const todayIs = sql`site_id = ${site.siteId} AND day = ${trusted(service.ctx.events.dialect.dateLiteral(today))}`;
  const [todays] = await service.ctx.events.query<{ events: bigint }>(sql`SELECT count(*) AS events FROM events WHERE ${todayIs}`);

  // Each statement timed where the service runs it; one at a time, each waits for the one before.
  // A page of rows (a breakdown's) is a statement of its own; DuckDB's runs through `query`, timed once.
  const events = service.ctx.events;
  const query = events.query.bind(events);
  const queryPage = events.queryPage.bind(events);
  let timings = new Map<string, number[]>();
  /** The distinct statements of the last request, by text and parameters, each with how to run it again. */
  const lastRequest = new Map<string, { statement: Sql; run: () => Promise<unknown> }>();
  const inTimed = new AsyncLocalStorage<true>();
  /** The last request's first statement's start and last statement's end. */
  let span = { first: Infinity, last: 0 };
  let measuring = false;
  let previous: Promise<unknown> = Promise.resolve();
  async function timed<T>(statement: Sql, run: () => Promise<T>): Promise<T> {
    if (inTimed.getStore()) return run();
    let done = () => {};
    if (ONE_AT_A_TIME) {
      const before = previous;
      previous = new Promise<void>((resolve) => (done = resolve));
      await before;
    }
    const started = performance.now();
    span.first = Math.min(span.first, started);
    try {
      return await inTimed.run(true, run);
    } finally {
      done();
      span.last = performance.now();
      if (measuring) {
        (timings.get(label(statement)) ?? timings.set(label(statement), []).get(label(statement))!).push(performance.now() - started);
        lastRequest.set(statementKey(statement), { statement, run });
      }
    }
  }
  events.query = ((statement: Sql, options?: ReadOptions) => timed(statement, () => query(statement, options))) as typeof events.query;
  events.queryPage = ((statement: Sql, options?: ReadOptions) => timed(statement, () => queryPage(statement, options))) as typeof events.queryPage;

  const ask = async () => {
    lastRequest.clear();
    span = { first: Infinity, last: 0 };
    const res = await fetch(`${service.url}/v1/sites/${site.siteId}/${READ}`, { headers: { authorization: `Bearer ${site.key}` } });
    if (res.status !== 200) throw new Error(`${READ}: ${res.status} ${await res.text()}`);
    await res.json();
  };
  /** The CPU time ClickHouse spent on each statement that ended since `from` (ms epoch), by statement, and their total. */
  async function clickhouseCpu(from: number): Promise<{ total: number; statements: Map<string, number[]> }> {
    const flushed = await fetch(`${clickhouse!.url}/`, { method: 'POST', body: 'SYSTEM FLUSH LOGS' });
    if (!flushed.ok) throw new Error(`SYSTEM FLUSH LOGS: ${flushed.status} ${await flushed.text()}`);
    const runs = await events.query<{ query: string; cpu: unknown }>(
      sql`SELECT query, ProfileEvents.Values[indexOf(ProfileEvents.Names, 'OSCPUVirtualTimeMicroseconds')] AS cpu FROM system.query_log
        WHERE type = 2 AND event_time >= toDateTime(${Math.floor(from / 1000)}) AND query NOT LIKE '%system.%'`,
    );
    const statements = new Map<string, number[]>();
    let total = 0;
    for (const run of runs) {
      const cpuMs = Number(run.cpu) / 1000;
      total += cpuMs;
      const name = run.query.replace(/\s+/g, ' ').slice(0, 110);
      (statements.get(name) ?? statements.set(name, []).get(name)!).push(cpuMs);
    }
    return { total, statements };
  }
  // The first request, with the engine's caches cold.
  const firstStarted = performance.now();
  await ask();
  const first = performance.now() - firstStarted;
  /** A series of requests under one dialect, measured over rounds. */
  interface Series {
    readonly name: string;
    readonly dialect: Dialect;
    readonly requests: number[];
    readonly spans: number[];
    cpuMs: number;
    serverCpuMs: number;
    readonly timings: Map<string, number[]>;
    readonly serverStatements: Map<string, number[]>;
  }
  const series = (name: string, dialect: Dialect): Series => ({ name, dialect, requests: [], spans: [], cpuMs: 0, serverCpuMs: 0, timings: new Map(), serverStatements: new Map() });
  const variants = [series(CLICKHOUSE ? 'ClickHouse' : 'DuckDB', events.dialect)];
  if (DIALECT_SWITCH) variants.push(series(`dialect with ${JSON.stringify(DIALECT_SWITCH)}`, { ...events.dialect, ...DIALECT_SWITCH }));
  for (let round = 0; round < ROUNDS; round++) {
    // In turn, the order reversed every other round.
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      Object.defineProperty(events, 'dialect', { value: variant.dialect, configurable: true });
      for (let i = 0; i < 5; i++) await ask();
      timings = variant.timings;
      measuring = true;
      // The query log counts whole seconds: measuring starts on one, after the warm-up's statements.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const measuredFrom = Date.now();
      const { times, cpuMs } = await timedRuns(ask, () => {
        if (span.first <= span.last) variant.spans.push(span.last - span.first);
      });
      measuring = false;
      variant.requests.push(...times);
      variant.cpuMs += cpuMs / ROUNDS;
      if (clickhouse) {
        const server = await clickhouseCpu(measuredFrom);
        variant.serverCpuMs += server.total / REPEAT / ROUNDS;
        for (const [name, values] of server.statements) (variant.serverStatements.get(name) ?? variant.serverStatements.set(name, []).get(name)!).push(...values);
      }
    }
  }
  console.log(`${CLICKHOUSE ? 'ClickHouse' : 'DuckDB'}, ${site.days} days (${site.rows} events${kept ? ', loaded by an earlier run' : ''}; today ${todays!.events} events; ${TZ}), ${READ}, statements ${ONE_AT_A_TIME ? 'one at a time' : 'side by side'}, ${REPEAT} requests${ROUNDS > 1 ? ` a round, ${ROUNDS} rounds` : ''}${CLICKHOUSE ? ` after ${mergesWaited.toFixed(0)} s of the server's merges` : ''}; p50 and p95 ms`);
  console.log(`${' '.repeat(7)}${ms(first)}  the process's first request`);
  for (const variant of variants) {
    if (variants.length > 1) console.log(`-- ${variant.name}`);
    console.log(`${ms(percentile(variant.requests, 0.5))} ${ms(percentile(variant.requests, 0.95))}  the request`);
    if (variant.spans.length > 0) console.log(`${ms(percentile(variant.spans, 0.5))} ${ms(percentile(variant.spans, 0.95))}  from its first statement's start to its last statement's end`);
    console.log(`${' '.repeat(7)}${ms(variant.cpuMs)}  CPU ms a request (this process: ${CLICKHOUSE ? '' : "DuckDB's threads, "}the service and the bench's HTTP client)`);
    for (const [name, values] of variant.timings) console.log(`${ms(percentile(values, 0.5))} ${ms(percentile(values, 0.95))}  ×${values.length / REPEAT / ROUNDS} ${name}`);
    if (clickhouse) {
      // The server's own CPU time (its query log), whatever else the machine runs meanwhile.
      console.log(`ClickHouse's CPU time (its query log): ${ms(variant.serverCpuMs)} ms a request; p50 ms a statement:`);
      for (const [name, values] of variant.serverStatements) console.log(`${ms(percentile(values, 0.5))}  ${name}`);
    }
  }
  const [engine, switched] = variants;
  if (engine && switched) {
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log(`the engine's dialect / ${switched.name}: the request p50 ${ratio(percentile(engine.requests, 0.5), percentile(switched.requests, 0.5))}, p95 ${ratio(percentile(engine.requests, 0.95), percentile(switched.requests, 0.95))}, process CPU a request ${ratio(engine.cpuMs, switched.cpuMs)}${clickhouse ? `, ClickHouse's CPU a request ${ratio(engine.serverCpuMs, switched.serverCpuMs)}` : ''}`);
  }
  Object.defineProperty(events, 'dialect', { value: engine!.dialect, configurable: true });
  if (ALONE) {
    // Each statement alone: nothing else runs, so the process's CPU time is the statement's (its
    // run on DuckDB's threads and its rows converted), whatever the machine's other load.
    console.log(`each statement alone, ${REPEAT} runs: p50 ms, CPU ms a run`);
    let cpuTotal = 0;
    for (const { statement, run } of lastRequest.values()) {
      const { times, cpuMs } = await timedRuns(run);
      cpuTotal += cpuMs;
      console.log(`${ms(percentile(times, 0.5))} ${ms(cpuMs)}  ${label(statement)}`);
    }
    console.log(`${' '.repeat(7)}${ms(cpuTotal)}  CPU ms of the ${lastRequest.size} statements`);
  }
} finally {
  await service.stop();
  await clickhouse?.stop();
  if (KEPT_DIR === undefined) rmSync(dataDir, { recursive: true, force: true });
}
