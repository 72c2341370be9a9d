// Custom properties as dimensions (`prop.<key>`): the values read back from the stored JSON text
// exactly (escapes, numbers and booleans, reserved spellings), filters by value and by `(none)`,
// `engage` events carrying none, and the rollups (capped into `(other)`) answering as raw events do.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';
import { planInputs } from '../../src/stats/inputs.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computePropertyKeys } from '../../src/stats/read/properties.js';
import { countedSince } from '../../src/stats/rollups/coverage.js';
import { goalKey } from '../../src/core/answer-headers.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { event } from '../../support/events.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';

const TODAY = '2026-03-20';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);
const DAY = '2026-03-10';
const RAW_DAYS = 60;

/**
 * The `(none)` case, by hand: `tier` on some events of 2026-02-10 and 2026-03-12, on none of
 * 2026-02-11 and 2026-03-13 (February whole, read from monthly sums, March from daily rows).
 */
const NONE_DAYS = ['2026-02-10', '2026-02-11', '2026-03-12', '2026-03-13'] as const;
function noneRows(siteId: string): StoredEvent[] {
  const out: StoredEvent[] = [];
  const add = (day: string, visitor: number, props: Record<string, unknown> | null, name = 'pageview') =>
    out.push(event({ siteId, ts: Date.parse(`${day}T10:00:00Z`) + out.length * 1000, visitorId: BigInt(visitor), sessionId: BigInt(visitor * 100 + NONE_DAYS.indexOf(day as (typeof NONE_DAYS)[number])), sessionStart: name === 'pageview', name, props: props && JSON.stringify(props) }));
  const [feb10, feb11, mar12, mar13] = NONE_DAYS;
  add(feb10, 1, { tier: 'a' });
  add(feb10, 1, { tier: 'a' }, 'signup');
  add(feb10, 1, { t: 100 }, 'engage'); // engage events count nowhere
  add(feb10, 2, { tier: 'b' });
  add(feb10, 2, null); // visitor 2: one event with the key, one without
  add(feb10, 3, { other: 'x' });
  add(feb10, 4, { t: 100 }, 'engage');
  add(feb11, 1, null);
  add(feb11, 5, { other: 'y' });
  add(feb11, 5, null, 'signup');
  add(mar12, 1, { tier: 'a' });
  add(mar12, 6, { tier: 'a' });
  add(mar12, 6, { tier: 'b' });
  add(mar12, 6, null, 'engage');
  add(mar13, 7, null);
  add(mar13, 7, { tier: 'c', other: 'z' }, 'engage');
  return out;
}

/** Values that need decoding, and values that read as one another's text. */
const TRICKY = ['say "hi"', 'back\\slash\\u0041', 'line\nbreak\t\u0001\u0002end', '\\\\n', 'ünï©ødé 🎉', '(none)', '[none]', '', 'a,b}c'];

function rows(siteId: string): StoredEvent[] {
  const at = (i: number) => Date.parse(`${DAY}T10:00:00Z`) + i * 1000;
  const out: StoredEvent[] = [];
  let i = 0;
  const add = (visitor: number, props: Record<string, unknown> | null, name = 'pageview') =>
    out.push(event({ siteId, ts: at(i++), visitorId: BigInt(visitor), sessionId: BigInt(visitor), sessionStart: name === 'pageview', name, props: props && JSON.stringify(props) }));
  TRICKY.forEach((value, v) => add(v, { plan: value }));
  add(20, { plan: 3 }); // a number and a string that read the same
  add(21, { plan: '3' });
  add(21, { plan: '3' }, 'signup');
  add(22, { plan: true });
  add(23, { 'pl"an': 'decoy', 'x,"plan":': 'decoy' }); // the key's text inside other keys
  add(24, { other: 'say "plan":"decoy"' }); // and inside a value
  add(25, null);
  add(26, { plan: 'engaged', t: 100, d: 50 }, 'engage'); // engage events carry no property
  return out;
}

function setupSite(adapterName: string, rowsOf: (siteId: string) => StoredEvent[] = rows) {
  const adapter = EVENT_STORE_ADAPTERS.find((a) => a.name === adapterName)!;
  return async () => {
    const events = await adapter.open();
    const meta = await openSqliteMetaStore(':memory:');
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'p.test', name: 'p', timezone: 'UTC', retentionMonths: null, rawDays: RAW_DAYS, honorGpc: true }, 'propsite', 0);
    await events.append(rowsOf(site.id));
    const close = async () => {
      await events.close();
      await meta.close();
    };
    return { events, meta, site, close };
  };
}

for (const adapter of EVENT_STORE_ADAPTERS) {
  describe(`custom properties: ${adapter.name}`, () => {
    test('a breakdown lists each value of the events that carry the key, decoded, from raw events and from rollups alike', async () => {
      const { events, meta, site, close } = await setupSite(adapter.name)();
      try {
        const read = async (params: RawParams, watermark: string | null) =>
          computeBreakdown(events, planQuery(parseQuery('breakdown', { from: DAY, to: DAY, limit: '100', ...params }, site, NOW), { watermark, retentionMonths: null, rawDays: 30 }));
        const raw = await read({ dimension: 'prop.plan' }, null);
        const expected = [
          ...TRICKY.map((value) => (value === '(none)' ? '[none]' : value)),
          '3',
          'true',
        ];
        const counts = new Map<string, [number, number]>();
        for (const key of expected) counts.set(key, [(counts.get(key)?.[0] ?? 0) + 1, (counts.get(key)?.[1] ?? 0) + 1]);
        counts.set('3', [2, 3]); // visitors 20 and 21; three events
        counts.set('(none)', [3, 3]); // visitors 23, 24 and 25 (the engage event of 26 counts nowhere)
        assert.deepEqual(
          raw.rows.map((r) => [r.key, r.visitors, r.views]).sort(),
          [...counts].map(([key, [visitors, views]]) => [key, visitors, views]).sort(),
        );
        assert.equal(raw.totalKeys, counts.size);
        assert.equal(raw.totalVisitors, 16, "the share is of the period's visitors");
        assert.deepEqual(await read({ dimension: 'prop.pl"an' }, null).then((b) => b.rows.map((r) => [r.key, r.visitors, r.views])), [['(none)', 14, 15], ['decoy', 1, 1]]);
        const engaged = await read({ dimension: 'prop.t' }, null);
        assert.deepEqual(engaged.rows.map((r) => [r.key, r.visitors, r.views]), [['(none)', 15, 16]], 'engage events carry no property, and count nowhere');

        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 4 });
        const watermark = (await meta.getRollupState(rollupKey(events, site.id)))!.watermark;
        assert.equal(watermark, '2026-03-19');
        const rolled = await read({ dimension: 'prop.plan' }, watermark);
        assert.equal(raw.rows[0]!.key, '(none)');
        assert.deepEqual(
          rolled.rows,
          [{ key: '(other)', visitors: 6, views: 6, pct: 0.375 }, ...raw.rows.slice(0, 5)],
          'the kept values, the rest folded into (other), counted exactly; (none) is no value: neither counted in the cap nor folded',
        );
        for (const search of ['SAY', 'é', '"']) {
          const only = (b: typeof raw) => b.rows.filter((r) => r.key !== '(other)').map((r) => r.key);
          const a = await read({ dimension: 'prop.plan', search }, null);
          assert.ok(a.rows.length > 0, search);
          assert.ok(only(a).every((key) => key.toLowerCase().includes(search.toLowerCase())), search);
        }
      } finally {
        await close();
      }
    });

    test('a (none) row counts the events without the key and their visitors, per day, from raw events, daily rollups and monthly sums alike', async () => {
      const { events, meta, site, close } = await setupSite(adapter.name, noneRows)();
      try {
        const plan = (kind: 'breakdown' | 'stats', params: RawParams, from: string, to: string, watermark: string | null) =>
          planQuery(parseQuery(kind, { from, to, ...params }, site, NOW), { watermark, retentionMonths: null, rawDays: RAW_DAYS });
        const read = async (params: RawParams, watermark: string | null, from: string = NONE_DAYS[0], to: string = NONE_DAYS[3]) => {
          const b = await computeBreakdown(events, plan('breakdown', { dimension: 'prop.tier', ...params }, from, to, watermark));
          return { rows: b.rows.map((r) => [r.key, r.visitors, r.views]), totalKeys: b.totalKeys };
        };
        // (none): Feb 10 visitors 2 and 3 (two events), Feb 11 visitors 1 and 5 (three), Mar 13 visitor 7 (one);
        // a: visitor 1 (two events) on Feb 10, visitors 1 and 6 on Mar 12; b: visitor 2 on Feb 10, 6 on Mar 12.
        const expected = { rows: [['(none)', 5, 6], ['a', 3, 4], ['b', 2, 2]], totalKeys: 3 };
        const searches: Array<[RawParams, typeof expected]> = [
          [{}, expected],
          [{ search: 'NON' }, { rows: [expected.rows[0]!], totalKeys: 1 }],
          [{ limit: '1', offset: '1' }, { rows: [expected.rows[1]!], totalKeys: 3 }],
          [{ limit: '2', offset: '2' }, { rows: [expected.rows[2]!], totalKeys: 3 }],
        ];
        const perDay: Array<[string, Array<Array<string | number>>]> = [
          [NONE_DAYS[0], [['(none)', 2, 2], ['a', 1, 2], ['b', 1, 1]]],
          [NONE_DAYS[1], [['(none)', 2, 3]]],
          [NONE_DAYS[2], [['a', 2, 2], ['b', 1, 1]]], // every event counted carries the key: no (none) row
          [NONE_DAYS[3], [['(none)', 1, 1]]], // the key only on an engage event
        ];
        const check = async (watermark: string | null, label: string) => {
          for (const [params, answer] of searches) assert.deepEqual(await read(params, watermark), answer, `${label} ${JSON.stringify(params)}`);
          for (const [day, rows] of perDay) {
            assert.deepEqual((await read({}, watermark, day, day)).rows, rows, `${label} ${day}`);
            const s = await computeStats(events, plan('stats', { filter: 'prop.tier:(none)' }, day, day, null), []);
            assert.equal(s.visitors.value, rows.find((r) => r[0] === '(none)')?.[1] ?? 0, `${label} ${day}: the (none) row's visitors are the filter's`);
          }
          assert.deepEqual((await read({ filter: 'prop.tier:a' }, watermark)).rows, [expected.rows[1]], `${label}: a value's filter has no (none) row`);
        };
        await check(null, 'raw');
        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
        const watermark = (await meta.getRollupState(rollupKey(events, site.id)))!.watermark;
        assert.equal(watermark, '2026-03-19');
        await check(watermark, 'rollups');
        const whole = plan('breakdown', { dimension: 'prop.tier' }, '2026-02-01', NONE_DAYS[3], watermark);
        assert.deepEqual(whole.plan.breakdownMonths?.months, { from: '2026-02-01', to: '2026-02-01' }, 'February is read from monthly sums');
        assert.deepEqual(await read({}, watermark, '2026-02-01', NONE_DAYS[3]), expected, 'monthly sums');
        assert.deepEqual(await read({}, null, '2026-02-01', NONE_DAYS[3]), expected);
      } finally {
        await close();
      }
      const capped = await setupSite(adapter.name, noneRows)();
      try {
        await rollupSite({ events: capped.events, meta: capped.meta }, capped.site, NOW, { dimensionKeyCap: 1 });
        const q = parseQuery('breakdown', { dimension: 'prop.tier', from: '2026-02-01', to: NONE_DAYS[3] }, capped.site, NOW);
        const b = await computeBreakdown(capped.events, planQuery(q, { watermark: '2026-03-19', retentionMonths: null, rawDays: RAW_DAYS }));
        assert.deepEqual(
          b.rows.map((r) => [r.key, r.visitors, r.views]),
          [['(none)', 5, 6], ['a', 3, 4], ['(other)', 2, 2]],
          'capped at one value a day: b folded into (other), (none) neither counted in the cap nor folded',
        );
      } finally {
        await capped.close();
      }
    });

    test('a filter keeps the events carrying the value (numbers as their text), or for (none) those without the key', async () => {
      const { events, meta, site, close } = await setupSite(adapter.name)();
      try {
        const stats = async (filter: string | string[]) => {
          const q = parseQuery('stats', { from: DAY, to: DAY, filter }, site, NOW);
          const planned = planQuery(q, await planInputs(events, site, q, await meta.getRollupState(rollupKey(events, site.id))));
          const s = await computeStats(events, planned, []);
          return [s.visitors.value, s.pageviews.value];
        };
        const filters: Record<string, string | string[]> = {
          three: 'prop.plan:3',
          quoted: 'prop.plan:say "hi"',
          control: 'prop.plan:line\nbreak\t\u0001\u0002end',
          reserved: 'prop.plan:[none]',
          none: 'prop.plan:(none)',
          truth: 'prop.plan:true',
          combined: ['prop.plan:3', 'page:/'],
        };
        const figures = async () => {
          const out: Record<string, unknown> = {};
          for (const [name, filter] of Object.entries(filters)) out[name] = await stats(filter);
          return out;
        };
        const before = await figures();
        assert.deepEqual(before, {
          three: [2, 2], // a pageview each (and visitor 21's signup)
          quoted: [1, 1],
          control: [1, 1],
          reserved: [2, 2], // "(none)" is stored as a value of its own, as [none]
          none: [3, 3], // visitors 23, 24 and 25, as the breakdown's (none) row (an engage event is none a property counts)
          truth: [1, 1],
          combined: [2, 2],
        });
        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
        const after = await figures();
        assert.deepEqual(after, before, 'rollups answer a single property filter as raw events do');
      } finally {
        await close();
      }
    });

    test('a goal requiring property values counts the events carrying them all, from raw events, rollups and its backfill alike', async () => {
      const { events, meta, site, close } = await setupSite(adapter.name)();
      try {
        const goals = [
          await meta.createGoal(site.internalId, { name: 'three', kind: 'event', pattern: 'signup', props: { plan: '3' } }, 0),
          await meta.createGoal(site.internalId, { name: 'any signup', kind: 'event', pattern: 'signup' }, 0),
        ];
        const read = async (all: typeof goals) => {
          const q = parseQuery('goals', { from: DAY, to: DAY }, site, NOW);
          const state = await meta.getRollupState(rollupKey(events, site.id));
          const planned = planQuery(q, await planInputs(events, site, q, state));
          return (await computeGoals(events, planned, all)).map((g) => [g.name, g.props ?? null, g.conversions, g.uniqueConversions]);
        };
        const expected = [
          ['three', { plan: '3' }, 1, 1],
          ['any signup', null, 1, 1],
        ];
        assert.deepEqual(await read(goals), expected, 'raw events');
        await rollupSite({ events, meta }, site, NOW);
        assert.deepEqual(await read(goals), expected, 'rollups');
        // Made after the days were rolled up: backfilled from the raw events still kept.
        const late = await meta.createGoal(site.internalId, { name: 'pro page', kind: 'event', pattern: 'pageview', props: { plan: '3' } }, 0);
        await rollupSite({ events, meta }, site, NOW);
        const state = await meta.getRollupState(rollupKey(events, site.id));
        assert.equal(countedSince(state, goalKey(late.goalId)), null, 'backfilled whole');
        assert.deepEqual((await read([late]))[0], ['pro page', { plan: '3' }, 2, 2]);
      } finally {
        await close();
      }
    });

    test('the keys the events carry, most events first, from raw events and rollups alike', async () => {
      const { events, meta, site, close } = await setupSite(adapter.name)();
      try {
        const keys = async () => {
          const q = parseQuery('goals', { from: DAY, to: DAY }, site, NOW);
          return computePropertyKeys(events, planQuery(q, await planInputs(events, site, q, await meta.getRollupState(rollupKey(events, site.id)))));
        };
        const expected = [
          { key: 'plan', events: 13 }, // engage's aside
          { key: 'other', events: 1 },
          { key: 'pl"an', events: 1 },
          { key: 'x,"plan":', events: 1 },
        ];
        assert.deepEqual(await keys(), expected);
        await rollupSite({ events, meta }, site, NOW);
        assert.deepEqual(await keys(), expected);
      } finally {
        await close();
      }
    });
  });
}
