// docs/api.md: `breakdown` with `include=bounceRate,avgDuration` gives each row the figure `stats`
// answers with `filter=<dimension>:<key>` added to the request's filters: on random datasets, over
// raw events, rollups and session rows, with and without filters, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS, type QueryDimension } from '../../src/core/vocabulary.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'Europe/Berlin';
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
const NOW = startOfLocalDay('2026-03-06', TZ) + 10 * 3_600_000;
const FILTER_SETS: ReadonlyArray<readonly string[]> = [[], ['device:desktop'], ['browser!:Firefox'], ['page:/']];
const BREAKDOWNS: readonly QueryDimension[] = [...DIMENSIONS, 'prop.plan'];

for (const adapter of EVENT_STORE_ADAPTERS) test(`breakdown include=bounceRate,avgDuration equals stats with the key's filter: ${adapter.name}`, async () => {
  const { events, meta, site, goals, close } = await openRollupSite(adapter, 7, TZ);
  try {
    await events.append(dataset({ seed: 7, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 50, visitorsPerDay: 35, timeZone: TZ }));
    await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
    const watermark = (await meta.getRollupState(rollupKey(events, site.id)))?.watermark ?? null;
    assert.equal(watermark, DAYS.at(-1));
    const plans = [
      ['raw events', { watermark: null, retentionMonths: null, rawDays: 60 }],
      ['rollups and session rows', { watermark, retentionMonths: null, rawDays: 60 }],
    ] as const;
    const read = <K extends 'stats' | 'breakdown'>(kind: K & QueryKind, params: RawParams, inputs: (typeof plans)[number][1]) =>
      planQuery(parseQuery(kind, { from: DAYS[0], to: DAYS.at(-1), ...params }, site, NOW), inputs);
    let counted = 0;
    for (const [source, inputs] of plans) {
      for (const filters of FILTER_SETS) {
        for (const dimension of BREAKDOWNS) {
          if (filters.some((f) => f.startsWith(`${dimension}:`) || f.startsWith(`${dimension}!:`))) continue;
          const label = `${source}, ${dimension} under [${filters.join(' ')}]`;
          const answer = await computeBreakdown(events, read('breakdown', { dimension, filter: [...filters], include: 'bounceRate,avgDuration', limit: '1000' }, inputs));
          const plain = await computeBreakdown(events, read('breakdown', { dimension, filter: [...filters], limit: '1000' }, inputs));
          // The rows themselves are the ones without `include`, in the same order.
          assert.deepEqual(answer.rows.map(({ key, visitors, views, pct }) => ({ key, visitors, views, pct })), plain.rows, label);
          assert.equal(answer.totalVisitors, plain.totalVisitors, label);
          for (const row of answer.rows) {
            const stats = await computeStats(events, read('stats', { filter: [...filters, `${dimension}:${row.key}`] }, inputs), goals);
            assert.equal(row.bounceRate, stats.bounceRate.value, `${label}: ${row.key} bounce rate`);
            assert.equal(row.avgDuration, stats.avgDuration.value, `${label}: ${row.key} visit duration`);
            if (row.bounceRate !== null) counted++;
          }
        }
      }
    }
    // Session-scoped keys have figures, event-scoped ones (a page, a property) none: both cases were met.
    assert.ok(counted > 100, `only ${counted} rows had a bounce rate`);
    const pages = await computeBreakdown(events, read('breakdown', { dimension: 'page', include: 'bounceRate' }, plans[1][1]));
    assert.ok(pages.rows.length > 0 && pages.rows.every((r) => r.bounceRate === null && !('avgDuration' in r)));
  } finally {
    await close();
  }
});
