// bench/imports: imports of Plausible's export and reads over imported days.
//
// 1. Import rate: a generated export of BENCH_IMPORT_DAYS days (3 years by default) with
//    BENCH_PAGES pages and BENCH_SOURCES sources a day (1 000 and 500), written to a ZIP on disk
//    and imported (parsed, staged, written) into a fresh site: rows/s and days/s.
// 2. Reads: a year of collected traffic on one site, and on another the same year whose first
//    half is imported (exported from the first site's rollups) and second half collected. p50/p95
//    of the year's stats and a year breakdown (referrers, pages) on both, and the ratio of the
//    half-imported site to the collected one (target: within 1.2).
// 3. Raw events: a 1 000 000-line Umami export (support/import-lines.ts's traffic: five days,
//    sessions of four pageviews, a visit_id each, Umami's session columns filled) uploaded and
//    imported as a job, beside the same events as NDJSON lines (the Umami reader's output) in one
//    call of the import path, each file written first and streamed from disk into a fresh process
//    started as `npm start` does: lines/s of both, their ratio, the process's CPU time a line
//    (steadier than lines/s on a shared machine) and its peak resident memory.
//
// BENCH_PROFILES: `embedded` (DuckDB), `clickhouse` (a private server started as the tests do).
// BENCH_CASES: `plausible` (1 and 2), `umami` (3); both by default.
//
//   node --import tsx bench/imports.ts            (BENCH_IMPORT_DAYS, BENCH_PAGES, BENCH_SOURCES, BENCH_SESSIONS, BENCH_REPEAT to scale; BENCH_PAIRS: runs of each path for case 3, BENCH_UPLOAD_MBPS: its uploads' pace)
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { addDays, startOfLocalDay } from '../src/core/localtime.js';
import { type QueryKind, type RawParams } from '../src/core/query.js';
import { exportFileName, exportPlausible, siteHeldDays } from '../src/imports/export.js';
import { importPlausible } from '../src/imports/plausible-import.js';
import { zipStream, type ZipSource } from '../src/imports/zip.js';
import { planRead, readSourceOf } from '../src/stats/entry.js';
import { computeBreakdown } from '../src/stats/read/breakdown.js';
import { computeStats } from '../src/stats/read/stats.js';
import { rollupKey } from '../src/stats/rollups/key.js';
import { createRollupTables } from '../src/stats/rollups/write.js';
import { rollupSite } from '../src/stats/rollups/run.js';
import { ClickHouseEventStore } from '../src/storage/events/clickhouse.js';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import type { EventStore } from '../src/storage/events/types.js';
import { openSqliteMetaStore } from '../src/storage/meta/sqlite.js';
import type { Site } from '../src/entities/sites.js';
import { dataset } from '../support/datasets.js';
import { startClickHouse, type ClickHouseServer } from '../support/clickhouse.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { timeIt } from './timing.js';
import { callTraffic, IMPORT_CALLS } from '../support/import-lines.js';
import { spawnService } from '../test/helpers/child.js';
import { ADMIN_TOKEN } from '../test/helpers/server.js';
import { csvBatches } from '../src/imports/csv.js';
import type { ImportLineFields } from '../src/ingest/import.js';
import { newSkips, openCsvFile } from '../src/imports/raw-events.js';
import { umamiFormat } from '../src/imports/umami.js';
import { UMAMI_HEADER, umamiLine } from '../test/helpers/umami-export.js';

const IMPORT_DAYS = Number(process.env.BENCH_IMPORT_DAYS ?? 1095);
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const SOURCES = Number(process.env.BENCH_SOURCES ?? 500);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 300);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
/** Case 3's uploads sent at most this fast (MB/s, as over a network), or as fast as loopback takes them when unset. */
const UPLOAD_MBPS = process.env.BENCH_UPLOAD_MBPS === undefined ? null : Number(process.env.BENCH_UPLOAD_MBPS);
const PROFILES = (process.env.BENCH_PROFILES ?? 'embedded').split(',').map((p) => p.trim());
const CASES = (process.env.BENCH_CASES ?? 'plausible,umami').split(',').map((c) => c.trim());
const TZ = 'Europe/Paris';
const TODAY = '2026-06-30';
const NOW = startOfLocalDay(TODAY, TZ) + 12 * 3_600_000;

/** A generated export: per day one visitors row, PAGES pages, SOURCES sources, and a few rows of the other tables. */
function* exportTables(days: number): Generator<ZipSource> {
  const first = addDays(TODAY, -days);
  const last = addDays(TODAY, -1);
  const period = { from: first, to: last };
  const perDay = (header: string, rows: (day: string, rand: () => number) => string[]): ZipSource => ({
    name: exportFileName(header.split('|')[0]!, period),
    bytes: (async function* () {
      yield header.split('|')[1]! + '\n';
      const rand = seededRandom(days);
      for (let n = 0; n < days; n++) yield rows(addDays(first, n), rand).join('');
    })(),
  });
  const n = (rand: () => number, max: number) => 1 + Math.floor(rand() * max);
  yield perDay('visitors|date,visitors,pageviews,bounces,visits,visit_duration', (day, r) => [`${day},${n(r, 5000)},${n(r, 15000)},${n(r, 2500)},${n(r, 6000)},${n(r, 600000)}\n`]);
  yield perDay('sources|date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces', (day, r) =>
    Array.from({ length: SOURCES }, (_, i) => `${day},Source ${i},https://ref${i}.example/,${i % 7 === 0 ? `src${i % 20}` : ''},,,,,${n(r, 90)},${n(r, 30)},${n(r, 35)},${n(r, 3000)},${n(r, 15)}\n`),
  );
  yield perDay('pages|date,hostname,page,visits,visitors,pageviews,scroll_depth,pageleave_visitors', (day, r) =>
    Array.from({ length: PAGES }, (_, i) => `${day},bench.example,/page-${i},${n(r, 40)},${n(r, 30)},${n(r, 60)},,\n`),
  );
  yield perDay('entry_pages|date,entry_page,visitors,entrances,visit_duration,bounces,pageviews', (day, r) => Array.from({ length: 100 }, (_, i) => `${day},/page-${i},${n(r, 30)},${n(r, 35)},${n(r, 3000)},${n(r, 15)},${n(r, 90)}\n`));
  yield perDay('exit_pages|date,exit_page,visitors,visit_duration,exits,bounces,pageviews', (day, r) => Array.from({ length: 100 }, (_, i) => `${day},/page-${i},${n(r, 30)},${n(r, 3000)},${n(r, 35)},${n(r, 15)},${n(r, 90)}\n`));
  yield perDay('locations|date,country,region,city,visitors,visits,visit_duration,bounces,pageviews', (day, r) =>
    ['US', 'FR', 'DE', 'GB', 'IN', 'JP', 'BR', 'CA'].map((c, i) => `${day},${c},${c}-${i},${1000 + i},${n(r, 300)},${n(r, 350)},${n(r, 30000)},${n(r, 150)},${n(r, 900)}\n`),
  );
  yield perDay('devices|date,device,visitors,visits,visit_duration,bounces,pageviews', (day, r) => ['Desktop', 'Mobile', 'Tablet'].map((d) => `${day},${d},${n(r, 900)},${n(r, 1000)},${n(r, 90000)},${n(r, 500)},${n(r, 3000)}\n`));
  yield perDay('browsers|date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews', (day, r) =>
    ['Chrome', 'Safari', 'Firefox', 'Microsoft Edge', 'Mobile Safari'].map((b) => `${day},${b},1.0,${n(r, 900)},${n(r, 1000)},${n(r, 90000)},${n(r, 500)},${n(r, 3000)}\n`),
  );
  yield perDay('operating_systems|date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews', (day, r) =>
    ['Windows', 'Mac', 'iOS', 'Android', 'GNU/Linux'].map((o) => `${day},${o},1,${n(r, 900)},${n(r, 1000)},${n(r, 90000)},${n(r, 500)},${n(r, 3000)}\n`),
  );
  yield perDay('custom_events|date,name,link_url,path,visitors,events', (day, r) => ['Signup', 'Download'].map((e) => `${day},${e},,,${n(r, 50)},${n(r, 80)}\n`));
}

async function measure(profile: string, open: () => Promise<EventStore>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-imports-'));
  const events = await open();
  const meta = await openSqliteMetaStore(':memory:');
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('bench', 0);
    const newSite = (id: string) => meta.createSite(org.id, { domain: `${id}.example`, name: id, timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, id, 0);

    // 1. Import rate.
    const zip = join(dir, 'export.zip');
    await pipeline(Readable.from(zipStream(exportTables(IMPORT_DAYS))), createWriteStream(zip));
    const target = await newSite('importrate');
    const started = performance.now();
    const report = await importPlausible(events, { siteId: target.id, importId: 'bench' }, zip, 'export.zip');
    const seconds = (performance.now() - started) / 1000;
    const mib = statSync(zip).size / 1024 ** 2;
    console.log(`[${profile}] import of ${IMPORT_DAYS} days (${PAGES} pages, ${SOURCES} sources a day; ZIP ${mib.toFixed(1)} MiB): ${report.rows} rows in ${seconds.toFixed(1)} s = ${Math.round(report.rows / seconds)} rows/s, ${(IMPORT_DAYS / seconds).toFixed(1)} days/s; peak RSS ${(process.memoryUsage().rss / 1024 ** 2).toFixed(0)} MiB`);

    // 2. Reads over a year: collected alone, and half imported.
    const days = Array.from({ length: 364 }, (_, i) => addDays(TODAY, -364 + i));
    const half = days[181]!;
    const collected = await newSite('collected');
    const mixed = await newSite('mixed');
    const traffic = (siteId: string, range: string[]) => dataset({ seed: 5, siteId, days: range, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: SESSIONS, visitorsPerDay: Math.round(SESSIONS * 0.8), timeZone: TZ });
    for (let i = 0; i < days.length; i += 30) await events.append(traffic(collected.id, days.slice(i, i + 30)));
    await rollupSite({ events, meta }, collected, NOW, {});
    const watermark = (await meta.getRollupState(rollupKey(events, collected.id)))?.watermark ?? null;
    const firstHalf = join(dir, 'first-half.zip');
    await pipeline(Readable.from(exportPlausible(events, { siteId: collected.id, domain: 'collected.example', days: { from: days[0]!, to: half }, held: await siteHeldDays(events, collected.id), watermark, annotations: [] })), createWriteStream(firstHalf));
    await importPlausible(events, { siteId: mixed.id, importId: 'half' }, firstHalf, 'first-half.zip');
    const later = days.filter((d) => d > half);
    for (let i = 0; i < later.length; i += 30) await events.append(traffic(mixed.id, later.slice(i, i + 30)));
    await rollupSite({ events, meta }, mixed, NOW, {});

    const read = async (site: Site, kind: QueryKind, params: RawParams) => {
      const planned = (await planRead(readSourceOf(events, meta), { kind, params: { from: days[0]!, to: days[days.length - 1]!, comparison: 'off', ...params }, site, now: NOW })).q;
      return kind === 'stats' ? computeStats(events, planned, []) : computeBreakdown(events, planned);
    };
    const questions: Array<[string, QueryKind, RawParams]> = [
      ['year stats', 'stats', {}],
      ['year breakdown: referrers', 'breakdown', { dimension: 'referrer' }],
      ['year breakdown: pages', 'breakdown', { dimension: 'page' }],
      ['year stats, one filter', 'stats', { filter: 'country:FR' }],
    ];
    console.log(`[${profile}] a year of ${SESSIONS} sessions a day; p50/p95 of ${REPEAT} reads (ms):`);
    for (const [label, kind, params] of questions) {
      const alone = await timeIt(() => read(collected, kind, params), REPEAT);
      const halfImported = await timeIt(() => read(mixed, kind, params), REPEAT);
      console.log(`  ${label.padEnd(28)} collected ${alone.p50.toFixed(1)}/${alone.p95.toFixed(1)}   half imported ${halfImported.p50.toFixed(1)}/${halfImported.p95.toFixed(1)}   p95 ratio ${(halfImported.p95 / alone.p95).toFixed(2)}x`);
    }
  } finally {
    await events.close();
    await meta.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Support's 1 000 000 lines of traffic as Umami's export writes them, to `path`. */
async function writeUmamiExport(path: string): Promise<void> {
  const uuid = (text: string) => createHash('md5').update(text).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  const website = uuid('bench');
  async function* lines(): AsyncGenerator<string> {
    yield umamiLine(UMAMI_HEADER);
    let chunk = '';
    let n = 0;
    for (const { ts, ip, page, visit } of callTraffic(IMPORT_CALLS[0]!, 0)) {
      const row: Record<string, string> = {
        website_id: website, session_id: uuid(ip), visit_id: uuid(visit), event_id: uuid(`${n++}`), hostname: 'umami.example', browser: 'chrome', os: 'Windows 10', device: 'desktop', screen: '1920x1080',
        language: 'en-US', country: 'US', region: 'US-CA', city: 'San Francisco', url_path: page, page_title: `Page ${page.slice(6)}`, event_type: '1', created_at: new Date(ts).toISOString().replace('T', ' ').slice(0, 23),
      };
      chunk += umamiLine(UMAMI_HEADER.map((c) => row[c] ?? ''));
      if (n % 4096 === 0) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(lines()), createWriteStream(path));
}

/** A reader's lines as NDJSON text, a batch at a time. */
async function* ndjsonText(batches: AsyncIterable<ImportLineFields[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** The 1 000 000 lines through each path, each into a fresh process (its events in ClickHouse when `clickhouseUrl` is given). */
async function umamiAgainstNdjson(profile: string, clickhouseUrl: (path: string) => string | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-umami-'));
  try {
    const file = join(dir, 'umami-export.csv');
    await writeUmamiExport(file);
    const ndjson = join(dir, 'umami-events.ndjson');
    const umamiLines = umamiFormat.lines(csvBatches(await openCsvFile(file)), 'umami.example', newSkips(), 'umami-export.csv');
    await pipeline(Readable.from(ndjsonText(umamiLines)), createWriteStream(ndjson));
    // Pairs of runs, the order swapped in every other pair: a machine whose speed drifts over a run
    // then favours neither path; the ratios are each pair's, and their median is the figure.
    const rateRatios: number[] = [];
    const cpuRatios: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 === 0 ? (['ndjson', 'umami'] as const) : (['umami', 'ndjson'] as const);
      const runs = { ndjson: { rate: 0, cpu: 0 }, umami: { rate: 0, cpu: 0 } };
      for (const path of order) runs[path] = await importOnce(profile, path, file, ndjson, clickhouseUrl(`${path}_${pair}`));
      rateRatios.push(runs.umami.rate / runs.ndjson.rate);
      cpuRatios.push(runs.umami.cpu / runs.ndjson.cpu);
      console.log(`[${profile}] pair ${pair + 1}: Umami / NDJSON ${rateRatios.at(-1)!.toFixed(2)}x the lines/s, ${cpuRatios.at(-1)!.toFixed(2)}x the CPU a line`);
    }
    console.log(`[${profile}] Umami / NDJSON, median of ${PAIRS} pairs: ${median(rateRatios).toFixed(2)}x the lines/s, ${median(cpuRatios).toFixed(2)}x the CPU a line`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One import of the 1 000 000 lines by `path` into a fresh process: its lines/s and its CPU a line (µs). */
async function importOnce(profile: string, path: 'ndjson' | 'umami', file: string, ndjson: string, database: string | undefined): Promise<{ rate: number; cpu: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-umami-data-'));
  const service = await spawnService(dataDir, database ? { SVC_CLICKHOUSE_URL: database } : {});
  try {
    const admin = async (method: string, route: string, init: RequestInit = {}) => {
      const res = await fetch(`${service.url}/admin/v1${route}`, { method, ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...init.headers } } as RequestInit);
      if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
      return (await res.json()) as any;
    };
    const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const org = await admin('POST', '/orgs', json({ name: 'Bench' }));
    const site = await admin('POST', `/orgs/${org.id}/sites`, json({ domain: 'umami.example', name: 'Umami', timezone: 'UTC' }));
    const stream = (path: string, type: string) => ({ body: Readable.toWeb(Readable.from(paced(createReadStream(path, { highWaterMark: 256 * 1024 })))) as ReadableStream, duplex: 'half', headers: { 'content-type': type } });
    const cpuBefore = cpuSeconds(service.child.pid!);
    const started = performance.now();
    let lines: number;
    if (path === 'ndjson') {
      const report = await admin('POST', `/sites/${site.id}/events/import`, stream(ndjson, 'application/x-ndjson'));
      lines = report.accepted;
    } else {
      const { importId } = await admin('POST', `/sites/${site.id}/imports?source=umami&name=umami-export.csv`, stream(file, 'text/csv'));
      for (;;) {
        const job = (await admin('GET', `/sites/${site.id}/imports`)).imports.find((j: { importId: string }) => j.importId === importId);
        if (job.status === 'failed') throw new Error(`the Umami import failed: ${job.error}`);
        if (job.status === 'done') {
          lines = job.rows;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(service.child.pid!) - cpuBefore;
    const run = { rate: lines / seconds, cpu: (cpu * 1e6) / lines };
    const label = path === 'ndjson' ? `the same events as NDJSON (${(statSync(ndjson).size / 1024 ** 2).toFixed(0)} MiB), one call` : `Umami export (CSV ${(statSync(file).size / 1024 ** 2).toFixed(0)} MiB), upload and job`;
    console.log(`[${profile}] ${label}: ${lines} lines in ${seconds.toFixed(1)} s = ${Math.round(run.rate)} lines/s; svc's CPU ${run.cpu.toFixed(1)} µs a line; its peak RSS ${peakRss(service.child.pid!).toFixed(0)} MiB`);
    return run;
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `chunks` at UPLOAD_MBPS at most: each waits until the bytes before it would have taken that long. */
async function* paced(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const started = performance.now();
  let sent = 0;
  for await (const chunk of chunks) {
    if (UPLOAD_MBPS !== null) {
      const due = started + (sent / (UPLOAD_MBPS * 1e6)) * 1000;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    }
    sent += chunk.length;
    yield chunk;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A process's CPU time so far (user and system), in seconds: /proc's clock ticks, 100 a second. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

let clickhouse: ClickHouseServer | undefined;
try {
  for (const profile of PROFILES) {
    if (profile === 'embedded') {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-duckdb-'));
      if (CASES.includes('plausible')) await measure(profile, () => DuckDbEventStore.open({ path: join(dir, 'events.duckdb') }));
      rmSync(dir, { recursive: true, force: true });
      if (CASES.includes('umami')) await umamiAgainstNdjson(profile, () => undefined);
    } else if (profile === 'clickhouse') {
      clickhouse ??= await startClickHouse();
      const server = clickhouse;
      if (CASES.includes('plausible')) await measure(profile, () => ClickHouseEventStore.open({ url: `${server.url}/bench_imports_${process.pid}` }));
      if (CASES.includes('umami')) await umamiAgainstNdjson(profile, (path) => `${server.url}/bench_${path}_${process.pid}`);
    } else throw new Error(`unknown profile ${profile}`);
  }
} finally {
  await clickhouse?.stop();
}
