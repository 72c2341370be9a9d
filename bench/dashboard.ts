// bench/dashboard: the site dashboard in Chromium on the year site of bench/query (10.6 M events by
// default, single events kept 13 months). Prints, for the 30d view, the year view and the year view
// with one filter (country:US, about half the sessions), p50/p95 over 20 loads of the time from
// navigation start to every figure filled (KPI tiles, chart, the five panels; a panel showing an
// error fails the run), where that time goes (medians: the first /app/v1 request's start, the
// session's answer, the last answer; the CPU time of the service's process, of ClickHouse's on that
// engine, of the page's main thread and of all of Chromium's processes over a load), and the JavaScript and CSS the page loads,
// raw and gzip. With --baseline, the same loads against another checkout of the service (its own
// server and dashboard, on the same data), round by round in turn, and the ratios.
//
//   npm run bench:dashboard                      (the full year: about 10.6 M events, on DuckDB)
//   npm run bench:dashboard -- --events 500000   (a smaller year for a quick run)
//   npm run bench:dashboard -- --engine clickhouse   (Debian's ClickHouse 18.16; with SVC_TEST_CLICKHOUSE=chdb the current one)
//   options: --events N, --loads N (20 per view and round; 0: only the reads alone of --reads),
//            --rounds N (1; 2 with --baseline),
//            --baseline DIR (a checkout, e.g. of main: `git worktree add DIR main`),
//            --data DIR (keeps the loaded year there, ClickHouse's files included, and uses it
//            again on a later run of the same day and engine),
//            --views 30d,year,year-filtered (the views loaded; all three by default),
//            --engine duckdb|clickhouse (the event store: DuckDB in the data folder, or a private
//            ClickHouse server the bench starts and stops, as the tests do; duckdb by default),
//            --timeout S (60: how long a load may take to fill before the run fails),
//            --idle S (waits S seconds before each load, so that each comes to a process that has
//            idled: its idle checks have collected the heap and emptied DuckDB's pool),
//            --reads (also prints each /app/v1 read's median time in the page, from its start to
//            its answer's end, and each read of a view asked alone, one after the other, 5 times,
//            with the service's CPU over it, on every checkout)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { sitePath } from '../src/core/app-paths.js';
import { dashboardReads } from '../src/core/dashboard-reads.js';
import { localDay } from '../src/core/localtime.js';
import { sql } from '../src/sql/sql.js';
import { CLICKHOUSE_ENGINES, startClickHouse, testEngine, type ClickHouseServer } from '../support/clickhouse.js';
import { variantAt, type Variant } from './checkouts.js';
import { loadYearSite, TZ } from './year-site.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    loads: { type: 'string' },
    rounds: { type: 'string' },
    baseline: { type: 'string' },
    data: { type: 'string' },
    views: { type: 'string' },
    engine: { type: 'string' },
    reads: { type: 'boolean' },
    idle: { type: 'string' },
    timeout: { type: 'string' },
  },
});
const EVENTS = Number(values.events ?? 10_600_000);
const LOADS = Number(values.loads ?? 20);
const IDLE_MS = Number(values.idle ?? 0) * 1000;
/** How long a load may take to fill before the run fails. */
const FILL_TIMEOUT_MS = Number(values.timeout ?? 60) * 1000;
const ROUNDS = Number(values.rounds ?? (values.baseline ? 2 : 1));
const DAYS = 365;
/** bench/query's sessions hold about 1.45 events per pageview (engagement, custom events). */
const EVENTS_PER_PAGEVIEW = 1.45;
const TOKEN = 'bench-admin-token-0123456789';
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password 0123';
/**
 * The views a run can load: each one's query in the dashboard's address. The filtered year's
 * country is the generated year's most frequent (bench/year-site.ts: about half the sessions).
 */
const VIEW_QUERIES: Readonly<Record<string, string>> = {
  '30d': 'period=30d',
  year: 'period=year',
  'year-filtered': 'period=year&filter=country:US',
};
const VIEWS = values.views?.split(',') ?? Object.keys(VIEW_QUERIES);
for (const view of VIEWS) if (!(view in VIEW_QUERIES)) throw new Error(`--views: unknown view ${view} (${Object.keys(VIEW_QUERIES).join(', ')})`);
const ENGINE = values.engine ?? 'duckdb';
if (ENGINE !== 'duckdb' && ENGINE !== 'clickhouse') throw new Error(`--engine: unknown engine ${ENGINE} (duckdb, clickhouse)`);
/** The engine named in the kept year and the figures: ClickHouse's is Debian's server, or the current one with SVC_TEST_CLICKHOUSE=chdb. */
const ENGINE_NAME = ENGINE === 'clickhouse' ? `clickhouse (${CLICKHOUSE_ENGINES[testEngine()]})` : ENGINE;
/** The database the service's events go to on the bench's ClickHouse server. */
const CLICKHOUSE_DATABASE = 'svc_bench';

/**
 * Runs in the page before its scripts: records performance.now() (milliseconds from navigation
 * start) the first time the overview, the chart and the five panels all hold an answer, and
 * resolves `__filled` then. The bench waits on that promise: polling the page for it (Playwright's
 * waitForFunction asks at every animation frame) made Chromium draw frames the whole load long, on
 * the cores the service answers from.
 */
const FILLED_PROBE = `
  let resolveFilled;
  window.__filled = new Promise((resolve) => (resolveFilled = resolve));
  const filled = () => {
    const parts = document.querySelectorAll('[data-panel]');
    return parts.length >= 7 && Array.prototype.every.call(parts, (p) => p.getAttribute('data-state') !== 'loading');
  };
  new MutationObserver((_, observer) => {
    if (window.__filledAt === undefined && filled()) {
      window.__filledAt = performance.now();
      resolveFilled(window.__filledAt);
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

/** Waits until every part of the page's dashboard holds an answer (FILLED_PROBE), at most `timeoutMs`. */
async function filledIn(page: Page, timeoutMs = FILL_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(`the dashboard was not filled in ${timeoutMs} ms`)), timeoutMs)));
  try {
    await Promise.race([page.evaluate(() => (window as unknown as { __filled: Promise<number> }).__filled), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The bytes of the body the server sends for `url` to a client that accepts `encoding` (node:http does not decode). */
function bytesSent(url: string, encoding: string): Promise<number> {
  return new Promise((done, fail) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => (n += chunk.length));
      res.on('end', () => done(n));
      res.on('error', fail);
    }).on('error', fail);
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** One load's times, in milliseconds from navigation start. */
interface Load {
  /** Every part filled. */
  filled: number;
  /** The first request to /app/v1 starts (the page's script runs, or the shell's preloads). */
  firstRead: number;
  /** The session's answer ends (the page renders nothing before it). */
  session: number;
  /** The last /app/v1 answer ends. */
  lastAnswer: number;
  /** CPU time of the service's process (and of the bench's own driver, the same for every checkout) over the load. */
  serverCpu: number;
  /** CPU time of the page's main thread over the load (Chromium's ThreadTime). */
  pageCpu: number;
  /** CPU time of every Chromium process over the load (its renderers, GPU and network processes, and the browser's own). */
  browserCpu: number;
  /** CPU time of the ClickHouse server over the load (NaN on DuckDB, which runs in the service's process). */
  storeCpu: number;
  /** Each /app/v1 read's time from its start to its answer's end, by read (`breakdown page`, `stats`, ...). */
  reads: Record<string, number>;
}

/** What a kept year holds: its site, the day it was loaded (a later day reads days past its rollups), and its engine. */
interface KeptYear {
  orgId: number;
  siteId: string;
  day: string;
  events: number;
  /** Absent in a year kept before the bench had engines: DuckDB's. */
  engine?: string;
}

/** The event store the services of a run read: DuckDB in the data folder, or the bench's ClickHouse server. */
interface Store {
  env: Record<string, string>;
  clickhouse: ClickHouseServer | null;
}

async function start(variant: Variant, dataDir: string, store: Store) {
  const config = variant.loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: TOKEN,
    SVC_APP_RATE_LIMIT: '1000000/60s',
    SVC_LOG_LEVEL: 'silent',
    ...store.env,
  });
  // No maintenance timers: the loader runs the rollups once the year is in (a timer firing mid-load would roll up, then drop, raw days of a year half loaded).
  return variant.startService(config, { log: { info() {}, warn() {}, error() {} }, maintenanceTimers: false });
}

/** The year in `dataDir`: the kept one, or one loaded now (and kept when `keep`). */
async function yearIn(variant: Variant, dataDir: string, store: Store, keep: boolean): Promise<KeptYear> {
  const keptFile = join(dataDir, 'bench-dashboard.json');
  const today = localDay(Date.now(), TZ);
  if (existsSync(keptFile)) {
    const kept = JSON.parse(readFileSync(keptFile, 'utf8')) as KeptYear;
    if (kept.day === today && kept.events === EVENTS && (kept.engine ?? 'duckdb') === ENGINE_NAME) {
      console.log(`the year of ${dataDir} (loaded today, --events ${EVENTS}, --engine ${ENGINE_NAME})`);
      return kept;
    }
    throw new Error(`${dataDir} holds a year of ${kept.events} events on ${kept.engine ?? 'duckdb'} loaded on ${kept.day}: remove it, or name another folder`);
  }
  const service = await start(variant, dataDir, store);
  try {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const pageviewsPerDay = Math.max(10, Math.round(EVENTS / DAYS / EVENTS_PER_PAGEVIEW));
    const year = await loadYearSite(service, admin, { pageviewsPerDay, days: DAYS });
    console.log(`loaded ${year.rows.toLocaleString()} events (${year.pageviews.toLocaleString()} pageviews, ${DAYS} days) in ${(year.loadMs / 1000).toFixed(1)} s; rollups in ${(year.rollupMs / 1000).toFixed(1)} s`);
    if (store.clickhouse) {
      // ClickHouse merges the load's parts in the background: measured meanwhile, the loads would share the 2 cores with the merges.
      const started = Date.now();
      const merging = async () => Number((await service.ctx.events.query<{ n: unknown }>(sql`SELECT count() AS n FROM system.merges WHERE database = currentDatabase()`))[0]!.n);
      while ((await merging()) > 0) {
        if (Date.now() - started > 15 * 60_000) throw new Error('ClickHouse still merges the loaded parts after 15 minutes');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      console.log(`ClickHouse's merges of the load done ${((Date.now() - started) / 1000).toFixed(0)} s later`);
    }
    const user = await admin('POST', '/users', { email: EMAIL, password: PASSWORD, name: 'Bench' });
    await admin('PUT', `/orgs/${year.orgId}/members/${user.id}`, { role: 'viewer' });
    const kept: KeptYear = { orgId: year.orgId, siteId: year.siteId, day: today, events: EVENTS, engine: ENGINE_NAME };
    if (keep) writeFileSync(keptFile, JSON.stringify(kept));
    return kept;
  } finally {
    await service.stop();
  }
}

/** Reads the times of the load shown in the page. */
const loadTimes = () => {
  const reads = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => new URL(e.name).pathname.startsWith('/app/v1/'));
  const session = reads.find((e) => new URL(e.name).pathname === '/app/v1/session');
  // Each read by its last path segment and dimension; one asked twice (a preload, then the script) counts its first.
  const byRead: Record<string, number> = {};
  for (const e of reads) {
    const url = new URL(e.name);
    const name = [url.pathname.split('/').pop(), url.searchParams.get('dimension')].filter(Boolean).join(' ');
    byRead[name] ??= e.responseEnd - e.startTime;
  }
  return {
    filled: (window as unknown as { __filledAt: number }).__filledAt,
    firstRead: Math.min(...reads.map((e) => e.startTime)),
    session: session?.responseEnd ?? NaN,
    lastAnswer: Math.max(...reads.map((e) => e.responseEnd)),
    reads: byRead,
  };
};

/** The stats reads' addresses in the page: a view's filters must be in them (the bench measures the view it names). */
const statsReads = () => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => /^\/app\/v1\/sites\/[^/]+\/stats$/.test(new URL(name).pathname));

/**
 * Times each read a view starts with (the installation's aside) asked alone over HTTP, one after
 * the other, then all of them at once as the page asks them: the median of `times` each.
 */
async function readsAlone(serviceUrl: string, cookie: string, siteId: string, view: string, times: number): Promise<string[]> {
  const reads = dashboardReads(VIEW_QUERIES[view]!).filter((r) => r.path !== '/installation');
  const ask = async (read: (typeof reads)[number]) => {
    const res = await fetch(`${serviceUrl}/app/v1${sitePath(siteId, read)}`, { headers: { cookie: `svc_session=${cookie}` } });
    if (res.status !== 200) throw new Error(`${view}: ${read.path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  // The service runs in this process: its CPU over a read (DuckDB's threads included) is the process's.
  const median = async (run: () => Promise<unknown>) => {
    const took: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      const before = process.cpuUsage();
      await run();
      const used = process.cpuUsage(before);
      took.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    const mid = (values: number[]) => quantile(values.sort((a, b) => a - b), 0.5).toFixed(0);
    return `${mid(took)} (CPU ${mid(cpu)})`;
  };
  const medians: string[] = [];
  for (const read of reads) medians.push(`${[read.path.slice(1), read.params?.get('dimension')].filter(Boolean).join(' ')} ${await median(() => ask(read))}`);
  medians.push(`all ${reads.length} at once ${await median(() => Promise.all(reads.map(ask)))}`);
  return medians;
}

/** CPU milliseconds of a process of this machine (utime + stime in /proc, clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU milliseconds of the processes this bench started (Chromium's, with the children they have
 * reaped), but for `skip` (the ClickHouse server, counted apart).
 */
function childrenCpuMs(skip: number | undefined): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const ours = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, ms] of cpu) if (pid !== skip && parents.get(pid) !== skip && ours(pid)) total += ms;
  return total;
}

/** 1 cold load, then `LOADS` measured ones, of each view. */
async function measure(context: BrowserContext, dashboard: string, store: Store, into: Map<string, Load[]>): Promise<void> {
  const storeCpu = () => (store.clickhouse ? processCpuMs(store.clickhouse.pid) : NaN);
  for (const view of VIEWS) {
    const query = new URLSearchParams(VIEW_QUERIES[view]);
    for (let i = 0; i <= LOADS; i++) {
      if (IDLE_MS > 0) await new Promise((done) => setTimeout(done, IDLE_MS));
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const threadSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value;
      const pageBefore = await threadSeconds();
      const serverBefore = process.cpuUsage();
      const storeBefore = storeCpu();
      const browserBefore = childrenCpuMs(store.clickhouse?.pid);
      await page.goto(`${dashboard}?${query}`);
      await filledIn(page);
      const server = process.cpuUsage(serverBefore);
      const storeAfter = storeCpu();
      const browserCpu = childrenCpuMs(store.clickhouse?.pid) - browserBefore;
      const pageCpu = ((await threadSeconds()) - pageBefore) * 1000;
      const errors = await page.locator('[data-panel] .error').count();
      if (errors > 0) throw new Error(`${view}: ${errors} panel(s) show an error: ${await page.locator('[data-panel] .error').first().textContent()}`);
      if (i === 0) {
        const stats = await page.evaluate(statsReads);
        const unfiltered = stats.find((url) => new URL(url).searchParams.getAll('filter').join() !== query.getAll('filter').join());
        if (stats.length === 0 || unfiltered) throw new Error(`${view}: the page's stats read does not carry the view's filters: ${unfiltered ?? 'no stats read'}`);
      }
      if (i > 0) into.get(view)!.push({ ...(await page.evaluate(loadTimes)), serverCpu: (server.user + server.system) / 1000, pageCpu, browserCpu, storeCpu: storeAfter - storeBefore });
      await page.close();
    }
  }
}

async function main(): Promise<void> {
  const keep = values.data !== undefined;
  const dataDir = keep ? resolve(values.data!) : mkdtempSync(join(tmpdir(), 'svc-bench-dashboard-'));
  mkdirSync(dataDir, { recursive: true });
  const variants = [await variantAt('this checkout', join(dirname(fileURLToPath(import.meta.url)), '..'))];
  if (values.baseline) variants.push(await variantAt(`baseline ${values.baseline}`, resolve(values.baseline)));
  // ClickHouse keeps its files in the data folder where the year is kept: a later run finds its databases.
  const clickhouse = ENGINE === 'clickhouse' ? await startClickHouse(keep ? { dir: join(dataDir, 'clickhouse') } : {}) : null;
  const store: Store = { env: clickhouse ? { SVC_CLICKHOUSE_URL: `${clickhouse.url}/${CLICKHOUSE_DATABASE}` } : {}, clickhouse };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    const year = await yearIn(variants[0]!, dataDir, store, keep);
    (globalThis as { gc?: () => void }).gc?.();
    const loads = new Map(variants.map((v) => [v.name, new Map<string, Load[]>(VIEWS.map((view) => [view, []]))]));
    let assetsLine: string[] = [];
    const aloneLines: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // In turn, and the other way round every other round: drift of the machine's load falls on both.
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const service = await start(variant, dataDir, store);
        try {
          // Each checkout's own rollup job brings the kept year to what it reads (tables a checkout
          // adds are written the first time it starts on the year), outside the loads measured.
          await service.ctx.maintenance.run(Date.now(), ['rollup']);
          const signIn = await fetch(`${service.url}/app/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
          const cookie = /svc_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
          if (!cookie) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          await context.addCookies([{ name: 'svc_session', value: cookie, url: service.url }]);
          await context.addInitScript(FILLED_PROBE);
          const dashboard = `${service.url}/sites/${year.siteId}`;
          // `--loads 0` leaves Chromium out: the reads alone (`--reads`) are all that is measured.
          if (LOADS > 0) await measure(context, dashboard, store, loads.get(variant.name)!);
          if (LOADS > 0 && variant === variants[0] && round === ROUNDS - 1) {
            // What the page loads from /assets, measured as the server sends it to a gzip-only client.
            const page = await context.newPage();
            await page.goto(`${dashboard}?period=30d`);
            await filledIn(page);
            const assets = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => new URL(name).pathname.startsWith('/assets/')));
            let raw = 0;
            let gzip = 0;
            for (const url of assets) {
              raw += await bytesSent(url, 'identity');
              gzip += await bytesSent(url, 'gzip');
            }
            assetsLine = [`JS + CSS the site dashboard loads: ${assets.length} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip`];
          }
          if (values.reads && round === ROUNDS - 1) {
            for (const view of VIEWS) aloneLines.push(`${variant.name}, ${view}: median ms (and CPU ms) of each read asked alone, one after the other, then of all at once: ${(await readsAlone(service.url, cookie, year.siteId, view, 5)).join('; ')}`);
          }
          await context.close();
        } finally {
          await service.stop();
        }
      }
    }

    if (LOADS > 0) printLoads(loads, variants, clickhouse !== null);
    if (aloneLines.length > 0) console.log(aloneLines.join('\n'));
    console.log(`\n${assetsLine.join('')}`);
    console.log('targets: year view, and year view with one filter, filled in under 1 s at p95; JS + CSS under 60 KB gzip');
  } finally {
    await browser.close();
    await clickhouse?.stop();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

/** The loads' table: each checkout's and view's medians, and the ratios of this checkout to the baseline. */
function printLoads(loads: Map<string, Map<string, Load[]>>, variants: readonly Variant[], clickhouse: boolean): void {
  const p = (loadsOf: Load[], pick: (l: Load) => number, q: number) => quantile(loadsOf.map(pick).sort((a, b) => a - b), q);
  console.log(`\n${ENGINE_NAME}: milliseconds from navigation start, ${LOADS * ROUNDS} loads per view after one cold load per round (${ROUNDS} round(s)); medians of where the time goes`);
  // CPU times are the machine's load's least: on 2 shared cores, the page and the service wait for each other's CPU.
  const columns: Array<[string, (l: Load[]) => number]> = [
    ['p50', (l) => p(l, (x) => x.filled, 0.5)],
    ['p95', (l) => p(l, (x) => x.filled, 0.95)],
    ['first read', (l) => p(l, (x) => x.firstRead, 0.5)],
    ['session', (l) => p(l, (x) => x.session, 0.5)],
    ['last answer', (l) => p(l, (x) => x.lastAnswer, 0.5)],
    ['server CPU', (l) => p(l, (x) => x.serverCpu, 0.5)],
    ['page CPU', (l) => p(l, (x) => x.pageCpu, 0.5)],
    ['browser CPU', (l) => p(l, (x) => x.browserCpu, 0.5)],
    ...(clickhouse ? [['ClickHouse CPU', (l: Load[]) => p(l, (x) => x.storeCpu, 0.5)] as [string, (l: Load[]) => number]] : []),
  ];
  const viewWidth = Math.max(...VIEWS.map((view) => view.length)) + 2;
  console.log(`${'checkout'.padEnd(22)}${'view'.padEnd(viewWidth)}${columns.map(([name]) => name.padStart(Math.max(7, name.length + 2))).join('')}`);
  for (const variant of variants) {
    for (const view of VIEWS) {
      const l = loads.get(variant.name)!.get(view)!;
      console.log(`${variant.name.slice(0, 21).padEnd(22)}${view.padEnd(viewWidth)}${columns.map(([name, f]) => f(l).toFixed(0).padStart(Math.max(7, name.length + 2))).join('')}`);
    }
  }
  if (values.reads) {
    // In the page: a read's time includes its wait for one of the browser's connections and for the service's long-read slots.
    for (const variant of variants) {
      for (const view of VIEWS) {
        const l = loads.get(variant.name)!.get(view)!;
        const names = [...new Set(l.flatMap((x) => Object.keys(x.reads)))].sort();
        const medians = names.map((name) => `${name} ${p(l.filter((x) => name in x.reads), (x) => x.reads[name]!, 0.5).toFixed(0)}`);
        console.log(`${variant.name.slice(0, 21)}, ${view}: median ms of each read, start to answer: ${medians.join('; ')}`);
      }
    }
  }
  if (variants.length === 2) {
    for (const view of VIEWS) {
      const [a, b] = variants.map((v) => loads.get(v.name)!.get(view)!);
      console.log(`${view}: this checkout / baseline: ${columns.map(([name, f]) => `${name} ${(f(a!) / f(b!)).toFixed(2)}`).join(', ')}`);
      // Round by round: the spread of the ratio across rounds is the machine's noise.
      const roundP95 = (l: Load[], r: number) => p(l.slice(r * LOADS, (r + 1) * LOADS), (x) => x.filled, 0.95);
      const byRound = Array.from({ length: ROUNDS }, (_, r) => `${roundP95(a!, r).toFixed(0)} / ${roundP95(b!, r).toFixed(0)} = ${(roundP95(a!, r) / roundP95(b!, r)).toFixed(2)}`);
      console.log(`${view}: p95 round by round, this checkout / baseline: ${byRound.join('; ')}`);
    }
  }
}
