// The guarantee that the planner's two paths agree: on seeded random datasets, every answer read
// from rollups equals the same answer read from raw events, for all metrics and dimensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS, NONE_KEY, type QueryDimension } from '../../src/core/vocabulary.js';
import { metricsUnder } from '../../src/core/metric-registry.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeFunnel } from '../../src/stats/read/funnels.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { dataset, SMALL_SHAPE, type SessionShape } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'Asia/Kolkata';
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07'];
/** Earlier days, read whole from monthly sums: on the middle one events carry `plan` alone, so the other properties' `(none)` rows take in a day without them. */
const FEBRUARY = ['2026-02-09', '2026-02-16', '2026-02-23'];
const PLAN_ONLY: SessionShape = { ...SMALL_SHAPE, props: [null, JSON.stringify({ plan: 'pro' }), JSON.stringify({ plan: 'free' })] };
const NOW = startOfLocalDay('2026-03-08', TZ) + 12 * 3_600_000;
const SEEDS = [1, 2, 3, 4];
/** The dataset's custom properties (support/datasets.ts), a key with `:` among them. */
const PROPERTIES: QueryDimension[] = ['prop.plan', 'prop.seats', 'prop.flag', 'prop.a:b', 'prop.pl"an'];

for (const adapter of EVENT_STORE_ADAPTERS) test(`rollup answers equal raw answers on random datasets: ${adapter.name}`, async () => {
  for (const seed of SEEDS) {
    const { events, meta, site, goals, close } = await openRollupSite(adapter, seed, TZ);
    try {
      await meta.createFunnel(site.internalId, { name: 'f', windowMinutes: 30, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }] }, 0);
      await meta.replaceFunnelSteps(site.internalId, 1, [{ kind: 'page', pattern: '/**' }, { kind: 'event', pattern: 'trial' }], 0);
      const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 60, visitorsPerDay: 40, timeZone: TZ });
      await events.append(rows);
      for (const [i, day] of FEBRUARY.entries()) {
        const shape = i === 1 ? PLAN_ONLY : SMALL_SHAPE;
        await events.append(dataset({ seed: seed * 10 + i, siteId: site.id, days: [day], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 20, visitorsPerDay: 15, timeZone: TZ, shape }));
      }
      await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
      const watermark = (await meta.getRollupState(rollupKey(events, site.id)))?.watermark ?? null;
      assert.equal(watermark, '2026-03-07');

      const both = (kind: QueryKind, params: RawParams) => {
        const q = parseQuery(kind, { from: DAYS[2], to: DAYS[5], ...params }, site, NOW);
        return [planQuery(q, { watermark: null, retentionMonths: null, rawDays: 60 }), planQuery(q, { watermark, retentionMonths: null, rawDays: 60 })] as const;
      };
      const same = async <T>(label: string, run: (q: ReturnType<typeof both>[0]) => Promise<T>, kind: QueryKind, params: RawParams = {}) => {
        const [raw, rolled] = both(kind, params);
        assert.equal(raw.plan.watermark, null);
        assert.deepEqual(await run(rolled), await run(raw), `seed ${seed}: ${label}`);
      };

      await same('stats', (q) => computeStats(events, q, goals), 'stats');
      // Periods up to today against the elapsed part of the compared one, its last day (rolled up) cut at this time of day.
      for (const [from, comparison] of [[DAYS[4]!, 'previous'], [DAYS[4]!, 'year'], [FEBRUARY[1]!, 'previous']] as const) {
        await same(`stats ${from} to today, elapsed, ${comparison}`, (q) => computeStats(events, q, goals), 'stats', { from, to: '2026-03-08', comparison, elapsed: 'true' });
      }
      for (const metric of metricsUnder([])) await same(`timeseries ${metric}`, (q) => computeTimeseries(events, q, goals), 'timeseries', { metric, compare: 'true' });
      await same('goals', (q) => computeGoals(events, q, goals), 'goals');
      await same('scroll depth', (q) => computeBreakdown(events, q), 'breakdown', { dimension: 'page', include: 'scrollDepth', limit: '1000' });
      await same('web vitals', (q) => computeBreakdown(events, q), 'breakdown', { dimension: 'page', include: 'vitals', limit: '1000' });
      for (const version of [1, 2]) {
        const funnel = (await meta.getFunnel(site.internalId, 1, version))!;
        await same(`funnel v${version}`, (q) => computeFunnel(events, q, funnel), 'funnel');
      }
      for (const dimension of [...DIMENSIONS, ...PROPERTIES]) {
        await same(`breakdown ${dimension}`, (q) => computeBreakdown(events, q), 'breakdown', { dimension, limit: '1000' });
        const top = await computeBreakdown(events, planQuery(parseQuery('breakdown', { dimension, from: DAYS[2], to: DAYS[5] }, site, NOW), { watermark, retentionMonths: null, rawDays: 30 }));
        for (const value of [top.rows[0]?.key ?? NONE_KEY, NONE_KEY]) {
          const filter = `${dimension}:${value}`;
          await same(`stats ${filter}`, (q) => computeStats(events, q, goals), 'stats', { filter });
          await same(`breakdown ${dimension} by ${filter}`, (q) => computeBreakdown(events, q), 'breakdown', { dimension, filter, search: value.slice(1, 3) });
          // Another dimension broken down: rows from raw events (or session rows), the period's visitors from rollups.
          const other = dimension === 'page' ? 'referrer' : 'page';
          await same(`breakdown ${other} by ${filter}`, (q) => computeBreakdown(events, q), 'breakdown', { dimension: other, filter, limit: '1000' });
          await same(`timeseries visitors ${filter}`, (q) => computeTimeseries(events, q, goals), 'timeseries', { filter });
        }
      }
      // Property breakdowns over February whole (monthly sums) and March's days (daily rows), their (none) rows included.
      for (const dimension of PROPERTIES) {
        const [raw, rolled] = both('breakdown', { dimension, limit: '1000', from: FEBRUARY[0]!.slice(0, 8) + '01', to: DAYS[5]! });
        assert.deepEqual(rolled.plan.breakdownMonths?.months, { from: '2026-02-01', to: '2026-02-01' });
        const answer = await computeBreakdown(events, rolled);
        assert.deepEqual(answer, await computeBreakdown(events, raw), `seed ${seed}: breakdown ${dimension} with February whole`);
        assert.ok(answer.rows.some((r) => r.key === NONE_KEY && r.visitors > 0), `seed ${seed}: ${dimension} has a (none) row`);
      }
      // Sanity: the dataset is not trivially empty.
      const stats = await computeStats(events, both('stats', {})[1], goals);
      assert.ok((stats.visitors.value ?? 0) > 50 && (stats.conversions.value ?? 0) > 0 && stats.bounceRate.value !== null);
      const trial = (await computeGoals(events, both('goals', {})[1], goals)).find((g) => g.name === 'trial')!;
      assert.ok(trial.revenue!.total > 0 && trial.revenue!.otherCurrency > 0, `seed ${seed}: ${JSON.stringify(trial.revenue)}`);
      const pages = await computeBreakdown(events, both('breakdown', { dimension: 'page', include: 'scrollDepth' })[1]);
      assert.ok(pages.rows.some((r) => typeof r.scrollDepth === 'number' && r.scrollDepth > 0));
    } finally {
      await close();
    }
  }
});
