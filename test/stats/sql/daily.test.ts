// The daily read statements (src/stats/sql/daily.ts): inputs in, text and parameters out, on both
// dialects; then run on DuckDB.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoalRef } from '../../../src/entities/goals.js';
import { dailyGoalStatements, dailyMeasureStatements, firstFoldedDayStatement } from '../../../src/stats/sql/daily.js';
import { checked, DIALECTS, planned, withDuckDb } from './dialects.js';

const DAYS = { from: '2026-03-01', to: '2026-03-02' };
const GOALS: GoalRef[] = [
  { goalId: 1, kind: 'event', pattern: 'Signup' },
  { goalId: 2, kind: 'page', pattern: '/buy/*', currency: 'EUR' },
];

for (const { name, d } of DIALECTS) {
  const days = `day BETWEEN ${d.dateLiteral(DAYS.from)} AND ${d.dateLiteral(DAYS.to)}`;
  describe(`sql/daily: ${name}`, () => {
    test("a year's daily read: the rolled-up days in one statement, today from raw events", () => {
      const q = planned('stats', { period: 'year' });
      const read = dailyMeasureStatements(d, q, q.plan.period, true);
      assert.equal(read.length, 2);
      assert.deepEqual(checked(read[0]!), {
        text: `SELECT ${d.dayText('day')} AS b, visitors, pageviews, events, sessions, bounces, duration_ms FROM site_daily WHERE site_id = ? AND day BETWEEN ${d.dateLiteral('2026-01-01')} AND ${d.dateLiteral('2026-03-19')}${d.fewRowsClause}`,
        params: ['s'],
      });
      checked(read[1]!);
    });

    test('daily goals: rollups, and raw events for every goal', () => {
      const q = planned('goals', { period: '30d' });
      const read = dailyGoalStatements(d, 's', q.plan.period, GOALS);
      assert.equal(read.length, 2);
      const raw = checked(read[1]!);
      assert.ok(raw.params.includes('Signup') && raw.params.includes('^/buy/[^/]*$'));
      assert.deepEqual(dailyGoalStatements(d, 's', q.plan.period, []), []);
    });

    test('firstFoldedDayStatement: the first day the key is inside (other) and not on its own', () => {
      assert.deepEqual(checked(firstFoldedDayStatement(d, 's', { dimension: 'page', value: '/a', values: ['/a'] }, DAYS)), {
        text: `SELECT ${d.dayText('day')} AS d FROM dim_daily WHERE site_id = ? AND dimension = ? AND key = ? AND ${days} AND day NOT IN (SELECT day FROM dim_daily WHERE site_id = ? AND dimension = ? AND key = ? AND ${days}) ORDER BY day LIMIT 1`,
        params: ['s', 'page', '(other)', 's', 'page', '/a'],
      });
    });
  });
}

test('sql/daily: every statement runs on DuckDB', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    const q = planned('stats', { period: 'year' });
    for (const s of dailyMeasureStatements(d, q, q.plan.period, true)) await store.query(s);
    for (const s of dailyGoalStatements(d, 's', planned('goals', { period: '30d' }).plan.period, GOALS)) await store.query(s);
    await store.query(firstFoldedDayStatement(d, 's', { dimension: 'page', value: '/a', values: ['/a'] }, DAYS));
  });
});
