// The rollup job: exact, capped with (other), idempotent, resumable after a crash, merged with raw
// events after the watermark; retention of raw events and of rollups.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite, type RollupDeps } from '../../src/stats/rollups/run.js';
import { recomputeRollups } from '../../src/stats/rollups/imports.js';
import { runRetention } from '../../src/stats/rollups/retention.js';
import { planInputs } from '../../src/stats/inputs.js';
import { SESSION_ROWS, SITE_DAILY } from '../../src/stats/rollups/tables.js';
import { SUGGESTED_RAW_DAYS } from '../../src/core/vocabulary.js';
import { countedSince } from '../../src/stats/rollups/coverage.js';
import { funnelKey, goalKey } from '../../src/core/answer-headers.js';
import { sql, trusted, type Sql } from '../../src/sql/sql.js';
import type { EventStore, ReadOptions } from '../../src/storage/events/types.js';
import { EVENT_STORE_ADAPTERS, type EventStoreAdapter } from '../helpers/event-stores.js';
import { addDays, startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeFunnel } from '../../src/stats/read/funnels.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import type { Site } from '../../src/entities/sites.js';
import { event } from '../../support/events.js';
import { dataset } from '../../support/datasets.js';

const TZ = 'UTC';
const TODAY = '2026-03-20';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);

async function setup(adapter: EventStoreAdapter, retentionMonths: number | null = null, rawDays = 30) {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  await createRollupTables(events);
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: 'r.test', name: 'r', timezone: TZ, retentionMonths, rawDays, honorGpc: true }, 'rollsite', 0);
  const deps: RollupDeps = { events, meta };
  const close = async () => {
    await events.close();
    await meta.close();
  };
  return { events, meta, site, deps, close };
}

const watermarkOf = async (deps: RollupDeps, site: Site) => (await deps.meta.getRollupState(rollupKey(deps.events, site.id)))?.watermark;
/** A row a crashed run left in site_daily on a day past the watermark. */
const strayRow = (events: EventStore, site: Site, day: string) =>
  events.replaceRows(SITE_DAILY, { siteId: site.id, days: { from: day, to: day } }, sql`SELECT ${site.id} AS s, CAST(${day} AS DATE) AS d, 999 AS m1, 999 AS m2, 999 AS m3, 999 AS m4, 999 AS m5, 999 AS m6`);
const countOn = async (events: EventStore, table: string, site: Site, day: string) =>
  Number((await events.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM ${trusted(table)} WHERE site_id = ${site.id} AND day = CAST(${day} AS DATE)`))[0]!.n);

const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => addDays(from, i));

async function answer(deps: RollupDeps, site: Site, params: RawParams, watermark: string | null) {
  const q = (kind: 'stats' | 'breakdown') => planQuery(parseQuery(kind, params, site, NOW), { watermark, retentionMonths: site.retentionMonths, rawDays: site.rawDays });
  return params.dimension ? computeBreakdown(deps.events, q('breakdown')) : computeStats(deps.events, q('stats'), []);
}

/**
 * On 2026-03-10, page /pN (and referrer rN.example) has 12 − N visitors; rolled up with a cap of 5,
 * which keeps /p0../p4 and folds the rest into (other).
 */
async function rolledUpOverTheCap(deps: RollupDeps, site: Site): Promise<void> {
  const rows = Array.from({ length: 12 }, (_, i) =>
    Array.from({ length: 12 - i }, (_, v) => event({ siteId: site.id, ts: Date.parse('2026-03-10T10:00:00Z') + i, page: `/p${i}`, referrer: `r${i}.example`, sessionStart: true, visitorId: BigInt(v), sessionId: BigInt(100 * i + v) })),
  ).flat();
  await deps.events.append(rows);
  await rollupSite(deps, site, NOW, { dimensionKeyCap: 5 });
}

for (const each of EVENT_STORE_ADAPTERS) {
  describe(`rollups: ${each.name}`, () => {
    test('keys beyond the cap fold into (other), counted exactly', async () => {
      const { site, deps, close } = await setup(each);
      try {
        await rolledUpOverTheCap(deps, site);
        const result = await answer(deps, site, { dimension: 'page', from: '2026-03-10', to: '2026-03-10' }, '2026-03-19');
        assert.ok('rows' in result);
        assert.deepEqual(
          result.rows.map((r) => [r.key, r.visitors, r.views]),
          [['/p0', 12, 12], ['/p1', 11, 11], ['/p2', 10, 10], ['/p3', 9, 9], ['/p4', 8, 8], ['(other)', 7, 28]],
        );
        assert.equal(result.totalKeys, 6);
        // A session dimension over the cap also keeps exact sessions and bounces in (other).
        const referrers = await answer(deps, site, { dimension: 'referrer', from: '2026-03-10', to: '2026-03-10' }, '2026-03-19');
        assert.ok('rows' in referrers);
        assert.deepEqual(referrers.rows.at(-1), { key: '(other)', visitors: 7, views: 28, pct: 0.5833 });
        const other = await answer(deps, site, { from: '2026-03-10', to: '2026-03-10', filter: 'referrer:(other)' }, '2026-03-19');
        assert.ok('sessions' in other);
        assert.deepEqual([other.visitors.value, other.bounceRate.value], [7, 1]);
      } finally {
        await close();
      }
    });

    test('a filter on a key folded into (other) is answered from raw events inside the raw window', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        await rolledUpOverTheCap(deps, site);
        const visitors = async (params: RawParams) => {
          const q = parseQuery('stats', params, site, NOW);
          const planned = planQuery(q, await planInputs(events, site, q, await deps.meta.getRollupState(rollupKey(events, site.id))));
          const stats = await computeStats(events, planned, []);
          return { visitors: stats.visitors.value, watermark: planned.plan.watermark };
        };
        const week = { from: '2026-03-08', to: '2026-03-14' };
        assert.deepEqual(await visitors({ ...week, filter: 'page:/p7' }), { visitors: 5, watermark: '2026-03-09' }, 'folded on the 10th: raw from then');
        assert.deepEqual(await visitors({ ...week, filter: 'page:/p2' }), { visitors: 10, watermark: '2026-03-19' }, 'a kept key reads rollups');
        assert.deepEqual(await visitors({ ...week, filter: 'page:(other)' }), { visitors: 7, watermark: '2026-03-19' }, '(other) itself reads rollups');
        assert.deepEqual(await visitors({ ...week, filter: 'page:/nowhere' }), { visitors: 0, watermark: '2026-03-09' }, 'a key never seen is 0 either way');
      } finally {
        await close();
      }
    });

    test('the job is idempotent, resumes after a crash, and merges rollups with raw events after the watermark', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        const data = dataset({ seed: 7, siteId: site.id, days: days('2026-03-01', 20), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 20, visitorsPerDay: 15, timeZone: TZ });
        await events.append(data);
        const params = { from: '2026-03-01', to: TODAY };
        const expected = await answer(deps, site, params, null);
        const expectedPages = await answer(deps, site, { ...params, dimension: 'page' }, null);

        // A crash after rolling up some days: the watermark says 2026-03-05, later rows are half written.
        await rollupSite(deps, site, Date.parse('2026-03-06T12:00:00Z'));
        assert.equal(await watermarkOf(deps, site), '2026-03-05');
        await strayRow(events, site, '2026-03-07');
        assert.deepEqual(await answer(deps, site, params, '2026-03-05'), expected, 'rollups up to the watermark, raw after');

        await rollupSite(deps, site, NOW);
        await rollupSite(deps, site, NOW);
        const watermark = (await watermarkOf(deps, site))!;
        assert.equal(watermark, '2026-03-19');
        assert.deepEqual(await answer(deps, site, params, watermark), expected);
        assert.deepEqual(await answer(deps, site, { ...params, dimension: 'page' }, watermark), expectedPages);
        assert.equal(await countOn(events, 'site_daily', site, '2026-03-07'), 1);

        // Events added to rolled-up days (an import) are reflected once recomputed.
        await events.append([event({ siteId: site.id, ts: Date.parse('2026-03-03T10:00:00Z'), visitorId: 424242n, sessionId: 424242n, sessionStart: true })]);
        await recomputeRollups(deps, site.id, ['2026-03-03'], NOW);
        const after = await answer(deps, site, params, watermark);
        assert.ok('visitors' in after && 'visitors' in expected);
        assert.equal(after.visitors.value, expected.visitors.value! + 1);
        assert.deepEqual(after, await answer(deps, site, params, null));
      } finally {
        await close();
      }
    });

    test('a long stretch without events is cleared in one pass, half-written rows included', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        const data = [...days('2025-06-01', 3), ...days('2026-03-10', 3)].flatMap((day) =>
          dataset({ seed: 11, siteId: site.id, days: [day], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 6, visitorsPerDay: 5, timeZone: TZ }),
        );
        await events.append(data);
        const params = { from: '2025-06-01', to: TODAY };
        const expected = await answer(deps, site, params, null);
        const expectedPages = await answer(deps, site, { ...params, dimension: 'page' }, null);
        // A crashed run's leftover in the quiet months, which the watermark never passed.
        await strayRow(events, site, '2026-01-15');
        let statements = 0;
        const counted = { ...deps, events: Object.assign(Object.create(events) as EventStore, {
          replaceRows: (...args: Parameters<EventStore['replaceRows']>) => (statements++, events.replaceRows(...args)),
          query: (query: Sql) => (statements++, events.query(query)),
        }) };
        await rollupSite(counted, site, NOW);
        assert.equal(await watermarkOf(deps, site), '2026-03-19');
        assert.equal(await countOn(events, 'site_daily', site, '2026-01-15'), 0);
        assert.deepEqual(await answer(deps, site, params, '2026-03-19'), expected);
        assert.deepEqual(await answer(deps, site, { ...params, dimension: 'page' }, '2026-03-19'), expectedPages);
        // Ten chunks of 31 days, eight of them without events: about 15 calls for each chunk with
        // events (two count the days' events, for session paths and for goal rows), 7 for the quiet
        // stretch as a whole (where each empty chunk alone took as many).
        assert.ok(statements < 48, `${statements} calls`);
      } finally {
        await close();
      }
    });

    test('an import that lands on a day a run under way took for empty is still rolled up', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        await events.append(dataset({ seed: 5, siteId: site.id, days: days('2025-06-01', 2), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 4, visitorsPerDay: 3, timeZone: TZ }));
        const day = '2026-01-15';
        let imported: Promise<void> | null = null;
        // The run reads which days hold events, then the import commits a day it saw empty and asks
        // for its rollups, all before the run clears that stretch and moves its watermark past it.
        const racing: RollupDeps = { ...deps, events: Object.assign(Object.create(events) as EventStore, {
          query: async (query: Sql) => {
            const rows = await events.query(query);
            if (!imported && query.text.includes('AS n FROM events')) {
              await events.append([event({ siteId: site.id, ts: Date.parse(`${day}T10:00:00Z`), day, visitorId: 77n, sessionId: 77n, sessionStart: true })]);
              imported = recomputeRollups(racing, site.id, [day], NOW);
            }
            return rows;
          },
        }) };
        await rollupSite(racing, site, NOW);
        assert.ok(imported, 'the import came in during the run');
        await imported;
        const [row] = await events.query<{ visitors: bigint }>(sql`SELECT visitors FROM site_daily WHERE site_id = ${site.id} AND day = CAST(${day} AS DATE)`);
        assert.equal(row?.visitors, 1n);
      } finally {
        await close();
      }
    });

    test('retention: raw events go after the raw window once rolled up; everything goes past retentionMonths', async () => {
      const { events, site, deps, close } = await setup(each, 2);
      try {
        await events.append(dataset({ seed: 3, siteId: site.id, days: days('2026-01-10', 70), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 3, visitorsPerDay: 3, timeZone: TZ }));
        await rollupSite(deps, site, NOW);
        await runRetention(deps, NOW);
        const range = async (table: string) =>
          (await events.query<{ lo: string; hi: string }>(sql`SELECT CAST(min(day) AS VARCHAR) AS lo, CAST(max(day) AS VARCHAR) AS hi FROM ${trusted(table)} WHERE site_id = ${site.id}`))[0];
        assert.deepEqual(await range('events'), { lo: '2026-02-19', hi: TODAY });
        assert.deepEqual(await range('site_daily'), { lo: '2026-01-20', hi: '2026-03-19' });
        assert.deepEqual(await range('dim_daily'), { lo: '2026-01-20', hi: '2026-03-19' });
        const stats = await answer(deps, site, { period: '90d' }, '2026-03-19');
        assert.ok('visitors' in stats);
        assert.equal(stats.visitors.prev, null, 'the previous period is past retention');
      } finally {
        await close();
      }
    });

    test('retention keeps the raw events of the last rawDays days, and two-filter questions over them answer', async () => {
      const { events, site, deps, close } = await setup(each, null, 45);
      try {
        await events.append(dataset({ seed: 5, siteId: site.id, days: days('2026-01-10', 70), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 3, visitorsPerDay: 3, timeZone: TZ }));
        await rollupSite(deps, site, NOW);
        await runRetention(deps, NOW);
        const [kept] = await events.query<{ lo: string }>(sql`SELECT CAST(min(day) AS VARCHAR) AS lo FROM events WHERE site_id = ${site.id}`);
        assert.equal(kept?.lo, addDays(TODAY, -44), 'the last 45 local days stay raw');
        const twoFilters = { from: addDays(TODAY, -44), to: TODAY, filter: ['country:FR', 'device:desktop'] };
        const stats = await answer(deps, site, twoFilters, '2026-03-19');
        assert.ok('visitors' in stats && stats.visitors.value !== null, 'a 45-day two-filter period answers from raw events');
      } finally {
        await close();
      }
    });

    test('a site keeping single events 13 months keeps 396 local days of raw events and session rows; shortened to 30 days, the next run deletes the rest', async () => {
      const { events, meta, site, deps, close } = await setup(each, null, SUGGESTED_RAW_DAYS);
      try {
        // Days on either side of both windows' first day: the days between them hold nothing, which keeps the rollup short.
        const edges = [...days(addDays(TODAY, -398), 5), ...days(addDays(TODAY, -32), 5)];
        await events.append(dataset({ seed: 13, siteId: site.id, days: edges, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 2, visitorsPerDay: 2, timeZone: TZ }));
        await rollupSite(deps, site, NOW);
        await runRetention(deps, NOW);
        const firstRawDays = async () =>
          Promise.all(
            ['events', SESSION_ROWS.name].map(async (table) => (await events.query<{ lo: string }>(sql`SELECT CAST(min(day) AS VARCHAR) AS lo FROM ${trusted(table)} WHERE site_id = ${site.id}`))[0]?.lo),
          );
        assert.deepEqual(await firstRawDays(), [addDays(TODAY, -395), addDays(TODAY, -395)], 'the last 396 local days stay raw');
        await meta.updateSite(site.id, { rawDays: 30 });
        await runRetention(deps, NOW);
        assert.deepEqual(await firstRawDays(), [addDays(TODAY, -29), addDays(TODAY, -29)], 'storage shrinks to the new window');
      } finally {
        await close();
      }
    });

    test('breakdowns over whole months read monthly sums that equal the daily rows', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        await events.append(dataset({ seed: 11, siteId: site.id, days: days('2026-01-10', 70), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 8, visitorsPerDay: 6, timeZone: TZ }));
        // Two passes: the second rewrites March days and must re-sum March only.
        await rollupSite(deps, site, Date.parse('2026-03-05T12:00:00Z'));
        await rollupSite(deps, site, NOW);
        for (const dimension of ['page', 'referrer', 'exit', 'event']) {
          for (const params of [{ from: '2026-01-15', to: TODAY }, { from: '2026-01-01', to: '2026-02-28' }, { from: '2026-02-01', to: '2026-02-28', filter: `${dimension}:(none)` }]) {
            const q = { ...params, dimension, limit: '1000' };
            assert.deepEqual(await answer(deps, site, q, '2026-03-19'), await answer(deps, site, q, null), `${dimension} ${JSON.stringify(params)}`);
          }
        }
      } finally {
        await close();
      }
    });

    test('goals and funnel versions added after a rollup are backfilled for the days still backed by raw events', async () => {
      const { events, meta, site, deps, close } = await setup(each);
      try {
        await events.append(dataset({ seed: 5, siteId: site.id, days: days('2026-03-10', 10), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 30, visitorsPerDay: 20, timeZone: TZ }));
        await rollupSite(deps, site, NOW);
        const goal = await meta.createGoal(site.internalId, { name: 'blog', kind: 'page', pattern: '/blog/**' }, 0);
        const funnel = await meta.createFunnel(site.internalId, { name: 'f', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }] }, 0);
        await rollupSite(deps, site, NOW);
        const plan = (kind: 'goals' | 'funnel', watermark: string | null) =>
          planQuery(parseQuery(kind, { from: '2026-03-10', to: '2026-03-19' }, site, NOW), { watermark, retentionMonths: null, rawDays: 30 });
        const goalsRolled = await computeGoals(events, plan('goals', '2026-03-19'), [goal]);
        assert.deepEqual(goalsRolled, await computeGoals(events, plan('goals', null), [goal]));
        assert.ok(goalsRolled[0]!.conversions > 0);
        const version = (await meta.getFunnel(site.internalId, funnel.id))!;
        const funnelRolled = await computeFunnel(events, plan('funnel', '2026-03-19'), version);
        assert.deepEqual(funnelRolled, await computeFunnel(events, plan('funnel', null), version));
        assert.ok(funnelRolled.entered > 0);
      } finally {
        await close();
      }
    });

    test('a goal and a funnel version made after their days were rolled up are backfilled by runs of bounded days, from the raw events kept', async () => {
      const { events, meta, site, deps, close } = await setup(each);
      try {
        // 47 days of events, rolled up; the raw ones before the raw window (from 2026-02-19) are gone.
        await events.append(dataset({ seed: 7, siteId: site.id, days: days('2026-02-01', 47), dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 20, visitorsPerDay: 15, timeZone: TZ }));
        await rollupSite(deps, site, NOW);
        await runRetention(deps, NOW);
        const goal = await meta.createGoal(site.internalId, { name: 'blog', kind: 'page', pattern: '/blog/**' }, NOW);
        const funnel = await meta.createFunnel(site.internalId, { name: 'f', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }] }, NOW);
        const since = async () => {
          const state = await meta.getRollupState(rollupKey(events, site.id));
          return [countedSince(state, goalKey(goal.goalId)), countedSince(state, funnelKey(funnel.id, 1))];
        };
        const plan = (kind: 'goals' | 'funnel', from: string, watermark: string | null) =>
          planQuery(parseQuery(kind, { from, to: '2026-03-19' }, site, NOW), { watermark, retentionMonths: null, rawDays: 30 });
        const conversions = async (from: string, watermark: string | null) => (await computeGoals(events, plan('goals', from, watermark), [goal]))[0]!.conversions;
        // Before the worker sees them, only the days after the watermark count them.
        assert.deepEqual(await since(), ['2026-03-20', '2026-03-20']);
        assert.equal(await conversions('2026-03-10', '2026-03-19'), 0);

        await rollupSite(deps, site, NOW, { backfillDays: 10 });
        assert.deepEqual(await since(), ['2026-03-10', '2026-03-10']);
        assert.equal(await conversions('2026-03-10', '2026-03-19'), await conversions('2026-03-10', null));
        assert.ok((await conversions('2026-03-10', null)) > 0);
        // Retention three days later keeps the raw events the backfill still needs.
        await runRetention(deps, NOW + 3 * 86_400_000);
        assert.ok((await countOn(events, 'events', site, '2026-02-19')) > 0);

        for (let run = 0; run < 3; run++) await rollupSite(deps, site, NOW, { backfillDays: 10 });
        assert.deepEqual(await since(), ['2026-02-19', '2026-02-19']);
        assert.equal(await conversions('2026-02-19', '2026-03-19'), await conversions('2026-02-19', null));
        const version = (await meta.getFunnel(site.internalId, funnel.id))!;
        const funnelAt = (watermark: string | null) => computeFunnel(events, plan('funnel', '2026-02-19', watermark), version);
        assert.deepEqual(await funnelAt('2026-03-19'), await funnelAt(null));
        assert.ok((await funnelAt('2026-03-19')).entered > 0);
        // Days older than the raw events kept are not recounted: the goal reads 0 there.
        const before = planQuery(parseQuery('goals', { from: '2026-02-01', to: '2026-02-18' }, site, NOW), { watermark: '2026-03-19', retentionMonths: null, rawDays: 30 });
        assert.equal((await computeGoals(events, before, [goal]))[0]!.conversions, 0);

        // Once the backfill is done, retention deletes those raw events; a funnel's new version made
        // then counts from the raw events left, and the goal made before keeps its day.
        await runRetention(deps, NOW + 3 * 86_400_000);
        assert.equal(await countOn(events, 'events', site, '2026-02-21'), 0);
        await meta.replaceFunnelSteps(site.internalId, funnel.id, [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/docs' }], NOW);
        await rollupSite(deps, site, NOW);
        const state = await meta.getRollupState(rollupKey(events, site.id));
        assert.deepEqual([countedSince(state, goalKey(goal.goalId)), countedSince(state, funnelKey(funnel.id, 2))], ['2026-02-19', '2026-02-22']);

        // A deleted goal or funnel leaves no rollup row behind after the next run, on any day.
        await meta.deleteGoal(site.internalId, goal.goalId);
        await meta.deleteFunnel(site.internalId, funnel.id);
        await rollupSite(deps, site, NOW);
        const rows = async (table: string) => Number((await events.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM ${trusted(table)} WHERE site_id = ${site.id}`))[0]!.n);
        assert.deepEqual([await rows('goal_daily'), await rows('funnel_daily')], [0, 0]);
      } finally {
        await close();
      }
    });

    test('a goal of a site without rolled-up data before it counts every day', async () => {
      const { events, meta, site, deps, close } = await setup(each);
      try {
        await rollupSite(deps, site, NOW);
        const goal = await meta.createGoal(site.internalId, { name: 'signup', kind: 'event', pattern: 'signup' }, NOW);
        await rollupSite(deps, site, NOW);
        assert.equal(countedSince(await meta.getRollupState(rollupKey(events, site.id)), goalKey(goal.goalId)), null);
      } finally {
        await close();
      }
    });

    test('the breakdown key count is the same with and without a window function in the dialect', async () => {
      const { events, site, deps, close } = await setup(each);
      try {
        const rows = Array.from({ length: 7 }, (_, i) =>
          Array.from({ length: 7 - i }, (_, v) => event({ siteId: site.id, ts: Date.parse('2026-03-10T10:00:00Z') + i, page: `/p${i}`, sessionStart: true, visitorId: BigInt(v), sessionId: BigInt(100 * i + v) })),
        ).flat();
        await events.append(rows);
        await rollupSite(deps, site, NOW);
        // The same store, seen through a dialect without window functions (as ClickHouse 18.16 is).
        const noWindows = Object.assign(Object.create(events) as EventStore, { dialect: { ...events.dialect, countOverAll: () => null } });
        for (const [limit, offset] of [['3', '0'], ['3', '6'], ['3', '7'], ['2', '50']] as const) {
          const params = { dimension: 'page', from: '2026-03-10', to: '2026-03-10', limit, offset };
          const q = planQuery(parseQuery('breakdown', params, site, NOW), { watermark: '2026-03-19', retentionMonths: null, rawDays: 30 });
          const [withWindow, without] = [await computeBreakdown(events, q), await computeBreakdown(noWindows, q)];
          assert.deepEqual(without, withWindow, `limit ${limit} offset ${offset}`);
          assert.equal(withWindow.totalKeys, 7);
        }
      } finally {
        await close();
      }
    });
  });
}
