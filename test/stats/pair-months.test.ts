// Pair months (src/stats/rollups/pairs.ts) against raw events, on seeded random datasets and every
// engine: a breakdown of every dimension pair months hold under keys of every filter they are
// written under, its whole months read from them, answers as the same breakdown read from raw
// events alone; a month is written once rolled up and inside the raw window, written again when
// an import adds to its days, and dropped by retention once the raw window leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { commitImport, recomputeRollups } from '../../src/stats/rollups/imports.js';
import { withParams } from '../../src/sql/sql.js';
import { runRetention } from '../../src/stats/rollups/retention.js';
import { pairMonthsWritten } from '../../src/stats/rollups/pairs.js';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS, NONE_KEY } from '../../src/core/vocabulary.js';
import { planQuery } from '../../src/stats/planner.js';
import { planInputs } from '../../src/stats/inputs.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { PAIR_MONTHLY, SESSION_DIMENSIONS } from '../../src/stats/rollups/tables.js';
import { pairsWritten } from '../../src/stats/windows.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'America/New_York';
/** February's days (the month read from pair months) and March's (session rows and raw events after it). */
const FEBRUARY = ['2026-02-01', '2026-02-12', '2026-02-28'];
const MARCH = ['2026-03-02', '2026-03-05'];
const NOW = startOfLocalDay('2026-03-08', TZ) + 12 * 3_600_000;
const SEEDS = [5, 6];
const PERIOD = { from: '2026-02-01', to: '2026-03-07' };

for (const adapter of EVENT_STORE_ADAPTERS) test(`pair months answer as raw events do, and follow the days they sum: ${adapter.name}`, async () => {
  for (const seed of SEEDS) {
    const { events, meta, site, close } = await openRollupSite(adapter, seed, TZ, 60);
    try {
      const append = (days: string[], n: number, s = seed) => events.append(dataset({ seed: s, siteId: site.id, days, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: n, visitorsPerDay: Math.ceil(n * 0.7), timeZone: TZ }));
      await append([...FEBRUARY, ...MARCH], 40);
      await rollupSite({ events, meta }, site, NOW);
      const state = await meta.getRollupState(rollupKey(events, site.id));
      assert.equal(state?.watermark, '2026-03-07');
      assert.deepEqual(await pairMonthsWritten(events, site.id, { from: '2026-01-01', to: '2026-03-01' }), ['2026-02-01'], 'February alone is whole, rolled up and inside the raw window');

      const read = async (params: RawParams) => {
        const q = parseQuery('breakdown', { ...PERIOD, limit: '1000', ...params }, site, NOW);
        const rolled = planQuery(q, await planInputs(events, site, q, await meta.getRollupState(rollupKey(events, site.id))));
        const raw = planQuery(q, { watermark: null, retentionMonths: null, rawDays: 60 });
        return { rolled, answer: await computeBreakdown(events, rolled), raw: await computeBreakdown(events, raw) };
      };
      const same = async (label: string, params: RawParams) => {
        const { rolled, answer, raw } = await read(params);
        assert.deepEqual(rolled.plan.breakdownPairs?.months, { from: '2026-02-01', to: '2026-02-01' }, `seed ${seed}: ${label} reads February's pair rows`);
        assert.deepEqual(answer, raw, `seed ${seed}: ${label}`);
        return answer;
      };
      let rows = 0;
      for (const filter of SESSION_DIMENSIONS) {
        const top = await computeBreakdown(events, planQuery(parseQuery('breakdown', { ...PERIOD, dimension: filter }, site, NOW), { watermark: null, retentionMonths: null, rawDays: 60 }));
        for (const value of new Set([top.rows[0]!.key, top.rows.at(-1)!.key, NONE_KEY])) {
          for (const dimension of DIMENSIONS.filter((dim) => pairsWritten(filter, dim))) {
            rows += (await same(`${dimension} by ${filter}:${value}`, { dimension, filter: `${filter}:${value}` })).rows.length;
          }
        }
      }
      assert.ok(rows > 100, `seed ${seed}: the breakdowns hold rows (${rows})`);
      // The per-session measures a session-scoped breakdown's rows carry, a search and a page past the first.
      await same('referrer with bounce rate and duration', { dimension: 'referrer', filter: 'device:desktop', include: 'bounceRate,avgDuration' });
      await same('referrers searched', { dimension: 'referrer', filter: 'country:US', search: 'o' });
      await same('events past the first', { dimension: 'event', filter: 'browser:Chrome', limit: '2', offset: '2' });

      // An import adds events to a day of February: its month goes as the import commits (reads take
      // session rows and raw events until the rollup job is done, whether or not it finishes), and
      // is written again with its days.
      await commitImport({ events, meta }, site.id, ['2026-02-12'], () => append(['2026-02-12'], 30, seed + 100));
      assert.deepEqual(await pairMonthsWritten(events, site.id, { from: '2026-02-01', to: '2026-02-01' }), [], 'February goes as the import commits');
      await recomputeRollups({ events, meta }, site.id, ['2026-02-12'], NOW);
      assert.deepEqual(await pairMonthsWritten(events, site.id, { from: '2026-02-01', to: '2026-02-01' }), ['2026-02-01']);
      await same('referrers by country after an import into February', { dimension: 'referrer', filter: 'country:US' });
      await same('browsers by UTM source after an import into February', { dimension: 'browser', filter: `utm_source:${NONE_KEY}` });

      // A month marked with other pairs than the code writes (before they changed) counts as not written, and the next run writes it.
      await events.replaceRows(PAIR_MONTHLY, { siteId: site.id, days: { from: '2026-02-01', to: '2026-02-01' } }, withParams(`SELECT ? AS s, ${events.dialect.dateLiteral('2026-02-01')} AS m, '' AS fd, '' AS f, '' AS dim, 'country:referrer' AS k, 0 AS a, 0 AS b, 0 AS c, 0 AS d, 0 AS e, 0 AS g`, site.id));
      assert.deepEqual(await pairMonthsWritten(events, site.id, { from: '2026-02-01', to: '2026-02-01' }), []);
      await rollupSite({ events, meta }, site, NOW);
      await same('referrers by country once written again', { dimension: 'referrer', filter: 'country:US' });

      // Once the raw window starts after February's first day, its pair rows go (retention) and the read takes session rows and raw events.
      const later = (await meta.updateSite(site.id, { rawDays: 30 }))!;
      await runRetention({ events, meta }, startOfLocalDay('2026-03-09', TZ));
      await rollupSite({ events, meta }, later, startOfLocalDay('2026-03-09', TZ));
      assert.deepEqual(await pairMonthsWritten(events, site.id, { from: '2026-01-01', to: '2026-03-01' }), [], 'no month is whole inside the raw window');
    } finally {
      await close();
    }
  }
});
