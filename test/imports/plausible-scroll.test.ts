// Plausible's scroll depth (the pages table's `scroll_depth` over `pageleave_visitors`, later
// `total_scroll_depth` over `total_scroll_depth_visits`) read into imported aggregates, on every
// engine: known sums in, `include=scrollDepth` out, alone and with collected days; an older export's
// pages without the columns unknown (null) and reported; a later import replacing the days' scroll
// depth, and a removed import taking it along.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOfLocalDay } from '../../src/core/localtime.js';
import type { RawParams } from '../../src/core/query.js';
import { importPlausible, removeImport } from '../../src/imports/plausible-import.js';
import { planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { IMPORT_SCROLL_STAGING, IMPORTED_SCROLL_DAILY, SCROLL_DAILY } from '../../src/stats/rollups/tables.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { sql, trusted } from '../../src/sql/sql.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { FIRST_HEADERS, HEADERS, zipOf } from '../helpers/plausible-export.js';

const TZ = 'UTC';
const NOW = Date.UTC(2025, 2, 20, 12);
const [D1, D2, COLLECTED_DAY, D4] = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04'];

/** An export of `days` (visitors and pages tables) whose pages lines are given whole under `pagesHeader`. */
function pagesExport(days: readonly string[], pagesHeader: string, pages: readonly string[]): Record<string, string> {
  const span = `${days[0]!.replaceAll('-', '')}_${days.at(-1)!.replaceAll('-', '')}`;
  return {
    [`imported_visitors_${span}.csv`]: [HEADERS.visitors, ...days.map((day) => `${day},10,30,6,12,600`)].join('\n') + '\n',
    [`imported_pages_${span}.csv`]: [pagesHeader, ...pages].join('\n') + '\n',
  };
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`Plausible's scroll depth read into imported aggregates: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  const dir = await mkdtemp(join(tmpdir(), 'svc-plausible-scroll-'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 's.test', name: 's', timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, 'ssite', 0);
    await events.append(dataset({ seed: 5, siteId: site.id, days: [COLLECTED_DAY], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 40, visitorsPerDay: 25, timeZone: TZ }));
    await rollupSite({ events, meta }, site, NOW, {});
    const scrollDepths = async (from: string, to: string) => {
      const params: RawParams = { comparison: 'off', from, to, dimension: 'page', include: 'scrollDepth', limit: '100' };
      const q = (await planRead(readSourceOf(events, meta), { kind: 'breakdown', params, site, now: NOW })).q;
      return Object.fromEntries((await computeBreakdown(events, q)).rows.map((r) => [r.key, r.scrollDepth]));
    };
    const importOf = async (importId: string, name: string, bytes: Buffer | string) => {
      const path = join(dir, `${importId}-${name}`);
      await writeFile(path, bytes);
      return importPlausible(events, { siteId: site.id, importId }, path, name);
    };
    const rowsOf = async (table: string) =>
      Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${trusted(table)} WHERE site_id = ${site.id}`))[0]!.n);
    // The collected day's sums of `/`, as the rollup wrote them.
    const [collected] = await events.query<{ s: unknown; n: unknown }>(
      sql`SELECT depth_sum AS s, depth_visitors AS n FROM ${trusted(SCROLL_DAILY.name)} WHERE site_id = ${site.id} AND page = '/'`,
    );
    const [collectedSum, collectedVisitors] = [Number(collected!.s), Number(collected!.n)];
    assert.ok(collectedVisitors > 0, 'visitors scrolled / on the collected day');
    const collectedAlone = await scrollDepths(COLLECTED_DAY, COLLECTED_DAY);
    assert.equal(collectedAlone['/'], Math.round(collectedSum / collectedVisitors));

    // Known sums in: `/` 410 over 8 visitors and 120 over 3; `/pricing` unknown, then 150 over 2;
    // `/blog/a` with no visitor who scrolled; the collected day's line is skipped with its day, and
    // a line whose scroll depth is more than 100 per visitor is a bad line.
    const first = await importOf('a', 'export.zip', await zipOf(pagesExport([D1, D2, COLLECTED_DAY], HEADERS.pages, [
      `${D1},example.com,/,9,8,14,410,8`,
      `${D1},example.com,/pricing,5,4,10,,`,
      `${D1},example.com,/blog/a,3,3,6,,`,
      `${D1},example.com,/docs/start,1,1,1,250,2`,
      `${D2},example.com,/,4,3,6,120,3`,
      `${D2},example.com,/pricing,3,2,4,150,2`,
      `${D2},example.com,/blog/a,3,3,6,0,0`,
      `${COLLECTED_DAY},example.com,/,2,2,2,200,2`,
    ])));
    assert.deepEqual(first.skippedDays, [COLLECTED_DAY]);
    assert.deepEqual(first.skippedLines.map((l) => [l.line, l.reason]), [[5, 'scroll depth 250 is more than 100 for each of its 2 visitors']]);
    assert.deepEqual(first.files.map((f) => [f.table, f.missingColumns]), [['visitors', []], ['pages', []]]);
    assert.deepEqual(await scrollDepths(D1, D2), { '/': 48, '/pricing': 75, '/blog/a': null }, '530 / 11 is 48.2');
    assert.deepEqual(await scrollDepths(D1, D1), { '/': 51, '/pricing': null, '/blog/a': null }, '410 / 8 is 51.25');
    // Imported days add their sums to the collected day's; the skipped line leaves the collected day as it was.
    assert.equal((await scrollDepths(D1, COLLECTED_DAY))['/'], Math.round((530 + collectedSum) / (11 + collectedVisitors)));
    assert.deepEqual(await scrollDepths(COLLECTED_DAY, COLLECTED_DAY), collectedAlone);
    assert.deepEqual([await rowsOf(IMPORTED_SCROLL_DAILY.name), await rowsOf(IMPORT_SCROLL_STAGING.name)], [3, 0], 'three pages and days known; nothing left staged');

    // The later columns, in one CSV known by its header: a visit's deepest scroll, over the visits.
    const newest = 'date,hostname,page,visits,visitors,pageviews,total_scroll_depth,total_scroll_depth_visits,total_time_on_page,total_time_on_page_visits';
    const later = await importOf('b', 'pages.csv', `${newest}\n${D4},example.com,/,5,4,5,300,5,100,5\n`);
    assert.deepEqual(later.files.map((f) => [f.table, f.missingColumns]), [['pages', []]]);
    assert.deepEqual(await scrollDepths(D4, D4), { '/': 60 });

    // An older export without the columns: its pages' scroll depth is unknown, and the report says they lack them.
    const older = await importOf('c', 'older.zip', await zipOf(pagesExport([D1], FIRST_HEADERS.pages, [`${D1},8,14,"example.com","/"`, `${D1},4,10,"example.com","/pricing"`])));
    assert.deepEqual(older.files.find((f) => f.table === 'pages')?.missingColumns, ['visits', 'scroll_depth', 'pageleave_visitors']);
    assert.deepEqual(await scrollDepths(D1, D1), { '/': null, '/pricing': null }, "it replaced the first import's day");
    assert.deepEqual(await scrollDepths(D1, D2), { '/': 40, '/pricing': 75, '/blog/a': null }, 'the other day stays');

    // A later import of the same day replaces its scroll depth.
    await importOf('d', 'again.zip', await zipOf(pagesExport([D2], HEADERS.pages, [`${D2},example.com,/,4,3,6,270,3`, `${D2},example.com,/pricing,3,2,4,,`])));
    assert.deepEqual(await scrollDepths(D2, D2), { '/': 90, '/pricing': null });
    assert.equal(await rowsOf(IMPORTED_SCROLL_DAILY.name), 2, 'the second day and the fourth');

    // Removed imports take their scroll depth along.
    await removeImport(events, { siteId: site.id, importId: 'd' });
    assert.deepEqual(await scrollDepths(D2, D2), {});
    await removeImport(events, { siteId: site.id, importId: 'b' });
    assert.deepEqual(await scrollDepths(D4, D4), {});
    for (const importId of ['a', 'c']) await removeImport(events, { siteId: site.id, importId });
    assert.deepEqual([await rowsOf(IMPORTED_SCROLL_DAILY.name), await rowsOf(IMPORT_SCROLL_STAGING.name)], [0, 0]);
    assert.deepEqual(await scrollDepths(D1, COLLECTED_DAY), collectedAlone);
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});
