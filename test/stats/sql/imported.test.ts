// Reads of imported aggregates alone (src/stats/sql/imported.ts), and the export's statements
// over them (export.ts): inputs in, text and parameters out, on both dialects; then run on DuckDB.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoalRef } from '../../../src/entities/goals.js';
import { exportDaysStatement, exportDimensionStatement, exportSiteStatement } from '../../../src/stats/sql/export.js';
import { importedDaysStatement, importedGoals, importedRows } from '../../../src/stats/sql/imported.js';
import { checked, DIALECTS, withDuckDb } from './dialects.js';

const DAYS = { from: '2026-03-01', to: '2026-03-02' };
const GOALS: GoalRef[] = [
  { goalId: 1, kind: 'event', pattern: 'Signup' },
  { goalId: 2, kind: 'page', pattern: '/buy/*', currency: 'EUR' },
  { goalId: 3, kind: 'event', pattern: 'X', props: { a: 'b' } },
];
const NO_REVENUE = 'CAST(0 AS BIGINT) AS revenue_minor, CAST(0 AS BIGINT) AS revenue_conversions, CAST(0 AS BIGINT) AS other_currency';

for (const { name, d } of DIALECTS) {
  const range = (from: string, to: string) => `day BETWEEN ${d.dateLiteral(from)} AND ${d.dateLiteral(to)}`;
  const days = range(DAYS.from, DAYS.to);
  describe(`sql/imported: ${name}`, () => {
    test("importedRows: the site's rows, or a dimension's (and a key's)", () => {
      assert.deepEqual(checked(importedRows(d, 's', DAYS)), { text: `imported_daily WHERE site_id = ? AND ${days}`, params: ['s'] });
      assert.deepEqual(checked(importedRows(d, 's', DAYS, 'page', '/a')), { text: `imported_dim_daily WHERE site_id = ? AND dimension = ? AND ${days} AND key = ?`, params: ['s', 'page', '/a'] });
    });

    test("importedGoals: an event goal from its custom events, a page goal from its pages' pageviews, none with properties", () => {
      const goals = checked(importedGoals(d, 's', DAYS, GOALS)!);
      const sums = `${d.sumOfCounts("c")} AS conversions, ${d.sumOfCounts("u")} AS unique_conversions, ${NO_REVENUE}`;
      assert.equal(
        goals.text,
        `SELECT ${d.dayText('day')} AS b, 1 AS goal_id, ${sums} FROM (SELECT day, events AS c, visitors AS u FROM imported_dim_daily WHERE site_id = ? AND dimension = ? AND ${days} AND key = ?) g GROUP BY day` +
          ` UNION ALL SELECT ${d.dayText('day')} AS b, 2 AS goal_id, ${sums} FROM (SELECT day, pageviews AS c, visitors AS u FROM imported_dim_daily WHERE site_id = ? AND dimension = ? AND ${days} AND ${d.regexMatches('key')}) g GROUP BY day`,
      );
      assert.deepEqual(goals.params, ['s', 'event', 'Signup', 's', 'page', '^/buy/[^/]*$']);
      assert.equal(importedGoals(d, 's', DAYS, GOALS.slice(2)), null, 'a goal requiring properties has no imported conversions');
    });


    test('importedDaysStatement and exportDaysStatement: at most one row, none without days', () => {
      const head = `SELECT ${d.dayText('f')} AS f, ${d.dayText('l')} AS l FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM`;
      assert.deepEqual(checked(importedDaysStatement(d, 's')), {
        text: `${head} (SELECT day FROM imported_daily WHERE site_id = ? UNION ALL SELECT day FROM imported_dim_daily WHERE site_id = ?) u) m WHERE n > 0`,
        params: ['s', 's'],
      });
      assert.deepEqual(checked(exportDaysStatement(d, 's')), {
        text: `${head} (SELECT day FROM imported_daily WHERE site_id = ? UNION ALL SELECT day FROM site_daily WHERE site_id = ?) u) m WHERE n > 0`,
        params: ['s', 's'],
      });
    });

    test('the export reads rollups up to the watermark only, imported aggregates always', () => {
      assert.deepEqual(checked(exportSiteStatement(d, 's', DAYS, null)).params, ['s']);
      const site = checked(exportSiteStatement(d, 's', DAYS, '2026-03-01'));
      assert.ok(site.text.includes(`FROM site_daily WHERE site_id = ? AND ${range('2026-03-01', '2026-03-01')}`), site.text);
      assert.deepEqual(site.params, ['s', 's']);
      assert.deepEqual(checked(exportSiteStatement(d, 's', DAYS, '2026-02-28')).params, ['s'], 'a watermark before the days');
      const dimension = checked(exportDimensionStatement(d, 's', DAYS, '2026-03-05', 'country'));
      assert.ok(dimension.text.includes(`FROM dim_daily WHERE site_id = ? AND dimension = ? AND ${days}`), dimension.text);
      assert.deepEqual(dimension.params, ['s', 'country', 's', 'country']);
    });
  });
}

test('sql/imported: the statements run on DuckDB, over imported rows', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    await store.query(importedDay());
    const goals = await store.query<{ b: string; goal_id: number; conversions: bigint }>(importedGoals(d, 's', DAYS, GOALS)!);
    assert.deepEqual(goals.map((r) => [r.b, Number(r.goal_id), Number(r.conversions)]), [['2026-03-01', 1, 4]]);
    assert.deepEqual(await store.query(importedDaysStatement(d, 's')), [{ f: '2026-03-01', l: '2026-03-01' }]);
    assert.deepEqual(await store.query(importedDaysStatement(d, 'other')), []);
    assert.deepEqual(await store.query(exportDaysStatement(d, 's')), [{ f: '2026-03-01', l: '2026-03-01' }]);
    assert.equal((await store.query(exportSiteStatement(d, 's', DAYS, '2026-03-02'))).length, 1);
    assert.equal((await store.query(exportDimensionStatement(d, 's', DAYS, null, 'event'))).length, 1);
  });
});

/** One imported day of site `s`: its own row, and the event Signup's (4 occurrences, 3 visitors). */
function importedDay() {
  const measures = '3 AS visitors, 5 AS pageviews, 4 AS events, 2 AS sessions, 1 AS bounces, 10 AS duration_ms';
  return {
    text: `INSERT INTO imported_dim_daily BY NAME SELECT 's' AS site_id, DATE '2026-03-01' AS day, 1 AS import_id, 'event' AS dimension, 'Signup' AS key, ${measures};
      INSERT INTO imported_daily BY NAME SELECT 's' AS site_id, DATE '2026-03-01' AS day, 1 AS import_id, ${measures}`,
    params: [],
  };
}
