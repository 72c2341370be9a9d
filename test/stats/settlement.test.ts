// Settlements (src/stats/settlement.ts): reads of the raw days after the watermark with a settlement
// equal the same reads of raw events alone, on seeded random datasets and on both event stores, with
// sessions open across the cut and across midnight; and a settlement that no longer holds (events
// stored late, goals defined otherwise) is not used where it would be wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { addDays, localDay, startOfLocalDay } from '../../src/core/localtime.js';
import { SESSION_GAP_MS } from '../../src/core/session-gap.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { DIMENSIONS } from '../../src/core/vocabulary.js';
import { metricsUnder } from '../../src/core/metric-registry.js';
import { planQuery, type PlannedQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { settlementCheckStatement } from '../../src/stats/sql/settlement.js';
import { HeldSumsCache, holdingSums } from '../../src/stats/held-sums.js';
import { HELD_EVENTS, HELD_ROWS, parseSettlements, SETTLE_LAG_MS, SETTLED_ROWS_GRACE_MS, type Settlement } from '../../src/stats/settlement.js';
import { SETTLED_GOALS, SETTLED_SESSIONS, SETTLED_TABLES } from '../../src/stats/rollups/tables.js';
import type { EventReader, EventStore } from '../../src/storage/events/types.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { sql, trusted, type Sql } from '../../src/sql/sql.js';
import { dataset, session, SMALL_SHAPE } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'America/New_York';
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
const TODAY = DAYS[3]!;
const SEEDS = [1, 2];

/** Each event on the local day of its instant (a session across midnight has events on both). */
const onTheirDays = (rows: StoredEvent[]) => rows.map((e) => ({ ...e, day: localDay(e.ts, TZ) }));

/** A reader that counts its statements. */
function counting(events: EventStore): EventReader & { statements: Sql[] } {
  const statements: Sql[] = [];
  return {
    statements,
    dialect: events.dialect,
    query: (s, o) => (statements.push(s), events.query(s, o)),
    queryPage: (s, o) => (statements.push(s), events.queryPage(s, o)),
  };
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`reads with a settlement equal reads of raw events: ${adapter.name}`, async () => {
  for (const seed of SEEDS) {
    // At noon, yesterday is rolled up and today is settled; at 00:20, the day before yesterday is, and yesterday and today are settled together.
    for (const [label, now] of [['noon', startOfLocalDay(TODAY, TZ) + 12 * 3_600_000], ['after midnight', startOfLocalDay(TODAY, TZ) + 20 * 60_000]] as const) {
      const { events, meta, site, goals, close } = await openRollupSite(adapter, seed, TZ);
      try {
        const rand = seededRandom(seed * 7);
        const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 120, visitorsPerDay: 70, timeZone: TZ });
        // Sessions around the cut and across midnight, some of their visitors also seen earlier in the day.
        const around = [now - SETTLE_LAG_MS - SESSION_GAP_MS - 5 * 60_000, now - SETTLE_LAG_MS - 3 * 60_000, startOfLocalDay(TODAY, TZ) - 4 * 60_000];
        for (const [i, at] of around.flatMap((t) => [t, t + 60_000, t + 90_000]).entries()) {
          rows.push(...session(rand, site.id, at, rows[i * 17]!.visitorId, SMALL_SHAPE, TZ));
        }
        // One session certainly open at the cut since before the gap: two pageviews 6 minutes either side of cut − gap.
        const gapBefore = now - SETTLE_LAG_MS - SESSION_GAP_MS;
        const first = rows.find((e) => e.name === 'pageview')!;
        for (const [i, ts] of [gapBefore - 6 * 60_000, gapBefore + 6 * 60_000].entries()) {
          rows.push({ ...first, ts, sessionId: 7_000_000_000n + BigInt(seed), sessionStart: i === 0, page: '/pricing' });
        }
        // After the cut, conversions of every goal, read from raw events by each settled read: each page
        // goal's page, signups with and without the property one goal requires, trials in its currency and not.
        const afterCut: Array<Partial<StoredEvent>> = [
          { name: 'pageview', page: '/pricing', sessionStart: true },
          { name: 'pageview', page: '/blog/a' },
          { name: 'signup', props: JSON.stringify({ plan: 'pro' }) },
          { name: 'signup', props: null },
          { name: 'signup', props: JSON.stringify({ plan: 'free' }) },
          { name: 'trial', revenueMinor: 1250, revenueCurrency: 'EUR' },
          { name: 'trial', revenueMinor: 990, revenueCurrency: 'USD' },
        ];
        for (const [i, fields] of afterCut.entries()) {
          rows.push({ ...first, sessionStart: false, revenueMinor: null, revenueCurrency: null, ...fields, ts: now - SETTLE_LAG_MS + 20_000 + i * 1000, sessionId: 7_100_000_000n + BigInt(seed) });
        }
        await events.append(onTheirDays(rows.filter((e) => e.ts <= now)));
        await rollupSite({ events, meta }, site, now, { dimensionKeyCap: 1000, settleMinEvents: 1 });
        const state = await meta.getRollupState(rollupKey(events, site.id));
        const settlement = parseSettlements(state?.settlement).current!;
        assert.ok(settlement, `seed ${seed}, ${label}: a settlement is kept`);
        const watermark = state!.watermark;
        assert.equal(watermark, addDays(TODAY, label === 'noon' ? -1 : -2));
        assert.deepEqual(settlement.days, { from: addDays(watermark!, 1), to: TODAY });
        assert.ok(settlement.openFrom < settlement.cut - SESSION_GAP_MS, `seed ${seed}, ${label}: a session is open across the cut`);

        const plans = (kind: QueryKind, params: RawParams, s: Settlement | null) => {
          const q = parseQuery(kind, { from: DAYS[1], to: TODAY, ...params }, site, now);
          return planQuery(q, { watermark, retentionMonths: null, rawDays: 30, settlement: s });
        };
        // A reader that holds settlements' sums, as the service's does, across every read of the case.
        const holding = holdingSums(counting(events));
        const same = async <T>(what: string, run: (reader: EventReader, q: PlannedQuery) => Promise<T>, kind: QueryKind, params: RawParams = {}) => {
          const settled = plans(kind, params, settlement);
          assert.equal(settled.plan.period.settled, settlement, `${what}: the plan reads with the settlement`);
          const raw = await run(events, plans(kind, params, null));
          const reader = counting(events);
          assert.deepEqual(await run(reader, settled), raw, `seed ${seed}, ${label}: ${what}, added up by the engine`);
          for (const time of ['once', 'twice']) assert.deepEqual(await run(holding, settled), raw, `seed ${seed}, ${label}: ${what}, held sums (${time})`);
          return reader.statements.length;
        };
        const reads = async (tag: string) => {
          const statements = await same(`${tag} stats`, (r, q) => computeStats(r, q, goals), 'stats');
          for (const metric of metricsUnder([])) await same(`${tag} timeseries ${metric}`, (r, q) => computeTimeseries(r, q, goals), 'timeseries', { metric });
          await same(`${tag} today's stats`, (r, q) => computeStats(r, q, goals), 'stats', { period: 'day' });
          // After midnight yesterday is settled too: its sessions' facts take today's events, which its read leaves out.
          if (label === 'after midnight') await same(`${tag} yesterday's stats`, (r, q) => computeStats(r, q, goals), 'stats', { from: DAYS[2], to: DAYS[2] });
          await same(`${tag} goals`, (r, q) => computeGoals(r, q, goals), 'goals');
          // Every dimension, and a page of keys past the first, searched.
          for (const dimension of DIMENSIONS) await same(`${tag} breakdown of ${dimension}`, (r, q) => computeBreakdown(r, q), 'breakdown', { dimension });
          await same(`${tag} breakdown, searched, second page`, (r, q) => computeBreakdown(r, q), 'breakdown', { dimension: 'page', search: 'O', limit: '3', offset: '2' });
          await same(`${tag} today's breakdown`, (r, q) => computeBreakdown(r, q), 'breakdown', { dimension: 'referrer', period: 'day' });
          return statements;
        };
        const settledReads = await reads('settled');
        assert.ok(holding.held.size > 0, 'the reader holds the settlement\'s sums');
        // Held, a read asks the rows since the cut instead of the settled ones and the recent ones added up: as many statements, none of the settled rows.
        holding.statements.length = 0;
        await computeStats(holding, plans('stats', {}, settlement), goals);
        assert.equal(holding.statements.length, settledReads, 'held: as many statements');
        const readsRows = (st: Sql) => SETTLED_TABLES.some((t) => st.text.includes(t.name)) && !st.text.includes(HELD_ROWS);
        assert.ok(!holding.statements.some(readsRows), 'held: no settled row is read but by the check');
        // A reader whose capacity is too small for the settlement has the engine add it up.
        const tiny = holdingSums(counting(events), new HeldSumsCache(4));
        assert.deepEqual(await computeStats(tiny, plans('stats', {}, settlement), goals), await computeStats(events, plans('stats', {}, null), goals));
        assert.ok(tiny.held.size === 0 && tiny.statements.some(readsRows), 'too large to hold: added up by the engine');
        const cuts = async (table: string) =>
          (await events.query<{ cut: unknown }>(sql`SELECT DISTINCT cut FROM ${trusted(table)} WHERE site_id = ${site.id}`)).map((r) => Number(r.cut)).sort();
        const count = async (table: string) => Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${trusted(table)} WHERE site_id = ${site.id}`))[0]!.n);
        assert.ok((await count(SETTLED_SESSIONS.name)) > 20 && (await count(SETTLED_GOALS.name)) > 0, 'the settlement holds rows');
        const [check] = await events.query<Record<string, unknown>>(settlementCheckStatement(events.dialect, site.id, settlement));
        assert.equal(Number(check![HELD_EVENTS]), settlement.events);

        // A goal defined otherwise than when counted is read from raw events; the others still from the settlement.
        const edited = goals.map((g) => (g.name === 'pricing' ? { ...g, pattern: '/blog/*' } : g));
        await same('an edited goal', (r, q) => computeGoals(r, q, edited), 'goals');

        // An event stored late, before the cut: the settlement no longer holds, and reads answer from raw events.
        const late = session(rand, site.id, settlement.cut - 60 * 60_000, 424242n, SMALL_SHAPE, TZ);
        await events.append(onTheirDays(late));
        const falling = await reads('late');
        await same('an edited goal, late', (r, q) => computeGoals(r, q, edited), 'goals');
        assert.equal(holding.held.size, 0, 'a check that no longer holds lets go of what the reader held');
        // Declined until the next cut: the reads that follow skip the settlement, and ask no settled row nor the check.
        holding.statements.length = 0;
        assert.deepEqual(await computeStats(holding, plans('stats', {}, settlement), goals), await computeStats(events, plans('stats', {}, null), goals));
        assert.ok(!holding.statements.some((st) => st.text.includes(HELD_EVENTS)), 'declined: no check asked');
        // A reader's first read beside a check that fails holds nothing.
        const fresh = holdingSums(counting(events));
        assert.deepEqual(await computeStats(fresh, plans('stats', {}, settlement), goals), await computeStats(events, plans('stats', {}, null), goals));
        assert.equal(fresh.held.size, 0);
        assert.ok(falling > settledReads, `seed ${seed}, ${label}: reads again without the settlement (${falling} > ${settledReads} statements)`);

        // The next run counts it, and its settlement holds; the one it replaced keeps its rows for a while.
        const later = now + 60_000;
        await rollupSite({ events, meta }, site, later, { dimensionKeyCap: 1000, settleMinEvents: 1 });
        const settlements = parseSettlements((await meta.getRollupState(rollupKey(events, site.id)))?.settlement);
        const next = settlements.current!;
        assert.ok(next.cut > settlement.cut && next.events > settlement.events);
        assert.deepEqual(settlements.retired, [{ cut: settlement.cut, at: later }]);
        for (const table of SETTLED_TABLES) assert.deepEqual(await cuts(table.name), [settlement.cut, next.cut], table.name);
        const q = parseQuery('stats', { from: DAYS[1], to: TODAY }, site, later);
        const reader = counting(events);
        assert.deepEqual(
          await computeStats(reader, planQuery(q, { watermark, retentionMonths: null, rawDays: 30, settlement: next }), goals),
          await computeStats(events, planQuery(q, { watermark, retentionMonths: null, rawDays: 30 }), goals),
        );
        assert.equal(reader.statements.length, settledReads);

        // Rows gone under a read that began with their settlement (a newer run removed them): the read answers from raw events,
        // with or without the settlement's sums held.
        const nextPlan = planQuery(q, { watermark, retentionMonths: null, rawDays: 30, settlement: next });
        const rawNext = await computeStats(events, planQuery(q, { watermark, retentionMonths: null, rawDays: 30 }), goals);
        assert.deepEqual(await computeStats(holding, nextPlan, goals), rawNext);
        await events.replaceRows(SETTLED_GOALS, { siteId: site.id, days: { from: null, to: TODAY }, where: { cut: next.cut } }, null);
        const after = counting(events);
        assert.deepEqual(
          await computeStats(after, planQuery(q, { watermark, retentionMonths: null, rawDays: 30, settlement: next }), goals),
          await computeStats(events, planQuery(q, { watermark, retentionMonths: null, rawDays: 30 }), goals),
        );
        assert.ok(after.statements.length > settledReads, 'reads again without the settlement');
        assert.deepEqual(await computeStats(holding, nextPlan, goals), rawNext, 'held sums of rows gone');

        // A run that stops before its settlement is recorded leaves rows no settlement names: the next run removes them.
        const setRollupState = meta.setRollupState.bind(meta);
        meta.setRollupState = async (key, state) => {
          if (parseSettlements(state.settlement).current?.cut !== next.cut) throw new Error('stopped');
          return setRollupState(key, state);
        };
        await assert.rejects(rollupSite({ events, meta }, site, later + 60_000, { dimensionKeyCap: 1000, settleMinEvents: 1 }), /stopped/);
        meta.setRollupState = setRollupState;
        assert.equal((await cuts(SETTLED_SESSIONS.name)).length, 3);

        // Too few events to settle: no settlement; the rows of the replaced ones go once their grace has passed.
        const quiet = later + 120_000;
        await rollupSite({ events, meta }, site, quiet, { dimensionKeyCap: 1000, settleMinEvents: 1_000_000 });
        const none = parseSettlements((await meta.getRollupState(rollupKey(events, site.id)))?.settlement);
        assert.equal(none.current, null);
        assert.deepEqual(await cuts(SETTLED_SESSIONS.name), [settlement.cut, next.cut]);
        await rollupSite({ events, meta }, site, quiet + SETTLED_ROWS_GRACE_MS, { dimensionKeyCap: 1000, settleMinEvents: 1_000_000 });
        for (const table of SETTLED_TABLES) assert.equal(await count(table.name), 0, table.name);
      } finally {
        await close();
      }
    }
  }
});

for (const adapter of EVENT_STORE_ADAPTERS) test(`a session open since the day began leaves the day unsettled: ${adapter.name}`, async () => {
  const { events, meta, site, close } = await openRollupSite(adapter, 3, TZ);
  try {
    const now = startOfLocalDay(TODAY, TZ) + 12 * 3_600_000;
    const rows = dataset({ seed: 3, siteId: site.id, days: [TODAY], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 200, visitorsPerDay: 150, timeZone: TZ });
    await events.append(onTheirDays(rows.filter((e) => e.ts <= now)));
    const settled = async (at: number) => {
      await rollupSite({ events, meta }, site, at, { settleMinEvents: 1 });
      return parseSettlements((await meta.getRollupState(rollupKey(events, site.id)))?.settlement).current;
    };
    assert.ok(await settled(now), 'settled without it');
    // A tab that sends an event every 20 minutes from the day's start on: one session, open at every cut.
    const first = rows.find((e) => e.name === 'pageview')!;
    const tab = Array.from({ length: 37 }, (_, i) => ({ ...first, ts: startOfLocalDay(TODAY, TZ) + 5 * 60_000 + i * 20 * 60_000, sessionId: 8_000_000_000n, sessionStart: i === 0 }));
    await events.append(onTheirDays(tab));
    assert.equal(await settled(now + 60_000), null, 'its events from the open sessions\' first are most of the day');
  } finally {
    await close();
  }
});
