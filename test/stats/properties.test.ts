// Custom properties as dimensions (`prop.<key>`): the values read back from the stored JSON text
// exactly (escapes, numbers and booleans, reserved spellings), filters by value and by `(none)`,
// `engage` events carrying none, and the rollups (capped into `(other)`) answering as raw events do.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { createRollupTables, rollupKey, rollupSite } from '../../src/stats/rollups/job.js';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';
import { planInputs } from '../../src/stats/inputs.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computePropertyKeys } from '../../src/stats/read/properties.js';
import { countedSince, goalKey } from '../../src/stats/rollups/coverage.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { event } from '../../support/events.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';

const TODAY = '2026-03-20';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);
const DAY = '2026-03-10';

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

function setupSite(adapterName: string) {
  const adapter = EVENT_STORE_ADAPTERS.find((a) => a.name === adapterName)!;
  return async () => {
    const events = await adapter.open();
    const meta = await openSqliteMetaStore(':memory:');
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'p.test', name: 'p', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'propsite', 0);
    await events.append(rows(site.id));
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
        assert.deepEqual(
          raw.rows.map((r) => [r.key, r.visitors, r.views]).sort(),
          [...counts].map(([key, [visitors, views]]) => [key, visitors, views]).sort(),
        );
        assert.equal(raw.totalKeys, counts.size);
        assert.equal(raw.totalVisitors, 16, "the share is of the period's visitors");
        assert.deepEqual(await read({ dimension: 'prop.pl"an' }, null).then((b) => b.rows.map((r) => r.key)), ['decoy']);
        assert.deepEqual(await read({ dimension: 'prop.t' }, null).then((b) => b.rows), [], 'engage events carry no property');

        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 4 });
        const watermark = (await meta.getRollupState(rollupKey(events, site.id)))!.watermark;
        assert.equal(watermark, '2026-03-19');
        const rolled = await read({ dimension: 'prop.plan' }, watermark);
        assert.deepEqual(
          rolled.rows,
          [{ key: '(other)', visitors: 6, views: 6, pct: 0.375 }, ...raw.rows.slice(0, 4)],
          'the kept values, the rest folded into (other), counted exactly',
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
          none: [4, 3], // visitors 23, 24, 25 and the engage event's 26
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
