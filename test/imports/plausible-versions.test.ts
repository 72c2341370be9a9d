// Plausible's exports of every version: the column sets Plausible has written since its CSV export
// exists (the older ones as Plausible's own importer tests them: quoted headers, tables without
// the columns added later) are recognised by their header, read on every engine, and what a table
// lacks reads as unknown, never as 0: left out of a sum that has other days, null where no day
// read has it. The report names the columns each table lacked, and svc's export gives the unknowns back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { missingColumnsText } from '../../src/core/import-report.js';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { type QueryKind, type RawParams } from '../../src/core/query.js';
import type { Site } from '../../src/entities/sites.js';
import { exportPlausible, siteHeldDays } from '../../src/imports/export.js';
import { missingColumns, tableOfHeader, type PlausibleTable } from '../../src/imports/plausible.js';
import { importPlausible, type ImportReport } from '../../src/imports/plausible-import.js';
import { planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { splitRecord } from '../../src/imports/csv.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { FIRST_HEADERS, firstExport, HEADERS, quoted, zipOf } from '../helpers/plausible-export.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';
import { createApiKey, createSite, startTestServer } from '../helpers/server.js';

test("every version's header is known as its table, with the columns it lacks", () => {
  const cases: Array<[string, string, PlausibleTable | null, string[]]> = [
    ['first sources', FIRST_HEADERS.sources, 'sources', ['referrer', 'utm_source', 'pageviews']],
    ['first pages', FIRST_HEADERS.pages, 'pages', ['visits', 'scroll_depth', 'pageleave_visitors']],
    ["first pages, as the importer's structure lists them", 'date,hostname,page,visitors,pageviews,exits,time_on_page', 'pages', ['visits', 'scroll_depth', 'pageleave_visitors']],
    ['pages with visits, before scroll depth', 'date,hostname,page,visits,visitors,pageviews', 'pages', ['scroll_depth', 'pageleave_visitors']],
    ['pages with a scroll depth but not its visitors', 'date,hostname,page,visits,visitors,pageviews,scroll_depth', 'pages', ['pageleave_visitors']],
    ['first entry pages', FIRST_HEADERS.entry_pages, 'entry_pages', ['pageviews']],
    ['first exit pages', FIRST_HEADERS.exit_pages, 'exit_pages', ['visit_duration', 'bounces', 'pageviews']],
    ['first locations', FIRST_HEADERS.locations, 'locations', ['pageviews']],
    ['first devices', FIRST_HEADERS.devices, 'devices', ['pageviews']],
    ['first browsers', FIRST_HEADERS.browsers, 'browsers', ['pageviews']],
    ['first systems', FIRST_HEADERS.operating_systems, 'operating_systems', ['pageviews']],
    ['visitors, every version', FIRST_HEADERS.visitors, 'visitors', []],
    ['custom events, every version', FIRST_HEADERS.custom_events, 'custom_events', []],
    ...Object.entries(HEADERS).map(([table, header]): [string, string, PlausibleTable, string[]] => [`current ${table}`, header, table as PlausibleTable, []]),
    ['pages with scroll depth and time on page', 'date,hostname,page,visits,visitors,pageviews,total_scroll_depth,total_scroll_depth_visits,total_time_on_page,total_time_on_page_visits', 'pages', []],
    ["svc's dimensions", 'date,dimension,key,visitors,pageviews,events,visits,bounces,visit_duration', 'svc_dimensions', []],
    ['no table', 'a,b', null, []],
    ['two tables at once', 'date,device,browser,visitors,visits,visit_duration,bounces', null, []],
    ['visitors without bounces', 'date,visitors,pageviews,visits,visit_duration', null, []],
  ];
  for (const [what, header, table, lacking] of cases) {
    for (const text of [header, quoted(header), `\uFEFF${header}`]) {
      const fields = splitRecord(text);
      assert.equal(tableOfHeader(fields), table, `${what}: ${text}`);
      if (table) assert.deepEqual(missingColumns(table, fields), { required: [], optional: lacking }, what);
    }
  }
});

const TZ = 'UTC';
const NOW = Date.UTC(2025, 2, 20, 12);
const IMPORTED = ['2025-02-10', '2025-02-11'];
const COLLECTED_DAY = '2025-03-03';

/** The columns each file's table lacked, by table. */
const lackedOf = (report: ImportReport) => Object.fromEntries(report.files.flatMap((f) => (f.table && f.missingColumns.length > 0 ? [[f.table, f.missingColumns]] : [])));

for (const adapter of EVENT_STORE_ADAPTERS) test(`the first export read: what its tables lack is unknown, never 0: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  const dir = await mkdtemp(join(tmpdir(), 'svc-plausible-versions-'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const newSite = async (id: string) => {
      const site = await meta.createSite(org.id, { domain: `${id}.test`, name: id, timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, id, 0);
      return { site, goals: [await meta.createGoal(site.internalId, { name: 'pricing', kind: 'page', pattern: '/pricing' }, 0)] };
    };
    const { site, goals } = await newSite('oldsite');
    await events.append(dataset({ seed: 11, siteId: site.id, days: [COLLECTED_DAY], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 30, visitorsPerDay: 20, timeZone: TZ }));
    await rollupSite({ events, meta }, site, NOW, {});
    const planned = async (on: Site, kind: QueryKind, params: RawParams) => (await planRead(readSourceOf(events, meta), { kind, params: { comparison: 'off', ...params }, site: on, now: NOW })).q;
    const imported = { from: IMPORTED[0]!, to: IMPORTED[1]! };
    const stats = async (params: RawParams, on = site) => computeStats(events, await planned(on, 'stats', params), goals);
    const figures = async (params: RawParams, on = site) => {
      const s = await stats(params, on);
      return [s.visitors.value, s.pageviews.value, s.bounceRate.value, s.avgDuration.value];
    };
    const breakdown = async (dimension: string, params: RawParams = imported, on = site) =>
      (await computeBreakdown(events, await planned(on, 'breakdown', { dimension, limit: '100', ...params }))).rows;
    const keyed = async (dimension: string, params?: RawParams, on?: Site) => (await breakdown(dimension, params, on)).map((r) => [r.key, r.visitors, r.viewsUnknown ? null : r.views]);

    // The collected day's busiest exit page is one of the export's too: the two meet in one key.
    const collected = { from: COLLECTED_DAY, to: COLLECTED_DAY };
    const exit = (await breakdown('exit', collected))[0]!.key;
    const collectedExit = await figures({ ...collected, filter: `exit:${exit}` });
    const collectedChrome = (await keyed('browser', collected)).find(([key]) => key === 'Chrome');
    assert.ok(collectedChrome && collectedExit[1]! > 0 && collectedExit[2] !== null, 'the collected day has Chrome and its exit page');

    const path = join(dir, 'first.zip');
    await writeFile(path, await zipOf(firstExport(IMPORTED, exit)));
    const report = await importPlausible(events, { siteId: site.id, importId: 'first' }, path, 'first.zip');
    assert.deepEqual([report.skippedRows, report.skippedDays, report.rows], [0, [], 2 * (1 + 3 + 3 + 2 + 2 + 2 + 2 + 2 + 2 + 1)]);
    assert.deepEqual(lackedOf(report), {
      sources: ['referrer', 'utm_source', 'pageviews'],
      pages: ['visits', 'scroll_depth', 'pageleave_visitors'],
      entry_pages: ['pageviews'],
      exit_pages: ['visit_duration', 'bounces', 'pageviews'],
      locations: ['pageviews'],
      devices: ['pageviews'],
      browsers: ['pageviews'],
      operating_systems: ['pageviews'],
    });

    // The site's figures: the visitors table has them all, in every version.
    assert.deepEqual([...(await figures(imported)), (await stats(imported)).sessions.value], [20, 60, 0.5, 50, 24]);
    // Under a key, what its table has counts and what it lacks is unknown (null), never 0.
    const cases: Array<[string, Array<number | null>]> = [
      ['browser:Chrome', [12, null, 6 / 14, 50]],
      ['device:desktop', [12, null, 6 / 14, 800 / 14]],
      ['country:FR', [12, null, 8 / 14, 720 / 14]],
      ['entry:/', [14, null, 0.5, 50]],
      [`exit:${exit}`, [12, null, null, null]],
      ['referrer:Google', [6, null, 2 / 6, 50]],
      ['utm_medium:email', [6, null, 4 / 8, 500 / 8]],
      ['page:/pricing', [8, 20, null, null]],
    ];
    const rounded = (values: Array<number | null>) => values.map((v, i) => (v === null || i < 2 ? v : Math.round(v * (i === 2 ? 10_000 : 10)) / (i === 2 ? 10_000 : 10)));
    for (const [filter, expected] of cases) assert.deepEqual(await figures({ ...imported, filter }), rounded(expected), filter);
    // Breakdowns: views unknown where the table lacks pageviews; pages have them.
    assert.deepEqual(await keyed('browser'), [['Chrome', 12, null], ['Safari', 8, null]]);
    assert.deepEqual(await keyed('referrer'), [['(none)', 8, null], ['Google', 6, null], ['Newsletter', 6, null]]);
    assert.deepEqual(await keyed('utm_source'), [], 'the export folds utm_source into its source: none is written');
    assert.deepEqual(await keyed('page'), [['/', 14, 28], ['/pricing', 8, 20], ['/blog/a', 6, 12]]);
    assert.deepEqual(await keyed('hostname'), [['example.com', 22, 48], ['blog.example.com', 6, 12]]);
    const exits = await breakdown('exit', { ...imported, include: 'bounceRate,avgDuration' });
    assert.deepEqual(exits.map((r) => [r.key, r.visitors, r.viewsUnknown ? null : r.views, r.bounceRate, r.avgDuration]), [[exit, 12, null, null, null], ['/elsewhere', 8, null, null, null]]);
    const entries = await breakdown('entry', { ...imported, include: 'bounceRate' });
    assert.deepEqual(entries.map((r) => [r.key, r.viewsUnknown ? null : r.views, r.bounceRate]), [['/', null, 0.5], ['/blog/a', null, 0.5]]);
    // Daily points (three days: two imported, one with nothing counted).
    const series = async (metric: string, filter: string) =>
      (await computeTimeseries(events, await planned(site, 'timeseries', { from: IMPORTED[0]!, to: '2025-02-12', metric, filter }), goals)).points.map((p) => p.value);
    assert.deepEqual(await series('pageviews', 'browser:Chrome'), [null, null, 0]);
    assert.deepEqual(await series('visitors', 'browser:Chrome'), [6, 6, 0]);
    const conversions = await computeGoals(events, await planned(site, 'goals', imported), goals);
    assert.deepEqual(conversions.map((g) => [g.conversions, g.uniqueConversions]), [[20, 8]], 'page goals count from pages, which have pageviews');

    // With the collected day: an unknown part is left out of the sum, and a ratio counts the days
    // that know both its parts (the whole of February from the monthly sums, March from the days).
    const mixed = { from: '2025-02-01', to: COLLECTED_DAY };
    const chrome = (await keyed('browser', mixed)).find(([key]) => key === 'Chrome');
    assert.deepEqual(chrome, ['Chrome', 12 + Number(collectedChrome[1]), collectedChrome[2]]);
    const exitMixed = await figures({ ...mixed, filter: `exit:${exit}` });
    assert.deepEqual(exitMixed, [12 + collectedExit[0]!, collectedExit[1], collectedExit[2], collectedExit[3]], 'the exit page: bounce rate and duration of the collected day alone');
    const exitRow = (await breakdown('exit', { ...mixed, include: 'bounceRate,avgDuration' })).find((r) => r.key === exit);
    assert.deepEqual([exitRow?.bounceRate, exitRow?.avgDuration], [collectedExit[2], collectedExit[3]]);

    // svc's export writes an unknown measure as an empty field, and its import reads it back unknown.
    const watermark = (await meta.getRollupState(rollupKey(events, site.id)))?.watermark ?? null;
    const zip = join(dir, 'svc-export.zip');
    await pipeline(Readable.from(exportPlausible(events, { siteId: site.id, domain: site.domain, days: mixed, held: await siteHeldDays(events, site.id), watermark, annotations: [] })), createWriteStream(zip));
    const copy = await newSite('copysite');
    const back = await importPlausible(events, { siteId: copy.site.id, importId: 'back' }, zip, 'svc-export.zip');
    assert.deepEqual([back.skippedRows, lackedOf(back)], [0, {}], 'every column there, some fields empty');
    for (const params of [imported, mixed]) {
      for (const dimension of ['browser', 'exit', 'entry', 'page', 'referrer', 'utm_source']) {
        const read = { ...params, ...(dimension === 'page' ? {} : { include: 'bounceRate' }) };
        assert.deepEqual(await breakdown(dimension, read, copy.site), await breakdown(dimension, read), `${dimension} ${params.from}`);
      }
      for (const filter of ['browser:Chrome', `exit:${exit}`, 'page:/pricing']) {
        assert.deepEqual(await figures({ ...params, filter }, copy.site), await figures({ ...params, filter }), `${filter} ${params.from}`);
      }
    }
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('over HTTP: the report names the columns an older export lacks, a single old CSV is known by its header, and unknown figures answer null', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    const read = async (endpoint: string, params: string) => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${endpoint}?from=2025-02-10&to=2025-02-11&${params}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200, params);
      return (await res.json()) as any;
    };
    const archive = await uploadImport(server, site.siteId, await zipOf(firstExport(IMPORTED, '/pricing')), 'source=plausible&name=first.zip');
    const job = await finishedImport(server, site.siteId, archive.body.importId);
    assert.equal(job.status, 'done', job.error);
    const lacked = Object.fromEntries(job.files.map((f: { table: string; missingColumns: string[] }) => [f.table, f.missingColumns]));
    assert.deepEqual([lacked.exit_pages, lacked.sources, lacked.visitors], [['visit_duration', 'bounces', 'pageviews'], ['referrer', 'utm_source', 'pageviews'], []]);
    assert.match(missingColumnsText(job.files) ?? '', /^An older export: sources without referrer URLs, UTM sources and pageviews; pages without visits, scroll depths and scroll depth visitors; .*exit pages without visit duration, bounces and pageviews; .*never counted as 0\.$/);
    // JSON carries null where a KPI is unknown; a row's views stay an integer, 0 and said unknown.
    assert.deepEqual((await read('breakdown', 'dimension=browser')).rows.map((r: { key: string; views: unknown; viewsUnknown?: unknown }) => [r.key, r.views, r.viewsUnknown]), [['Chrome', 0, true], ['Safari', 0, true]]);
    assert.ok(!('viewsUnknown' in (await read('breakdown', 'dimension=page')).rows[0]), 'known views carry no flag');
    const exit = (await read('stats', 'filter=exit:/pricing')).stats;
    assert.deepEqual([exit.visitors.value, exit.pageviews.value, exit.bounceRate.value, exit.avgDuration.value], [12, null, null, null]);

    // One CSV of the first export alone, under a name that says nothing: its header tells the table.
    const copy = await createSite(server);
    const exits = firstExport(['2025-02-12'], '/pricing')['imported_exit_pages_20250212_20250212.csv']!;
    const single = await uploadImport(server, copy.siteId, exits, 'source=plausible&name=exits.csv', { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv' });
    assert.equal(single.status, 202, JSON.stringify(single.body));
    const alone = await finishedImport(server, copy.siteId, single.body.importId);
    assert.deepEqual([alone.status, alone.from, alone.to, alone.rows, alone.files], ['done', '2025-02-12', '2025-02-12', 2, [{ name: 'exits.csv', table: 'exit_pages', rows: 2, skippedRows: 0, missingColumns: ['visit_duration', 'bounces', 'pageviews'] }]]);
    // Its keys alone are read: the table's days count as imported though the export had no visitors table.
    const copyKey = await createApiKey(server, copy.orgId);
    const exitRows = await fetch(`${server.url}/v1/sites/${copy.siteId}/breakdown?from=2025-02-12&to=2025-02-12&dimension=exit`, { headers: { authorization: `Bearer ${copyKey}` } });
    assert.deepEqual(((await exitRows.json()) as any).rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]), [['/pricing', 6], ['/elsewhere', 4]]);
  } finally {
    await server.stop();
  }
});
