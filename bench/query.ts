// bench/query: the read API on one site with a year of traffic (365 days × 20 000 pageviews a day,
// realistic sessions, long-tail pages, referrers, countries, devices). Prints p50/p95 over repeated
// HTTP requests of the year questions (rollups), the 30-day two-filter questions (raw events) and
// realtime, and, side by side, the year questions answered by scanning raw events kept for the whole
// year (what a system without rollups does), with the ratio.
//
//   npm run bench:query        (BENCH_PAGEVIEWS_PER_DAY, BENCH_DAYS, BENCH_REPEAT to scale)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/server.js';
import { addDays, localDay, startOfLocalDay } from '../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../src/core/query.js';
import { planQuery } from '../src/stats/planner.js';
import { computeBreakdown, computeStats, computeTimeseries } from '../src/stats/engine.js';
import type { StoredEvent } from '../src/storage/events/schema.js';
import { prng, session, type SessionShape } from '../test/stats/fixtures.js';

const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 20_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
/** The raw-scan baseline takes seconds per answer: fewer repetitions keep the run short. */
const RAW_REPEAT = Number(process.env.BENCH_RAW_REPEAT ?? 5);
const TZ = 'Europe/Paris';
const TOKEN = 'bench-admin-token-0123456789';

/** Zipf-like sampling table: index i drawn with weight 1/(i+1). */
function longTail<T>(names: (i: number) => T, distinct: number, size: number, rand: () => number): T[] {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < distinct; i++) cumulative.push((total += 1 / (i + 1)));
  return Array.from({ length: size }, () => {
    const x = rand() * total;
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return names(lo);
  });
}

function shape(rand: () => number): SessionShape {
  const countries: Array<[string, string, string]> = [
    ['US', 'California', 'San Francisco'], ['US', 'New York', 'New York'], ['FR', 'Île-de-France', 'Paris'], ['DE', 'Berlin', 'Berlin'],
    ['GB', 'England', 'London'], ['IN', 'Karnataka', 'Bengaluru'], ['BR', 'São Paulo', 'São Paulo'], ['JP', 'Tokyo', 'Tokyo'],
    ['CA', 'Ontario', 'Toronto'], ['NL', 'North Holland', 'Amsterdam'], ['ES', 'Madrid', 'Madrid'], ['AU', 'New South Wales', 'Sydney'],
  ];
  return {
    pages: longTail((i) => (i === 0 ? '/' : i < 50 ? `/docs/section-${i}` : `/blog/${2000 + (i % 25)}/post-${i}`), 8000, 50_000, rand),
    referrers: [null, null, null, ...longTail((i) => `ref${i}.example`, 400, 2000, rand), 'google.com', 'google.com', 'news.ycombinator.com'],
    countries: [...longTail((i) => countries[i]!, countries.length, 500, rand), null],
    browsers: [['Chrome', 'Windows', 'desktop'], ['Chrome', 'Android', 'mobile'], ['Safari', 'iOS', 'mobile'], ['Safari', 'macOS', 'desktop'], ['Firefox', 'Linux', 'desktop'], ['Edge', 'Windows', 'desktop'], ['Safari', 'iOS', 'tablet']],
    utm: [null, null, null, null, ['newsletter', 'email', 'weekly'], ['google', 'cpc', 'brand'], ['twitter', 'social', 'launch']],
    customEvents: ['signup', 'trial', 'download_pdf'],
  };
}

async function timeIt(run: () => Promise<unknown>, repeat = REPEAT): Promise<{ p50: number; p95: number }> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-query-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: TOKEN, SVC_API_RATE_LIMIT: '1000000/60s', SVC_LOG_LEVEL: 'silent' });
  const quiet = { info() {}, warn() {}, error() {} };
  const service = await startService(config, { log: quiet });
  const { ctx } = service;
  try {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const org = await admin('POST', '/orgs', { name: 'Bench' });
    const site = await admin('POST', `/orgs/${org.id}/sites`, { domain: 'bench.example', name: 'Bench', timezone: TZ });
    const key: string = (await admin('POST', `/orgs/${org.id}/keys`, { name: 'bench' })).key;

    const now = Date.now();
    const today = localDay(now, TZ);
    const rand = prng(42);
    const traffic = shape(rand);
    const loadStart = performance.now();
    let pageviews = 0;
    let rows = 0;
    for (let n = DAYS - 1; n >= 0; n--) {
      const day = addDays(today, -n);
      const start = startOfLocalDay(day, TZ);
      const span = n === 0 ? Math.max(60_000, now - start - 30 * 60_000) : 22 * 3_600_000;
      const batch: StoredEvent[] = [];
      let dayViews = 0;
      const visitors = Math.round(PAGEVIEWS_PER_DAY / 3);
      while (dayViews < PAGEVIEWS_PER_DAY) {
        const visitor = BigInt(Math.floor(rand() * visitors)) + 1_000_000n * BigInt(n);
        const events = session(rand, site.id, start + Math.floor(rand() * span), visitor, traffic, TZ);
        dayViews += events.filter((e) => e.name === 'pageview').length;
        batch.push(...events);
      }
      if (n === 0) {
        // Realtime: the last half hour of today.
        for (let i = 0; i < 300; i++) batch.push(...session(rand, site.id, now - Math.floor(rand() * 30 * 60_000), BigInt(9e15) + BigInt(i), traffic, TZ).filter((e) => e.ts <= now));
      }
      await ctx.events.append(batch);
      pageviews += dayViews;
      rows += batch.length;
    }
    const loaded = performance.now();
    // Goals are defined once the year is in, as an operator adding them later would: defining one
    // refreshes the site's rollups (the first time, the whole year), then the periodic task runs.
    await admin('POST', `/sites/${site.id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
    await admin('POST', `/sites/${site.id}/goals`, { name: 'Docs', kind: 'page', pattern: '/docs/*' });
    await ctx.maintenance.run(now, ['rollup']);
    const rolled = performance.now();
    // The service is measured, not the loader: ten million generated rows of garbage would otherwise
    // be collected during the first measurements (npm run bench:query passes --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    console.log(`loaded ${rows.toLocaleString()} events (${pageviews.toLocaleString()} pageviews, ${DAYS} days) in ${((loaded - loadStart) / 1000).toFixed(1)} s; rollups in ${((rolled - loaded) / 1000).toFixed(1)} s`);

    const get = async (path: string) => {
      const res = await fetch(`${service.url}/v1/sites/${site.id}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const goals = await ctx.meta.listGoals((await ctx.meta.getSite(site.id))!.internalId);
    const siteRecord = { id: site.id, timezone: TZ };
    // The baseline: the same questions from raw events only (no watermark), raw events kept all year.
    const rawScan = (kind: QueryKind, params: RawParams) => {
      const q = planQuery(parseQuery(kind, params, siteRecord, Date.now()), { watermark: null, retentionMonths: null });
      if (kind === 'stats') return computeStats(ctx.events, q, goals);
      if (kind === 'timeseries') return computeTimeseries(ctx.events, q, goals);
      return computeBreakdown(ctx.events, q);
    };

    const filters = 'filter=country:US&filter=device:mobile';
    const year: Array<[string, string, QueryKind, RawParams]> = [
      ['stats year', '/stats?period=year', 'stats', { period: 'year' }],
      ['timeseries year', '/timeseries?period=year', 'timeseries', { period: 'year' }],
      ['breakdown page year', '/breakdown?dimension=page&period=year', 'breakdown', { period: 'year', dimension: 'page' }],
    ];
    const others: Array<[string, string]> = [
      ['stats 30d, 2 filters', `/stats?period=30d&${filters}`],
      ['timeseries 30d, 2 filters', `/timeseries?period=30d&${filters}`],
      ['breakdown page 30d, 2 filters', `/breakdown?dimension=page&period=30d&${filters}`],
      ['realtime', '/realtime'],
    ];
    const fmt = (ms: number) => ms.toFixed(1).padStart(8);
    console.log(`\n${'request'.padEnd(32)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}  ${'raw p50'.padStart(8)}${'raw p95'.padStart(8)}  ratio p95`);
    // Fast answers must also be right: the year's KPIs from rollups equal those of the raw scan.
    const fromApi = ((await get('/stats?period=year')) as { stats: Record<string, { value: unknown }> }).stats;
    const fromRaw = (await rawScan('stats', { period: 'year' })) as unknown as Record<string, { value: unknown }>;
    const kpiValues = (s: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.value]));
    const same = JSON.stringify(kpiValues(fromApi)) === JSON.stringify(kpiValues(fromRaw));
    console.log(`year KPIs, rollups vs raw scan: ${same ? 'equal' : 'MISMATCH'} ${JSON.stringify(kpiValues(fromApi))}`);
    if (!same) {
      console.log(`raw scan: ${JSON.stringify(kpiValues(fromRaw))}`);
      process.exitCode = 1;
    }
    for (const [label, path, kind, params] of year) {
      const api = await timeIt(() => get(path));
      const raw = await timeIt(() => rawScan(kind, params), RAW_REPEAT);
      console.log(`${label.padEnd(32)}${fmt(api.p50)}${fmt(api.p95)}  ${fmt(raw.p50)}${fmt(raw.p95)}  ${(raw.p95 / api.p95).toFixed(1)}×`);
    }
    for (const [label, path] of others) {
      const api = await timeIt(() => get(path));
      console.log(`${label.padEnd(32)}${fmt(api.p50)}${fmt(api.p95)}`);
    }
    console.log(`\ntargets: year p95 < 50 ms and ≥ 10× faster than the raw scan; 30-day raw p95 < 300 ms (${REPEAT} requests each, ${RAW_REPEAT} raw scans)`);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
