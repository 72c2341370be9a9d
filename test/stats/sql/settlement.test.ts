// A settlement's statements alone (src/stats/sql/settlement.ts) and the daily reads that take it
// (daily.ts): inputs in, text and parameters out, on both dialects; then run on DuckDB.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoalRef } from '../../../src/entities/goals.js';
import { SESSION_GAP_MS } from '../../../src/core/session-gap.js';
import { dailyGoalStatements, dailyMeasureStatements, firstFoldedDayStatement } from '../../../src/stats/sql/daily.js';
import { eventCountStatement, openFromStatement, settlementCheckStatement, settlementRows } from '../../../src/stats/sql/settlement.js';
import { checked, DIALECTS, planned, SETTLEMENT, withDuckDb } from './dialects.js';

const DAYS = { from: '2026-03-01', to: '2026-03-02' };
const CUT = 5_000_000;
const GOALS: GoalRef[] = [
  { goalId: 1, kind: 'event', pattern: 'Signup' },
  { goalId: 2, kind: 'page', pattern: '/buy/*', currency: 'EUR' },
];

for (const { name, d } of DIALECTS) {
  const days = `day BETWEEN ${d.dateLiteral(DAYS.from)} AND ${d.dateLiteral(DAYS.to)}`;
  describe(`sql/settlement: ${name}`, () => {
    test("the check: the site's events of its days before the cut, and its rows in every settled table", () => {
      const events = `SELECT CAST(count(*) AS BIGINT) AS held_events FROM events WHERE site_id = ? AND ${days} AND ts < ?`;
      assert.deepEqual(checked(eventCountStatement(d, 's', DAYS, null, CUT)), { text: events, params: ['s', CUT] });
      assert.deepEqual(checked(eventCountStatement(d, 's', DAYS, 7, CUT)).params, ['s', 7, CUT]);
      const rows = (table: string) => `(SELECT CAST(count(*) AS BIGINT) FROM ${table} WHERE site_id = ? AND ${days} AND cut = ?)`;
      assert.deepEqual(checked(settlementCheckStatement(d, 's', { days: DAYS, cut: CUT })), {
        text: `SELECT (${events}) AS held_events, ${rows('settled_sessions')} + ${rows('settled_goals')} AS held_rows`,
        params: ['s', CUT, 's', CUT, 's', CUT],
      });
    });

    test('openFrom: the first event of the sessions still open at the cut, or a session gap before it', () => {
      const gap = CUT - SESSION_GAP_MS;
      assert.deepEqual(checked(openFromStatement(d, 's', DAYS, CUT)), {
        text: `SELECT min(f) AS open_from FROM (SELECT min(ts) AS f FROM events WHERE site_id = ? AND ${days} AND ts < ? GROUP BY session_id HAVING max(ts) >= ? UNION ALL SELECT CAST(? AS BIGINT) AS f) o`,
        params: ['s', CUT, gap, gap],
      });
    });

    test("settlementRows: the ended sessions' rows, and with goals one row per day, goal and visitor", () => {
      const [sessions, none] = settlementRows(d, 's', DAYS, CUT, []);
      assert.equal(none, null);
      const s = checked(sessions);
      assert.deepEqual(s.params, ['s', CUT, 's', CUT, 's', CUT, CUT - SESSION_GAP_MS]);
      assert.ok(s.text.endsWith(`GROUP BY session_id HAVING max(ts) < ?) x ON p.p_session = x.s_session) s`), s.text);
      const conversions = checked(settlementRows(d, 's', DAYS, CUT, GOALS)[1]!);
      assert.ok(conversions.text.endsWith(') g GROUP BY b, goal_id, visitor_id'), conversions.text);
      // Per goal: its currency three times (paid, rm, other) and once more in `other`, the site, its
      // pattern, the cut.
      assert.deepEqual(conversions.params, ['s', CUT, '', '', '', '', 's', 'Signup', CUT, 'EUR', 'EUR', 'EUR', 'EUR', 's', '^/buy/[^/]*$', CUT]);
    });

    test('a daily read with a settlement: rollups as statements, the raw day as the settled part and its check', () => {
      const q = planned('stats', { period: 'year' }, { settlement: SETTLEMENT });
      const read = dailyMeasureStatements(d, q, q.plan.period, true);
      assert.deepEqual(read.sources.map(checked), [
        {
          text: `SELECT ${d.dayText('day')} AS b, visitors, pageviews, events, sessions, bounces, duration_ms FROM site_daily WHERE site_id = ? AND day BETWEEN ${d.dateLiteral('2026-01-01')} AND ${d.dateLiteral('2026-03-19')}${d.fewRowsClause}`,
          params: ['s'],
        },
      ]);
      assert.deepEqual(checked(read.check!).params, ['s', SETTLEMENT.cut, 's', SETTLEMENT.cut, 's', SETTLEMENT.cut]);
      const part = read.settled!;
      assert.equal(part.cut, SETTLEMENT.cut);
      assert.deepEqual(checked(part.open!.rows).params, ['s', SETTLEMENT.openFrom, SETTLEMENT.cut]);
      for (const s of [part.settled, part.recent, part.whole]) checked(s);
      // The fallback, compiled with the rest: the same days without the settlement, the raw day from raw events.
      const unsettled = dailyMeasureStatements(d, q, { ...q.plan.period, settled: null }, true);
      assert.deepEqual(read.unsettled, unsettled.sources);
      assert.equal(unsettled.sources.length, 2);
      assert.equal(unsettled.check, null);
      // Visitors alone: one pass over raw events, no settled part.
      const visitors = dailyMeasureStatements(d, q, q.plan.period, false);
      assert.equal(visitors.settled, undefined);
      assert.equal(visitors.sources.length, 2);
    });

    test("daily goals: a settlement's goals from its part, the others from raw events", () => {
      const q = planned('goals', { period: '30d' }, { settlement: { ...SETTLEMENT, goals: GOALS.slice(0, 1) } });
      const read = dailyGoalStatements(d, 's', q.plan.period, GOALS);
      assert.equal(read.sources.length, 2, 'rollups, and raw events for the goal the settlement did not count');
      assert.ok(checked(read.sources[1]!).params.includes('^/buy/[^/]*$'));
      assert.ok(!read.sources[1]!.params.includes('Signup'));
      assert.ok(checked(read.settled!.recent).params.includes('Signup'));
      assert.equal(read.unsettled!.length, 2, 'the fallback: rollups, and raw events for every goal');
      assert.ok(checked(read.unsettled![1]!).params.includes('Signup'));
      assert.deepEqual(dailyGoalStatements(d, 's', q.plan.period, []), { sources: [], check: null });
    });

    test('firstFoldedDayStatement: the first day the key is inside (other) and not on its own', () => {
      assert.deepEqual(checked(firstFoldedDayStatement(d, 's', { dimension: 'page', value: '/a', values: ['/a'] }, DAYS)), {
        text: `SELECT ${d.dayText('day')} AS d FROM dim_daily WHERE site_id = ? AND dimension = ? AND key = ? AND ${days} AND day NOT IN (SELECT day FROM dim_daily WHERE site_id = ? AND dimension = ? AND key = ? AND ${days}) ORDER BY day LIMIT 1`,
        params: ['s', 'page', '(other)', 's', 'page', '/a'],
      });
    });
  });
}

test('sql/settlement: every statement runs on DuckDB', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    assert.deepEqual(await store.query(settlementCheckStatement(d, 's', { days: DAYS, cut: CUT })), [{ held_events: 0n, held_rows: 0n }]);
    assert.deepEqual(await store.query(openFromStatement(d, 's', DAYS, CUT)), [{ open_from: BigInt(CUT - SESSION_GAP_MS) }]);
    for (const s of settlementRows(d, 's', DAYS, CUT, GOALS)) await store.query(s!);
    const q = planned('stats', { period: 'year' }, { settlement: SETTLEMENT });
    const read = dailyMeasureStatements(d, q, q.plan.period, true);
    for (const s of [...read.sources, read.check!, read.settled!.settled, read.settled!.recent, read.settled!.open!.rows, read.settled!.whole]) await store.query(s);
    const goals = dailyGoalStatements(d, 's', planned('goals', { period: '30d' }, { settlement: { ...SETTLEMENT, goals: GOALS.slice(0, 1) } }).plan.period, GOALS);
    for (const s of [...goals.sources, goals.settled!.settled, goals.settled!.recent, goals.settled!.whole]) await store.query(s);
    await store.query(firstFoldedDayStatement(d, 's', { dimension: 'page', value: '/a', values: ['/a'] }, DAYS));
  });
});
