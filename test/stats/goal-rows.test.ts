// Goal rows answer goals under filters on the keys sessions carry: on seeded random datasets, the
// stats' conversions, the goals read and a goal metric's timeseries read from goal rows (raw events
// after the watermark) equal the same reads from raw events alone, on every EventStore, under one
// filter on each carried key, two of them, is not, contains and several values. Rows of a site rolled
// up before goal rows existed are backfilled, a new goal's too (raw events answer until they are
// written), a deleted goal's go, and retention takes them with raw events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { runRetention } from '../../src/stats/rollups/retention.js';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { METRIC_REGISTRY, metricsUnder } from '../../src/core/metric-registry.js';
import { joinFilterValues, NONE_KEY, type Dimension } from '../../src/core/vocabulary.js';
import { planQuery, type PlannedQuery } from '../../src/stats/planner.js';
import { answers, planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { CARRIED_DIMENSIONS, GOAL_ROWS } from '../../src/stats/rollups/tables.js';
import { GOAL_ROWS_KEY } from '../../src/stats/rollups/coverage.js';
import { dataset } from '../../support/datasets.js';
import type { EventStore } from '../../src/storage/events/types.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import type { Site } from '../../src/entities/sites.js';
import type { Goal } from '../../src/entities/goals.js';
import { sql, trusted } from '../../src/sql/sql.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'Europe/Berlin';
const DAYS = ['2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29']; // 03-29 loses an hour (DST)
const NOW = startOfLocalDay('2026-03-30', TZ) + 12 * 3_600_000;
const GOAL_METRICS = metricsUnder([]).filter((m) => METRIC_REGISTRY[m].computation.kind === 'goals');

async function appendDays(events: EventStore, site: Site, seed: number): Promise<void> {
  await events.append(dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 70, visitorsPerDay: 45, timeZone: TZ }));
}

/** The plan of a read as the service makes it (goal rows where they answer), and the raw-events-only plan. */
async function plans(events: EventStore, meta: MetaStore, site: Site, kind: QueryKind, params: RawParams): Promise<{ rows: PlannedQuery; raw: PlannedQuery }> {
  const request = { kind, params: { ...params, raw: 'clip' }, site, now: NOW, extensions: { filteredGoals: true } };
  const q = parseQuery(kind, request.params, site, NOW, [], request.extensions);
  return { rows: (await planRead(readSourceOf(events, meta), request)).q, raw: planQuery(q, { watermark: null, retentionMonths: null, rawDays: 30 }) };
}

/** The goal reads under some filters over some days: the stats, the goals read and each goal metric's timeseries, and whether goal rows answered each. */
async function goalReads(events: EventStore, meta: MetaStore, site: Site, goals: readonly Goal[], params: RawParams) {
  const answers: Record<string, { rows: unknown; raw: unknown; fromRows: boolean }> = {};
  const stats = await plans(events, meta, site, 'stats', { ...params, comparison: 'previous' });
  answers.stats = { rows: await computeStats(events, stats.rows, goals), raw: await computeStats(events, stats.raw, goals), fromRows: stats.rows.plan.goalSpan?.sessions != null };
  const read = await plans(events, meta, site, 'goals', params);
  answers.goals = { rows: await computeGoals(events, read.rows, goals), raw: await computeGoals(events, read.raw, goals), fromRows: read.rows.plan.period.sessions !== null };
  for (const metric of GOAL_METRICS) {
    const series = await plans(events, meta, site, 'timeseries', { ...params, metric, grain: 'day' });
    answers[metric] = { rows: await computeTimeseries(events, series.rows, goals), raw: await computeTimeseries(events, series.raw, goals), fromRows: series.rows.plan.span.sessions !== null };
  }
  return answers;
}

const countRows = async (events: EventStore, siteId: string) =>
  Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${trusted(GOAL_ROWS.name)} WHERE site_id = ${siteId}`))[0]!.n);

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`goal rows answer goals under filters as raw events do: ${adapter.name}`, async () => {
    for (const seed of [1, 2]) {
      const { events, meta, site, goals, close } = await openRollupSite(adapter, seed, TZ);
      try {
        await appendDays(events, site, seed);
        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
        const keysOf = async (dimension: Dimension) => {
          const { raw } = await plans(events, meta, site, 'breakdown', { dimension, from: DAYS[0], to: DAYS[5], limit: '1000' });
          return (await computeBreakdown(events, raw)).rows.map((r) => r.key);
        };
        const filters: string[][] = [];
        for (const dimension of CARRIED_DIMENSIONS) {
          const [first = NONE_KEY, second = NONE_KEY] = await keysOf(dimension);
          filters.push([`${dimension}:${first}`]);
          if (dimension === 'country' || dimension === 'entry' || dimension === 'referrer') {
            filters.push([`${dimension}!:${first}`], [`${dimension}:${joinFilterValues([first, second])}`], [`${dimension}~:${first.slice(1, 3).toUpperCase()}`]);
          }
        }
        filters.push(['country:US', 'device:desktop'], [`utm_campaign:${NONE_KEY}`, 'browser!:Chrome']);
        let counted = 0;
        for (const filter of filters) {
          for (const [from, to] of [[DAYS[1], DAYS[4]], [DAYS[0], DAYS[5]]]) {
            for (const [read, { rows, raw, fromRows }] of Object.entries(await goalReads(events, meta, site, goals, { from, to, filter }))) {
              assert.ok(fromRows, `seed ${seed}: ${read} ${filter} reads goal rows`);
              assert.deepEqual(rows, raw, `seed ${seed}: ${read} ${filter} ${from}..${to}`);
            }
          }
          const { raw } = await plans(events, meta, site, 'goals', { from: DAYS[0], to: DAYS[5], filter });
          counted += (await computeGoals(events, raw, goals)).reduce((n, g) => n + g.conversions, 0);
        }
        // Sanity: the filters keep conversions of every goal, revenue among them.
        assert.ok(counted > 500, `${counted} conversions under the filters`);
        const { rows } = await plans(events, meta, site, 'goals', { from: DAYS[0], to: DAYS[5], filter: ['country:US'] });
        const answer = await computeGoals(events, rows, goals);
        assert.ok(answer.every((g) => g.conversions > 0) && Number(answer.find((g) => g.revenue)?.revenue?.total ?? 0) > 0, JSON.stringify(answer));
      } finally {
        await close();
      }
    }
  });

  test(`goal rows of a site rolled up before them, and of a new goal, are backfilled; a deleted goal's go, and retention takes them with raw events: ${adapter.name}`, async () => {
    const { events, meta, site, goals, close } = await openRollupSite(adapter, 7, TZ);
    try {
      await appendDays(events, site, 7);
      const key = rollupKey(events, site.id);
      await rollupSite({ events, meta }, site, NOW);
      const rowsAtFirst = await countRows(events, site.id);
      assert.ok(rowsAtFirst > 300, `${rowsAtFirst} goal rows`);
      const params = { from: DAYS[0], to: DAYS[5], filter: ['country:US'] };
      const answer = async (all: readonly Goal[]) => {
        const { rows, raw } = await plans(events, meta, site, 'goals', params);
        const [fromPlan, fromRaw] = [await computeGoals(events, rows, all), await computeGoals(events, raw, all)];
        assert.deepEqual(fromPlan, fromRaw);
        return { fromRows: rows.plan.period.sessions !== null, answer: fromPlan };
      };
      const whole = await answer(goals);
      assert.ok(whole.fromRows);

      // Bookkeeping of a deployment from before goal rows, and none written: raw events answer until the backfill is done.
      const state = (await meta.getRollupState(key))!;
      const { goalRows, ...before } = JSON.parse(state.definitions);
      assert.equal(goalRows, GOAL_ROWS_KEY);
      await meta.setRollupState(key, { ...state, definitions: JSON.stringify(before) });
      await events.replaceRows(GOAL_ROWS, { siteId: site.id, days: { from: null, to: DAYS[5]! } }, null);
      assert.deepEqual(await answer(goals), { ...whole, fromRows: false });
      await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.deepEqual(await answer(goals), { ...whole, fromRows: false }, 'a part written: still raw events');
      for (let run = 0; run < 3; run++) await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal(await countRows(events, site.id), rowsAtFirst);
      assert.deepEqual(await answer(goals), whole);

      // A new goal: raw events answer until its rows are written over every rolled-up day.
      const late = await meta.createGoal(site.internalId, { name: 'docs', kind: 'page', pattern: '/docs/**' }, 0);
      const withLate = [...goals, late];
      const pending = await answer(withLate);
      assert.equal(pending.fromRows, false);
      assert.ok(pending.answer.find((g) => g.goalId === late.goalId)!.conversions > 0);
      await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal((await answer(withLate)).fromRows, false, 'a part written: still raw events');
      for (let run = 0; run < 3; run++) await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.deepEqual(await answer(withLate), { ...pending, fromRows: true });

      // A deleted goal's rows go with the next run.
      await meta.deleteGoal(site.internalId, late.goalId);
      await rollupSite({ events, meta }, site, NOW);
      assert.equal(await countRows(events, site.id), rowsAtFirst);

      // 40 days later, the raw window (30 days) has left every day: raw events and goal rows go.
      const later = NOW + 40 * 86_400_000;
      await rollupSite({ events, meta }, site, later);
      await runRetention({ events, meta }, later);
      assert.equal(await countRows(events, site.id), 0);
    } finally {
      await close();
    }
  });
}

test('a read takes the site\'s goals once: a goal made between its plan and its run is not counted from goal rows the plan did not check', async () => {
  const { events, meta, site, goals, close } = await openRollupSite(EVENT_STORE_ADAPTERS[0]!, 7, TZ);
  try {
    await appendDays(events, site, 7);
    await rollupSite({ events, meta }, site, NOW);
    const source = readSourceOf(events, meta);
    let calls = 0;
    const counting = {
      ...source,
      goals: (s: Site) => {
        calls++;
        return source.goals(s);
      },
    };
    const params = { from: DAYS[0]!, to: DAYS[5]!, filter: ['country:US'], raw: 'clip' };
    const request = (kind: 'goals' | 'stats') => ({ kind, params, site, now: NOW, extensions: { filteredGoals: true } });
    const goalsRead = await planRead(counting, request('goals'));
    const statsRead = await planRead(counting, request('stats'));
    assert.ok(goalsRead.q.plan.period.sessions !== null && statsRead.q.plan.goalSpan?.sessions != null, 'goal rows answer both');
    await meta.createGoal(site.internalId, { name: 'docs', kind: 'page', pattern: '/docs/**' }, 0);
    const listed = (await answers.goals(counting, goalsRead)).goals.map((g) => g.goalId);
    assert.deepEqual(listed.sort(), goals.map((g) => g.goalId).sort());
    await answers.stats(counting, statsRead);
    assert.equal(calls, 2, 'one read of the goals a planned read, the plan\'s');
  } finally {
    await close();
  }
});
