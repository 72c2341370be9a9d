// The alert rules' measurements (src/alerts/rule-metrics.ts, through ruleValues) over one fixed set of
// events, with the same exact numbers on every EventStore adapter: window bounds, per-day visitors,
// site-local goal days, silence without events.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { goalConversionsOnDay, lastEventTimes, RAW_WINDOW_MS, visitorsInWindow } from '../../src/alerts/rule-metrics.js';
import { DROP_WINDOW_MS, ruleValues, SPIKE_WINDOW_MS } from '../../src/alerts/rules.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import type { EventStore } from '../../src/storage/events/types.js';
import type { GoalDefinition } from '../../src/entities/alerts.js';
import type { RuleType } from '../../src/core/vocabulary.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { event } from '../../support/events.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** 06:00 on 2026-03-20 in UTC; 23:00 on 2026-03-19 in Los Angeles (PDT). */
const NOW = Date.parse('2026-03-20T06:00:00Z');

const UTC_SITE = 'metrics-utc';
const LA_SITE = 'metrics-la';
const LA = 'America/Los_Angeles';
/** Its only event is older than the raw window. */
const QUIET_SITE = 'metrics-quiet';
/** No event at all. */
const NEW_SITE = 'metrics-new';
/** Signups with custom properties, for goals that require property values. */
const PROPS_SITE = 'metrics-props';

function hit(siteId: string, timeZone: string, ts: number, visitor: number, page: string, name = 'pageview', props: Record<string, unknown> | null = null): StoredEvent {
  return event({ siteId, ts, visitorId: BigInt(visitor), sessionId: BigInt(visitor), sessionStart: true, name, page, entryPage: page, props: props && JSON.stringify(props) }, timeZone);
}

const EVENTS: StoredEvent[] = [
  hit(UTC_SITE, 'UTC', NOW - DROP_WINDOW_MS - 1, 7, '/'), // just before the drop window
  hit(UTC_SITE, 'UTC', NOW - DROP_WINDOW_MS, 1, '/'), // drop window start, 2026-03-19
  hit(UTC_SITE, 'UTC', NOW - 10 * HOUR, 1, '/pricing'), // 2026-03-19: not today's conversion
  hit(UTC_SITE, 'UTC', NOW - 2 * HOUR, 1, '/pricing'), // 2026-03-20, the same visitor again
  hit(UTC_SITE, 'UTC', NOW - SPIKE_WINDOW_MS - 1, 6, '/'), // just before the spike window
  hit(UTC_SITE, 'UTC', NOW - SPIKE_WINDOW_MS, 2, '/blog/a'), // spike window start
  hit(UTC_SITE, 'UTC', NOW - 3 * MIN, 3, '/signup', 'signup'),
  hit(UTC_SITE, 'UTC', NOW - MIN, 3, '/pricing'),
  hit(UTC_SITE, 'UTC', NOW, 4, '/blog/b/c'), // window end; '/blog/*' does not match it
  hit(UTC_SITE, 'UTC', NOW + MIN, 5, '/'), // after now: in no window
  hit(LA_SITE, LA, NOW - 25 * HOUR, 1, '/checkout'), // 2026-03-18 local
  hit(LA_SITE, LA, NOW - 2 * HOUR, 3, '/signup', 'signup'),
  hit(LA_SITE, LA, NOW - 90 * MIN, 1, '/checkout'),
  hit(LA_SITE, LA, NOW - 3 * MIN, 2, '/checkout'),
  hit(LA_SITE, LA, NOW + 2 * HOUR, 9, '/checkout'), // 2026-03-20 local: tomorrow there
  hit(QUIET_SITE, 'UTC', NOW - RAW_WINDOW_MS - DAY, 1, '/'),
  hit(PROPS_SITE, 'UTC', NOW - 9 * MIN, 1, '/', 'signup', { plan: 'pro', seats: 3 }),
  hit(PROPS_SITE, 'UTC', NOW - 8 * MIN, 2, '/', 'signup', { plan: 'pro' }),
  hit(PROPS_SITE, 'UTC', NOW - 7 * MIN, 3, '/', 'signup', { plan: 'free', seats: 3 }),
  hit(PROPS_SITE, 'UTC', NOW - 6 * MIN, 4, '/', 'signup'),
  hit(PROPS_SITE, 'UTC', NOW - 5 * MIN, 5, '/', 'pageview', { plan: 'pro' }),
];

const GOALS: GoalDefinition[] = [
  { goalId: 11, siteId: 1, kind: 'page', pattern: '/pricing' },
  { goalId: 12, siteId: 1, kind: 'event', pattern: 'signup' },
  { goalId: 13, siteId: 1, kind: 'page', pattern: '/blog/*' },
  { goalId: 14, siteId: 2, kind: 'page', pattern: '/checkout' },
  { goalId: 15, siteId: 2, kind: 'event', pattern: 'signup' },
  { goalId: 16, siteId: 3, kind: 'event', pattern: 'signup', props: { plan: 'pro' } },
  { goalId: 17, siteId: 3, kind: 'event', pattern: 'signup', props: { plan: 'pro', seats: '3' } },
  { goalId: 18, siteId: 3, kind: 'event', pattern: 'signup' },
];
const GOAL_SITES = new Map([[1, { siteId: UTC_SITE, day: '2026-03-20' }], [2, { siteId: LA_SITE, day: '2026-03-19' }], [3, { siteId: PROPS_SITE, day: '2026-03-20' }]]);
const goalCountsOf = (site: number) => GOALS.filter((g) => g.siteId === site).map((g) => ({ ...g, siteId: GOAL_SITES.get(site)!.siteId }));

const SITE_ZONES: Record<string, { timeZone: string; createdAt: number }> = {
  [UTC_SITE]: { timeZone: 'UTC', createdAt: NOW - 60 * DAY },
  [LA_SITE]: { timeZone: LA, createdAt: NOW - 60 * DAY },
  [QUIET_SITE]: { timeZone: 'UTC', createdAt: NOW - 60 * DAY },
  [NEW_SITE]: { timeZone: 'UTC', createdAt: NOW - 10 * HOUR },
  [PROPS_SITE]: { timeZone: 'UTC', createdAt: NOW - 60 * DAY },
};
let nextRuleId = 1;
const rule = (type: RuleType, site: string, goalId: number | null = null) => ({
  id: nextRuleId++,
  type,
  goalId,
  sitePublicId: site,
  siteTimezone: SITE_ZONES[site]!.timeZone,
  siteCreatedAt: SITE_ZONES[site]!.createdAt,
});

/** Every rule type on every site, a goal rule per goal, and one whose goal no longer exists. */
const RULES = [
  ...[UTC_SITE, LA_SITE, QUIET_SITE, NEW_SITE].flatMap((site) => (['spike', 'drop', 'silence'] as const).map((type) => rule(type, site))),
  ...GOALS.map((g) => rule('goal', GOAL_SITES.get(g.siteId)!.siteId, g.goalId)),
  rule('goal', UTC_SITE, 99),
];

/** Rule value by (type, site, goal): what each rule watches at NOW. */
const EXPECTED_VALUES: Array<[RuleType, string, number | null, number]> = [
  ['spike', UTC_SITE, null, 3], // visitors 2, 3, 4
  ['drop', UTC_SITE, null, 6], // 2026-03-19: {1}; 2026-03-20: {1, 6, 2, 3, 4}
  ['silence', UTC_SITE, null, 0],
  ['spike', LA_SITE, null, 1],
  ['drop', LA_SITE, null, 3],
  ['silence', LA_SITE, null, 0.05],
  ['spike', QUIET_SITE, null, 0],
  ['drop', QUIET_SITE, null, 0],
  ['silence', QUIET_SITE, null, 720], // since the raw window's start
  ['spike', NEW_SITE, null, 0],
  ['drop', NEW_SITE, null, 0],
  ['silence', NEW_SITE, null, 10], // since the site's creation
  ['goal', UTC_SITE, 11, 2],
  ['goal', UTC_SITE, 12, 1],
  ['goal', UTC_SITE, 13, 1],
  ['goal', LA_SITE, 14, 2],
  ['goal', LA_SITE, 15, 1],
  ['goal', PROPS_SITE, 16, 2], // every property value required must match
  ['goal', PROPS_SITE, 17, 1],
  ['goal', PROPS_SITE, 18, 4],
];

const ALL_SITES = [UTC_SITE, LA_SITE, QUIET_SITE, NEW_SITE];
const sorted = <K, V>(m: Map<K, V>) => [...m].sort(([a], [b]) => String(a).localeCompare(String(b)));

for (const adapter of EVENT_STORE_ADAPTERS) {
  describe(`alert rule metrics: ${adapter.name}`, () => {
    let events: EventStore;
    before(async () => {
      events = await adapter.open();
      await events.append(EVENTS);
    });
    after(async () => {
      await events.close();
    });

    test('visitors in a window: both ends included, distinct per site-local day, summed over days', async () => {
      assert.deepEqual(sorted(await visitorsInWindow(events, ALL_SITES, NOW - SPIKE_WINDOW_MS, NOW)), [[LA_SITE, 1], [UTC_SITE, 3]]);
      assert.deepEqual(sorted(await visitorsInWindow(events, ALL_SITES, NOW - DROP_WINDOW_MS, NOW)), [[LA_SITE, 3], [UTC_SITE, 6]]);
      assert.deepEqual(sorted(await visitorsInWindow(events, [UTC_SITE], NOW + 1, NOW + HOUR)), [[UTC_SITE, 1]]);
      assert.deepEqual(sorted(await visitorsInWindow(events, [], NOW - DAY, NOW)), []);
    });

    test('last event time: the latest at or before now, within the raw window', async () => {
      assert.deepEqual(sorted(await lastEventTimes(events, ALL_SITES, NOW)), [[LA_SITE, NOW - 3 * MIN], [UTC_SITE, NOW]]);
      assert.deepEqual(sorted(await lastEventTimes(events, [UTC_SITE], NOW - 4 * MIN)), [[UTC_SITE, NOW - 5 * MIN]]);
    });

    test('goal conversions on a site-local day, each site only its own events', async () => {
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-20', goalCountsOf(1))), [[11, 2], [12, 1], [13, 1]]);
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-19', goalCountsOf(2))), [[14, 2], [15, 1]]);
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-19', goalCountsOf(1))), [[11, 1], [12, 0], [13, 0]]);
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-20', goalCountsOf(2))), [[14, 1], [15, 0]]);
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-20', goalCountsOf(3))), [[16, 2], [17, 1], [18, 4]], 'goals requiring property values');
      assert.deepEqual(sorted(await goalConversionsOnDay(events, '2026-03-20', [...goalCountsOf(1), ...goalCountsOf(3)])), [[11, 2], [12, 1], [13, 1], [16, 2], [17, 1], [18, 4]]);
    });

    test('every rule type has its exact value; a rule on a deleted goal has none', async () => {
      const values = await ruleValues(events, RULES, new Map(GOALS.map((g) => [g.goalId, g])), NOW);
      const expected = new Map(
        EXPECTED_VALUES.map(([type, site, goalId, value]) => [RULES.find((r) => r.type === type && r.sitePublicId === site && r.goalId === goalId)!.id, value]),
      );
      assert.deepEqual(sorted(values), sorted(expected));
    });

    test('goal counts of sites on different days run one after another: an evaluation holds one read connection for them', async () => {
      let running = 0;
      let most = 0;
      const counting: EventStore = Object.create(events, {
        query: {
          value: async (statement: Parameters<EventStore['query']>[0], options?: Parameters<EventStore['query']>[1]) => {
            const goalCount = /goal_id/.test(typeof statement === 'string' ? statement : JSON.stringify(statement));
            if (goalCount) most = Math.max(most, ++running);
            try {
              return await events.query(statement, options);
            } finally {
              if (goalCount) running--;
            }
          },
        },
      });
      // The UTC and Los Angeles sites' "today" are two days: before, their counts ran at once.
      const values = await ruleValues(counting, RULES, new Map(GOALS.map((g) => [g.goalId, g])), NOW);
      assert.ok(values.size > 0);
      assert.equal(most, 1);
    });
  });
}
