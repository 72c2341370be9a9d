// bench/imports: imports of Plausible's export and reads over imported days.
//
// 1. Import rate: a generated export of BENCH_IMPORT_DAYS days (3 years by default) with
//    BENCH_PAGES pages and BENCH_SOURCES sources a day (1 000 and 500), written to a ZIP on disk
//    and imported (parsed, staged, written) into a fresh site: rows/s and days/s.
// 2. Reads: a year of collected traffic on one site, and on another the same year whose first
//    half is imported (exported from the first site's rollups) and second half collected. p50/p95
//    of the year's stats and a year breakdown (referrers, pages) on both, and the ratio of the
//    half-imported site to the collected one (target: within 1.2).
//
// BENCH_PROFILES: `embedded` (DuckDB), `clickhouse` (a private server started as the tests do).
//
//   node --import tsx bench/imports.ts            (BENCH_IMPORT_DAYS, BENCH_PAGES, BENCH_SOURCES, BENCH_SESSIONS, BENCH_REPEAT to scale)
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { addDays, startOfLocalDay } from '../src/core/localtime.js';
import { type QueryKind, type RawParams } from '../src/core/query.js';
import { exportFileName, exportPlausible } from '../src/imports/export.js';
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

const IMPORT_DAYS = Number(process.env.BENCH_IMPORT_DAYS ?? 1095);
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const SOURCES = Number(process.env.BENCH_SOURCES ?? 500);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 300);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const PROFILES = (process.env.BENCH_PROFILES ?? 'embedded').split(',').map((p) => p.trim());
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
    await pipeline(Readable.from(exportPlausible(events, { siteId: collected.id, domain: 'collected.example', days: { from: days[0]!, to: half }, watermark, annotations: [] })), createWriteStream(firstHalf));
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

let clickhouse: ClickHouseServer | undefined;
try {
  for (const profile of PROFILES) {
    if (profile === 'embedded') {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-duckdb-'));
      await measure(profile, () => DuckDbEventStore.open({ path: join(dir, 'events.duckdb') }));
      rmSync(dir, { recursive: true, force: true });
    } else if (profile === 'clickhouse') {
      clickhouse ??= await startClickHouse();
      const server = clickhouse;
      await measure(profile, () => ClickHouseEventStore.open({ url: `${server.url}/bench_imports_${process.pid}` }));
    } else throw new Error(`unknown profile ${profile}`);
  }
} finally {
  await clickhouse?.stop();
}
