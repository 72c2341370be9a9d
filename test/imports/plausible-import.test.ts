// Plausible's export read into a site's imported aggregates, on every engine: the mapping tables,
// the answers that read them, days holding collected data skipped, re-imports replacing days, and
// hostile input refused or skipped with its reason while the site's data stays as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { type QueryKind, type RawParams } from '../../src/core/query.js';
import { importPlausible, ImportRefused, removeImport } from '../../src/imports/plausible-import.js';
import { MAX_COMPRESSION_RATIO } from '../../src/imports/zip.js';
import { planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

const TZ = 'UTC';
const NOW = Date.UTC(2025, 2, 20, 12);
const EXPORT_DAYS = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04', '2025-03-05'];
const COLLECTED_DAY = '2025-03-03';

for (const adapter of EVENT_STORE_ADAPTERS) test(`a Plausible export read into imported aggregates: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  const dir = await mkdtemp(join(tmpdir(), 'svc-plausible-'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'p.test', name: 'p', timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, 'psite', 0);
    const goals = [
      await meta.createGoal(site.internalId, { name: 'pricing', kind: 'page', pattern: '/pricing' }, 0),
      await meta.createGoal(site.internalId, { name: 'blog', kind: 'page', pattern: '/blog/*' }, 0),
      await meta.createGoal(site.internalId, { name: 'signup', kind: 'event', pattern: 'Signup' }, 0),
    ];
    await events.append(dataset({ seed: 7, siteId: site.id, days: [COLLECTED_DAY], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 20, visitorsPerDay: 15, timeZone: TZ }));
    await rollupSite({ events, meta }, site, NOW, {});
    const planned = async (kind: QueryKind, params: RawParams) => {
      return (await planRead(readSourceOf(events, meta), { kind, params: { comparison: 'off', ...params }, site, now: NOW })).q;
    };
    const stats = async (params: RawParams) => computeStats(events, await planned('stats', params), goals);
    const breakdown = async (dimension: string, params: RawParams = {}) =>
      (await computeBreakdown(events, await planned('breakdown', { from: '2025-03-01', to: '2025-03-02', dimension, ...params }))).rows.map((r) => [r.key, r.visitors, r.views]);
    const file = async (name: string, bytes: Buffer | string) => {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    };
    const collectedAlone = await stats({ from: COLLECTED_DAY, to: COLLECTED_DAY });
    assert.ok((collectedAlone.visitors.value ?? 0) > 0);

    // The export: its collected day is skipped and reported, every other day read.
    const fractions: number[] = [];
    const report = await importPlausible(events, { siteId: site.id, importId: 'i1' }, await file('export.zip', await zipOf(plausibleExport(EXPORT_DAYS))), 'export.zip', (f) => fractions.push(f));
    assert.deepEqual(report.days, { from: '2025-03-01', to: '2025-03-05' });
    assert.deepEqual(report.skippedDays, [COLLECTED_DAY]);
    assert.equal(report.skippedRows, 0);
    assert.equal(report.files.length, 10);
    assert.equal(report.rows, 5 * (1 + 3 + 3 + 2 + 2 + 2 + 2 + 3 + 2 + 1));
    assert.equal(fractions.at(-1), 1);

    const imported = await stats({ from: '2025-03-01', to: '2025-03-02' });
    assert.deepEqual(
      [imported.visitors.value, imported.pageviews.value, imported.sessions.value, imported.bounceRate.value, imported.avgDuration.value, imported.conversions.value],
      [20, 60, 24, 0.5, 50, 2 * (10 + 6 + 3)],
    );
    const all = await stats({ from: '2025-03-01', to: '2025-03-05' });
    assert.equal(all.visitors.value, 40 + collectedAlone.visitors.value!, 'four imported days and the collected one');
    assert.equal((await planned('stats', { from: '2025-03-01', to: '2025-03-05' })).plan.imported, 'included');

    // The mapping tables: referrer hosts, utm values, families, devices, locations.
    assert.deepEqual(await breakdown('referrer'), [['(none)', 8, 20], ['Newsletter', 6, 24], ['google.com', 6, 16]]);
    assert.deepEqual(await breakdown('utm_campaign'), [['(none)', 14, 36], ['spring, sale', 6, 24]]);
    assert.deepEqual(await breakdown('browser'), [['Chrome', 12, 36], ['Safari', 8, 24]]);
    assert.deepEqual(await breakdown('os'), [['macOS', 12, 40], ['Linux', 8, 20]]);
    assert.deepEqual(await breakdown('device'), [['desktop', 12, 40], ['mobile', 8, 20]]);
    assert.deepEqual(await breakdown('city'), [['Paris', 12, 36], ['(none)', 8, 24]], 'GeoNames 2988507 is Paris');
    assert.deepEqual(await breakdown('region'), [['FR-IDF', 12, 36], ['(none)', 8, 24]]);
    assert.deepEqual(await breakdown('country'), [['FR', 12, 36], ['DE', 8, 24]]);
    assert.deepEqual(await breakdown('entry'), [['/', 14, 40], ['/blog/a', 6, 20]]);
    assert.deepEqual(await breakdown('event'), [['pageview', 20, 60], ['Signup', 4, 6]]);
    assert.deepEqual(await breakdown('page', { filter: 'page:/pricing' }), [['/pricing', 8, 20]]);
    // A host's figures are its pages' added up; its name lowercased.
    assert.deepEqual(await breakdown('hostname'), [['example.com', 22, 48], ['blog.example.com', 6, 12]]);
    // One filter: the table of its dimension answers; another dimension's breakdown cannot.
    const filtered = await stats({ from: '2025-03-01', to: '2025-03-02', filter: 'page:/pricing' });
    assert.deepEqual([filtered.visitors.value, filtered.pageviews.value], [8, 20]);
    const crossed = await planned('breakdown', { period: '7d', dimension: 'page', filter: 'country:FR' });
    assert.equal(crossed.plan.imported, 'none', 'the last 7 days hold no imported day');
    const goalAnswers = await computeGoals(events, await planned('goals', { from: '2025-03-01', to: '2025-03-02' }), goals);
    assert.deepEqual(goalAnswers.map((g) => [g.name, g.conversions, g.uniqueConversions]), [['pricing', 20, 8], ['blog', 12, 6], ['signup', 6, 4]]);
    const series = await computeTimeseries(events, await planned('timeseries', { from: '2025-03-01', to: '2025-03-05', metric: 'visitors' }), goals);
    assert.deepEqual(series.points.map((p) => p.value), [10, 10, collectedAlone.visitors.value, 10, 10]);

    // Imported and collected cities share keys: the export's Paris and the events' Paris are one row.
    const collectedParis = (await breakdown('city', { from: COLLECTED_DAY, to: COLLECTED_DAY })).find(([key]) => key === 'Paris');
    assert.ok(collectedParis, 'the collected day has visitors from Paris');
    const paris = (await breakdown('city', { from: '2025-03-01', to: '2025-03-05' })).filter(([key]) => key === 'Paris');
    assert.deepEqual(paris, [['Paris', 24 + Number(collectedParis[1]), 72 + Number(collectedParis[2])]]);

    const before = await stats({ from: '2025-03-01', to: '2025-03-20' });
    const unchanged = async (what: string) => assert.deepEqual(await stats({ from: '2025-03-01', to: '2025-03-20' }), before, what);

    // Cities by GeoNames id: a name without its diacritics, as svc's geolocation gives; an id the table lacks kept as `geonames:<id>`.
    const cities = [
      'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
      '2025-03-10,DE,DE-BE,2950159,5,5,50,1,10',
      '2025-03-10,DE,DE-BY, 2867714 ,4,4,40,1,8',
      '2025-03-10,BR,BR-SP,3448439,3,3,30,1,6',
      '2025-03-10,ZZ,,999999999,2,2,20,1,4',
      '2025-03-10,DE,,0,1,1,10,1,2',
    ];
    const cityDay = { 'imported_visitors_20250310_20250310.csv': 'date,visitors,pageviews,bounces,visits,visit_duration\n2025-03-10,15,30,5,15,150\n', 'imported_locations_20250310_20250310.csv': cities.join('\n') };
    const located = await importPlausible(events, { siteId: site.id, importId: 'i-cities' }, await file('cities.zip', await zipOf(cityDay)), 'cities.zip');
    assert.equal(located.rows, 1 + 5);
    assert.deepEqual(await breakdown('city', { from: '2025-03-10', to: '2025-03-10' }), [
      ['Berlin', 5, 10],
      ['Munich', 4, 8],
      ['Sao Paulo', 3, 6],
      ['geonames:999999999', 2, 4],
      ['(none)', 1, 2],
    ]);
    await removeImport(events, { siteId: site.id, importId: 'i-cities' });
    await unchanged('the cities import removed');

    // Bad lines are skipped and counted with their reason; the good ones are read.
    const lines = [
      'date,visitors,pageviews,bounces,visits,visit_duration',
      '2025-03-10,1,2,1,1,5',
      '2025-03-11,-1,2,1,1,5',
      '2025-03-12,1,2,1,1,5',
      '2025-03-11,1,2,1',
      '2025-03-11,one,2,1,1,5',
      '2025-02-30,1,2,1,1,5',
    ];
    const bad = await importPlausible(events, { siteId: site.id, importId: 'i2' }, await file('imported_visitors_20250310_20250311.csv', lines.join('\n')), 'imported_visitors_20250310_20250311.csv');
    assert.equal(bad.rows, 1);
    assert.deepEqual(
      bad.skippedLines.map((l) => [l.line, l.reason]),
      [
        [3, 'negative visitors (-1)'],
        [4, "date 2025-03-12 is outside the file's days 2025-03-10 to 2025-03-11"],
        [5, '4 fields where the header has 6'],
        [6, 'visitors is not a count ("one")'],
        [7, 'date is not a day ("2025-02-30")'],
      ],
    );
    assert.equal((await stats({ from: '2025-03-10', to: '2025-03-11' })).visitors.value, 1);
    await removeImport(events, { siteId: site.id, importId: 'i2' });
    await unchanged('an import removed leaves the others');

    // Refused whole, with the reason; nothing of the site changes.
    const refusals: Array<[string, Buffer | string, RegExp]> = [
      ['imported_visitors_20250310_20250311.csv', 'date,visitors,pageviews,visits,visit_duration\n2025-03-10,1,2,1,5\n', /the visitors table has no column bounces/],
      ['notes.csv', 'a,b\n1,2\n', /not a file of Plausible's export/],
      ['climb.zip', await zipOf({ '../imported_visitors_20250310_20250311.csv': 'date,visitors,pageviews,bounces,visits,visit_duration\n' }), /climbs out of the archive/],
      ['bomb.zip', await zipOf({ 'imported_visitors_20250310_20250311.csv': `date,visitors,pageviews,bounces,visits,visit_duration\n${'2025-03-10,1,2,1,1,5\n'.repeat(200_000)}` }), /past the limit of 100 \(a ZIP bomb\)/],
      ['lying.zip', await lyingBomb(), /inflates past its declared size/],
      ['empty.zip', await zipOf({ 'readme.txt': 'hello' }), /none of the tables/],
    ];
    for (const [name, bytes, reason] of refusals) {
      await assert.rejects(importPlausible(events, { siteId: site.id, importId: `r-${name}` }, await file(name, bytes), name), (err: unknown) => err instanceof ImportRefused && reason.test(err.message), name);
      await unchanged(name);
    }
    assert.ok(MAX_COMPRESSION_RATIO === 100);

    // A later import of the same source replaces the days it covers, whichever import wrote them.
    const again = await importPlausible(events, { siteId: site.id, importId: 'i3' }, await file('again.zip', await zipOf(plausibleExport(['2025-03-01', '2025-03-02'], () => 2))), 'again.zip');
    assert.deepEqual(again.skippedDays, []);
    assert.equal((await stats({ from: '2025-03-01', to: '2025-03-02' })).visitors.value, 40);
    assert.equal((await stats({ from: '2025-03-04', to: '2025-03-05' })).visitors.value, 20, 'days it does not cover stay');
    await removeImport(events, { siteId: site.id, importId: 'i3' });
    assert.equal((await stats({ from: '2025-03-01', to: '2025-03-02' })).visitors.value, 0);
    await removeImport(events, { siteId: site.id, importId: 'i1' });
    assert.deepEqual(await stats({ from: COLLECTED_DAY, to: COLLECTED_DAY }), collectedAlone);
    assert.equal((await planned('stats', { from: '2025-03-01', to: '2025-03-05' })).plan.imported, 'none');
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** A ZIP whose directory declares its entry small while it inflates to 50 MB of zeros. */
async function lyingBomb(): Promise<Buffer> {
  const header = 'date,visitors,pageviews,bounces,visits,visit_duration\n';
  const honest = await zipOf({ 'imported_visitors_20250310_20250311.csv': header });
  const data = deflateRawSync(Buffer.concat([Buffer.from(header), Buffer.alloc(50 * 1024 * 1024, 0x20)]));
  // Swap the entry's deflated bytes and sizes: compressed size true, uncompressed size the honest one's.
  const nameLength = honest.readUInt16LE(26);
  const start = 30 + nameLength;
  const honestCompressed = honest.readUInt32LE(honest.length - 22 - 46 - nameLength + 20);
  const tail = honest.subarray(start + honestCompressed);
  const out = Buffer.concat([honest.subarray(0, start), data, tail]);
  const central = out.length - 22 - 46 - nameLength;
  out.writeUInt32LE(data.length, central + 20);
  out.writeUInt32LE(out.length - 22 - 46 - nameLength, out.length - 22 + 16);
  // The descriptor after the data keeps the honest sizes; the directory says `header` bytes once inflated.
  return out;
}
