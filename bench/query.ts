// bench/query: the read API on one site with a year of traffic (365 days × 20 000 pageviews a day,
// realistic sessions, long-tail pages, referrers, countries, devices), raw events kept for the whole
// year. Prints p50/p95 over repeated HTTP requests of the year questions (rollups), the year with two
// filters (session rows, and a breakdown of a third dimension), the 30-day two-filter questions
// and realtime, and, side by side, the year questions answered by scanning raw events (what a
// system without rollups or session rows does), with the ratio; a year's breakdown of a custom
// property against the year's page breakdown; journeys over the year (session paths, and raw events
// after the watermark), against the same journeys from raw events alone (answers checked equal); and
// the rollup job's time per site-day.
//
// BENCH_PROFILES lists the event stores measured one after the other in the run, each loaded with
// the same generated year: `embedded` (DuckDB in the data folder) and `clickhouse` (a private
// ClickHouse server the bench starts, as the tests do, through SVC_CLICKHOUSE_URL). With both, a last
// table puts them side by side.
//
//   npm run bench:query             (embedded only; BENCH_PAGEVIEWS_PER_DAY, BENCH_DAYS, BENCH_REPEAT to scale;
//                                    BENCH_CASES=page,prop measures only the requests whose label holds one of the words)
//   npm run bench:query:scaleout    (embedded, then clickhouse)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/server.js';
import { addDays, localDay } from '../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../src/core/query.js';
import { planQuery } from '../src/stats/planner.js';
import { computeBreakdown } from '../src/stats/read/breakdown.js';
import { computeStats } from '../src/stats/read/stats.js';
import { computeTimeseries } from '../src/stats/read/timeseries.js';
import { computeJourneys } from '../src/stats/read/journeys.js';
import { startClickHouse, type ClickHouseServer } from '../support/clickhouse.js';
import { loadYearSite, TZ } from './year-site.js';
import { timeInTurn, timeIt } from './timing.js';

const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 20_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
/** The raw-scan baseline takes seconds per answer: fewer repetitions keep the run short. */
const RAW_REPEAT = Number(process.env.BENCH_RAW_REPEAT ?? 5);
const PROFILES = (process.env.BENCH_PROFILES ?? 'embedded').split(',').map((p) => p.trim());
const CASES = process.env.BENCH_CASES?.split(',').map((c) => c.trim());
const measured = (label: string) => CASES === undefined || CASES.some((c) => label.includes(c));
const TOKEN = 'bench-admin-token-0123456789';

/** What one profile's run measured: per request, p50 and p95 (ms), and for the year questions the raw scan's. */
interface Measured {
  label: string;
  p50: number;
  p95: number;
  raw?: { p50: number; p95: number };
}

/** Loads the year into a fresh service on the profile's stores and measures it. */
async function measure(profile: string, env: Record<string, string>): Promise<Measured[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-query-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: TOKEN, SVC_API_RATE_LIMIT: '1000000/60s', SVC_LOG_LEVEL: 'silent', ...env });
  const quiet = { info() {}, warn() {}, error() {} };
  // No maintenance timers: the year's raw events stay whole (the raw-scan baseline reads them) and its rollups are the loader's.
  const service = await startService(config, { log: quiet, maintenanceTimers: false });
  const { ctx } = service;
  try {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const loaded = await loadYearSite(service, admin, { pageviewsPerDay: PAGEVIEWS_PER_DAY, days: DAYS });
    const site = { id: loaded.siteId };
    const { key, rows, pageviews } = loaded;
    // The service is measured, not the loader: ten million generated rows of garbage would otherwise
    // be collected during the first measurements (npm run bench:query passes --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    console.log(
      `\n== ${profile}: loaded ${rows.toLocaleString()} events (${pageviews.toLocaleString()} pageviews, ${DAYS} days) in ${(loaded.loadMs / 1000).toFixed(1)} s; rollups in ${(loaded.rollupMs / 1000).toFixed(1)} s (${(loaded.rollupMs / DAYS).toFixed(1)} ms per site-day)`,
    );

    const get = async (path: string) => {
      const res = await fetch(`${service.url}/v1/sites/${site.id}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const goals = await ctx.meta.listGoals((await ctx.meta.getSite(site.id))!.internalId);
    const siteRecord = { id: site.id, timezone: TZ };
    // The baseline: the same questions from raw events only (no watermark), raw events kept all year.
    const rawScan = (kind: QueryKind, params: RawParams) => {
      const q = planQuery(parseQuery(kind, params, siteRecord, Date.now()), { watermark: null, retentionMonths: null, rawDays: Math.max(30, DAYS) });
      if (kind === 'stats') return computeStats(ctx.events, q, goals);
      if (kind === 'timeseries') return computeTimeseries(ctx.events, q, goals);
      if (kind === 'journeys') return computeJourneys(ctx.events, q);
      return computeBreakdown(ctx.events, q);
    };

    const filters = 'filter=country:US&filter=device:mobile';
    // Every loaded day, with two session-scoped filters: session rows answer the rolled-up days.
    const today = localDay(Date.now(), TZ);
    const loadedDays = { from: addDays(today, -(DAYS - 1)), to: today };
    const twoFilters = ['country:US', 'device:desktop'];
    const loadedPeriod = `from=${loadedDays.from}&to=${loadedDays.to}`;
    const filteredYear = `from=${loadedDays.from}&to=${loadedDays.to}&${twoFilters.map((f) => `filter=${f}`).join('&')}`;
    const year: Array<[string, string, QueryKind, RawParams]> = [
      ['stats year', '/stats?period=year', 'stats', { period: 'year' }],
      ['timeseries year', '/timeseries?period=year', 'timeseries', { period: 'year' }],
      ['breakdown page year', '/breakdown?dimension=page&period=year', 'breakdown', { period: 'year', dimension: 'page' }],
      ['breakdown prop.plan year', '/breakdown?dimension=prop.plan&period=year', 'breakdown', { period: 'year', dimension: 'prop.plan' }],
      ['stats year, 2 filters', `/stats?${filteredYear}`, 'stats', { ...loadedDays, filter: twoFilters }],
      ['timeseries year, 2 filters', `/timeseries?${filteredYear}`, 'timeseries', { ...loadedDays, filter: twoFilters }],
      ['breakdown referrer year, 2 filters', `/breakdown?dimension=referrer&${filteredYear}`, 'breakdown', { ...loadedDays, filter: twoFilters, dimension: 'referrer' }],
      // Journeys over every loaded day (the site keeps raw events 13 months): session paths, the raw scan raw events alone.
      ['journeys year', `/journeys?${loadedPeriod}`, 'journeys', loadedDays],
      ['journeys year, from /, 5 steps', `/journeys?${loadedPeriod}&page=/&steps=5`, 'journeys', { ...loadedDays, page: '/', steps: '5' }],
      ['journeys year, previous, filter', `/journeys?${loadedPeriod}&page=/docs/section-1&direction=previous&filter=country:US`, 'journeys', { ...loadedDays, page: '/docs/section-1', direction: 'previous', filter: ['country:US'] }],
    ];
    const others: Array<[string, string]> = [
      ['stats 30d, 2 filters', `/stats?period=30d&${filters}`],
      ['timeseries 30d, 2 filters', `/timeseries?period=30d&${filters}`],
      ['breakdown page 30d, 2 filters', `/breakdown?dimension=page&period=30d&${filters}`],
      ['realtime', '/realtime'],
    ];
    const fmt = (ms: number) => ms.toFixed(1).padStart(8);
    console.log(`\n${'request'.padEnd(32)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}  ${'raw p50'.padStart(8)}${'raw p95'.padStart(8)}  ratio p95`);
    // Fast answers must also be right: the year's KPIs from rollups, and the filtered year's from
    // session rows, equal those of the raw scan.
    const kpiValues = (s: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.value]));
    for (const [what, path, params] of [
      ['year KPIs, rollups', '/stats?period=year', { period: 'year' }],
      ['filtered year KPIs, session rows', `/stats?${filteredYear}`, { ...loadedDays, filter: twoFilters }],
    ] as const) {
      const fromApi = ((await get(path)) as { stats: Record<string, { value: unknown }> }).stats;
      const fromRaw = (await rawScan('stats', params)) as unknown as Record<string, { value: unknown }>;
      const same = JSON.stringify(kpiValues(fromApi)) === JSON.stringify(kpiValues(fromRaw));
      console.log(`${what} vs raw scan: ${same ? 'equal' : 'MISMATCH'} ${JSON.stringify(kpiValues(fromApi))}`);
      if (!same) {
        console.log(`raw scan: ${JSON.stringify(kpiValues(fromRaw))}`);
        process.exitCode = 1;
      }
    }
    // Journeys from session paths answer as raw events alone do.
    for (const [label, path, kind, params] of year.filter(([label, , kind]) => kind === 'journeys' && measured(label))) {
      const same = JSON.stringify(await get(path)) === JSON.stringify({ period: { from: loadedDays.from, to: loadedDays.to }, steps: Number(params.steps ?? 3), ...(await rawScan(kind, params)) });
      console.log(`${label} vs raw events alone: ${same ? 'equal' : 'MISMATCH'}`);
      if (!same) process.exitCode = 1;
    }
    // The API's answers in turn, request by request (the property breakdown's ratio to the page
    // breakdown compares requests of the same rounds), then the raw scans.
    const results: Measured[] = [];
    const yearCases = year.filter(([label]) => measured(label));
    const otherCases = others.filter(([label]) => measured(label));
    const api = await timeInTurn([...yearCases, ...otherCases].map(([, path]) => () => get(path)), REPEAT);
    for (const [i, [label, , kind, params]] of yearCases.entries()) {
      const raw = await timeIt(() => rawScan(kind, params), RAW_REPEAT);
      console.log(`${label.padEnd(32)}${fmt(api[i]!.p50)}${fmt(api[i]!.p95)}  ${fmt(raw.p50)}${fmt(raw.p95)}  ${(raw.p95 / api[i]!.p95).toFixed(1)}×`);
      results.push({ label, ...api[i]!, raw });
    }
    for (const [i, [label]] of otherCases.entries()) {
      const measuredApi = api[yearCases.length + i]!;
      console.log(`${label.padEnd(32)}${fmt(measuredApi.p50)}${fmt(measuredApi.p95)}`);
      results.push({ label, ...measuredApi });
    }
    const p95Of = (label: string) => results.find((r) => r.label === label)?.p95;
    const [property, page] = [p95Of('breakdown prop.plan year'), p95Of('breakdown page year')];
    if (property !== undefined && page !== undefined) console.log(`\nbreakdown prop.plan year / breakdown page year, p95: ${(property / page).toFixed(2)}× (target ≤ 1.5×)`);
    console.log(`\ntargets: year p95 < 50 ms and ≥ 10× faster than the raw scan; year with 2 filters (and a breakdown) p95 ≤ 300 ms; journeys year p95 ≤ 1 s; 30-day raw p95 < 300 ms (${REPEAT} requests each, ${RAW_REPEAT} raw scans)`);
    return results;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The side-by-side table: each request's p95 on every profile, its raw-scan ratio, and the profiles' ratio to the first. */
function printSideBySide(results: ReadonlyArray<[string, Measured[]]>): void {
  const [first] = results;
  console.log(`\n== side by side (p95 ms; raw-scan ratio in brackets; last column: ${results.slice(1).map(([p]) => p).join(', ')} / ${first![0]})`);
  console.log(`${'request'.padEnd(32)}${results.map(([p]) => p.padStart(20)).join('')}${'ratio'.padStart(10)}`);
  first![1].forEach((row, i) => {
    const cells = results.map(([, m]) => {
      const r = m[i]!;
      return `${r.p95.toFixed(1)}${r.raw ? ` (${(r.raw.p95 / r.p95).toFixed(0)}×)` : ''}`.padStart(20);
    });
    const ratios = results.slice(1).map(([, m]) => (m[i]!.p95 / row.p95).toFixed(2)).join(', ');
    console.log(`${row.label.padEnd(32)}${cells.join('')}${ratios.padStart(10)}`);
  });
}

async function main(): Promise<void> {
  const results: Array<[string, Measured[]]> = [];
  for (const profile of PROFILES) {
    if (profile === 'embedded') {
      results.push([profile, await measure(profile, {})]);
    } else if (profile === 'clickhouse') {
      const server: ClickHouseServer = await startClickHouse();
      try {
        results.push([profile, await measure(profile, { SVC_CLICKHOUSE_URL: `${server.url}/svc_bench` })]);
      } finally {
        await server.stop();
      }
    } else {
      throw new Error(`BENCH_PROFILES: unknown profile ${profile} (embedded, clickhouse)`);
    }
  }
  if (results.length > 1) printSideBySide(results);
}

await main();
