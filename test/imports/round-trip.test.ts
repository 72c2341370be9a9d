// The export read back: a site with 90 days of varied traffic is exported in Plausible's format and
// the ZIP imported into a fresh site; every stats, daily timeseries and single-dimension breakdown
// of whole days answers the same on both, on every engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { addDays, startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS } from '../../src/core/vocabulary.js';
import { METRICS } from '../../src/core/metric-registry.js';
import type { Site } from '../../src/entities/sites.js';
import { exportPlausible } from '../../src/imports/export.js';
import { importPlausible } from '../../src/imports/plausible-import.js';
import { isZipFile, readZipDirectory } from '../../src/imports/zip.js';
import { planInputs } from '../../src/stats/inputs.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { createRollupTables, rollupKey, rollupSite } from '../../src/stats/rollups/job.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';

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
    await pipeline(Readable.from(exportPlausible(events, { siteId: original.site.id, domain: 'original.test', days: { from: FIRST, to: LAST }, watermark })), createWriteStream(zip));
    assert.ok(await isZipFile(zip));
    const names = (await readZipDirectory(zip)).map((e) => e.name);
    assert.ok(names.includes(`imported_visitors_${FIRST.replaceAll('-', '')}_${LAST.replaceAll('-', '')}.csv`), names.join(' '));
    assert.equal(names.length, 11);
    const report = await importPlausible(events, { siteId: fresh.site.id, importId: 'back' }, zip, 'export.zip');
    assert.deepEqual([report.skippedRows, report.skippedDays, report.days], [0, [], { from: FIRST, to: LAST }]);

    const planned = async (site: Site, kind: QueryKind, params: RawParams) => {
      const q = parseQuery(kind, { comparison: 'off', ...params }, site, NOW);
      return planQuery(q, await planInputs(events, site, q, await meta.getRollupState(rollupKey(events, site.id))));
    };
    const periods: RawParams[] = [{ from: FIRST, to: LAST }, { from: addDays(FIRST, 17), to: addDays(FIRST, 47) }, { from: addDays(LAST, -6), to: LAST }, { from: addDays(LAST, -2), to: LAST }];
    let compared = 0;
    for (const period of periods) {
      const same = async (what: string, read: (site: Site, goals: typeof original.goals) => Promise<unknown>) => {
        assert.deepEqual(await read(fresh.site, fresh.goals), await read(original.site, original.goals), `${JSON.stringify(period)}: ${what}`);
        compared++;
      };
      await same('stats', async (site, goals) => computeStats(events, await planned(site, 'stats', period), goals));
      for (const metric of METRICS) {
        await same(`timeseries ${metric}`, async (site, goals) => (await computeTimeseries(events, await planned(site, 'timeseries', { ...period, metric, grain: 'day' }), goals)).points);
      }
      for (const dimension of DIMENSIONS) {
        await same(`breakdown ${dimension}`, async (site) => computeBreakdown(events, await planned(site, 'breakdown', { ...period, dimension, limit: '1000' })));
      }
    }
    assert.equal(compared, periods.length * (1 + METRICS.length + DIMENSIONS.length));
    // The fresh site's answers come from imported aggregates; the original's from its rollups.
    assert.equal((await planned(fresh.site, 'stats', { from: FIRST, to: LAST })).plan.imported, 'included');
    assert.equal((await planned(original.site, 'stats', { from: FIRST, to: LAST })).plan.imported, 'none');
    const stats = await computeStats(events, await planned(fresh.site, 'stats', { from: FIRST, to: LAST }), fresh.goals);
    assert.ok((stats.visitors.value ?? 0) > 1000 && (stats.conversions.value ?? 0) > 0 && stats.bounceRate.value !== null);
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});
