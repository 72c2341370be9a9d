// The goal statements under filters (src/stats/sql/goals.ts, daily.ts), on both dialects: without
// filters a goal is looked for in the site's events of the days; under filters in the events the
// filters keep (the filter's value a parameter, the exit page derived for an exit filter), on the
// planner's raw goal days alone; and the statement runs on both engines, in either form, counting what the filters keep.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dailyGoalStatements } from '../../../src/stats/sql/daily.js';
import { measureGoals } from '../../../src/stats/sql/goals.js';
import { DAY_BUCKET } from '../../../src/stats/sql/measures.js';
import { storedEvent } from '../../helpers/stored-event.js';
import { checked, DIALECTS, planned } from './dialects.js';
import { ROLLUP_TABLES } from '../../../src/stats/rollups/tables.js';
import { EVENT_STORE_ADAPTERS } from '../../helpers/event-stores.js';

const DAYS = { from: '2026-03-10', to: '2026-03-12' };
const SIGNUP = { goalId: 7, kind: 'event' as const, pattern: 'signup' };
const DOCS = { goalId: 8, kind: 'page' as const, pattern: '/docs/*' };
const PAID = { goalId: 9, kind: 'event' as const, pattern: 'signup', currency: 'EUR' };

for (const { name, d } of DIALECTS) {
  describe(`sql/goals under filters: ${name}`, () => {
    test('without filters, the site events of the days; under filters, the events the filters keep', () => {
      const plain = checked(measureGoals(d, DAY_BUCKET, 's', DAYS, [SIGNUP]));
      assert.match(plain.text, /FROM events WHERE site_id = \? AND day BETWEEN/);
      assert.deepEqual(plain.params, ['', '', '', '', 's', 'signup']);
      const filtered = checked(measureGoals(d, DAY_BUCKET, 's', DAYS, [SIGNUP], { filters: [{ dimension: 'country', value: "FR' OR 1=1", values: ["FR' OR 1=1"] }] }));
      assert.match(filtered.text, /coalesce\(country, '\(none\)'\) = \?/);
      assert.ok(filtered.params.includes("FR' OR 1=1"), 'the value a parameter');
      assert.ok(!filtered.text.includes('OR 1=1'));
      assert.doesNotMatch(filtered.text, /exit_page/);
      const exit = checked(measureGoals(d, DAY_BUCKET, 's', DAYS, [SIGNUP], { filters: [{ dimension: 'exit', value: '/a', values: ['/a'] }], until: 99 }));
      assert.match(exit.text, /exit_page/);
      assert.match(exit.text, /ev WHERE name = \? AND ts < \?\) g GROUP BY b, goal_id$/);
      // A pass per goal, with filters and without.
      const passes = (goals: Parameters<typeof measureGoals>[4]) => checked(measureGoals(d, DAY_BUCKET, 's', DAYS, goals, { filters: [{ dimension: 'country', value: 'FR', values: ['FR'] }] })).text.split('UNION ALL').length;
      assert.equal(passes([SIGNUP, DOCS, PAID]), 3);
      assert.equal(checked(measureGoals(d, DAY_BUCKET, 's', DAYS, [SIGNUP, DOCS])).text.split('UNION ALL').length, 2, 'without filters, a pass per goal');
    });

    test("a stats read under a filter reads its goals from raw events alone, with the filter; without, from rollups too", () => {
      const q = planned('stats', { from: '2026-03-10', to: '2026-03-19', filter: 'country:FR', raw: 'clip' });
      const statements = dailyGoalStatements(d, 's', q.plan.goalSpan!, [SIGNUP], q.filters);
      assert.equal(statements.length, 1);
      const only = checked(statements[0]!);
      assert.doesNotMatch(only.text, /goal_daily/);
      assert.ok(only.params.includes('FR'));
      const plain = planned('stats', { from: '2026-03-10', to: '2026-03-19' });
      const both = dailyGoalStatements(d, 's', plain.plan.goalSpan!, [SIGNUP]).map((s) => checked(s).text).join(' ');
      assert.match(both, /goal_daily/);
    });
  });
}

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`sql/goals: under a filter, ${adapter.name} counts the goal events the filter keeps`, async () => {
    const store = await adapter.open();
    try {
      await store.createTables(ROLLUP_TABLES);
      const d = store.dialect;
      const event = (i: number, country: string, name: string, visitor: number) => ({
        ...storedEvent(i),
        siteId: 's',
        day: '2026-03-11',
        country,
        name,
        visitorId: BigInt(visitor),
        sessionId: BigInt(visitor),
      });
      const docs = (i: number, country: string, visitor: number) => ({ ...event(i, country, 'pageview', visitor), page: '/docs/a' });
      await store.append([event(1, 'FR', 'signup', 1), event(2, 'FR', 'signup', 1), event(3, 'DE', 'signup', 2), event(4, 'FR', 'pageview', 3), docs(5, 'FR', 3), docs(6, 'FR', 1), docs(7, 'DE', 2)]);
      const count = async (goals: Parameters<typeof measureGoals>[4], filters: Parameters<typeof measureGoals>[5]) =>
        (await store.query<{ goal_id: unknown; conversions: unknown; unique_conversions: unknown }>(measureGoals(d, DAY_BUCKET, 's', DAYS, goals, filters)))
          .map((r) => [Number(r.goal_id), Number(r.conversions), Number(r.unique_conversions)])
          .sort((a, b) => a[0]! - b[0]!);
      assert.deepEqual(await count([SIGNUP], {}), [[7, 3, 2]]);
      assert.deepEqual(await count([SIGNUP], { filters: [{ dimension: 'country', value: 'FR', values: ['FR'] }] }), [[7, 2, 1]]);
      assert.deepEqual(await count([SIGNUP], { filters: [{ dimension: 'country', value: 'US', values: ['US'] }] }), []);
      // Goals of two currencies under a filter, each event counted for every goal it matches.
      assert.deepEqual(await count([SIGNUP, DOCS, PAID], { filters: [{ dimension: 'country', value: 'FR', values: ['FR'] }] }), [[7, 2, 1], [8, 2, 2], [9, 2, 1]]);
    } finally {
      await store.close();
    }
  });
}
