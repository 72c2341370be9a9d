// A breakdown's statements alone (src/stats/sql/breakdown.ts): a planned query in, the page and the
// key count out, on both dialects, each source's rows where the plan puts them; then run on DuckDB.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { breakdownStatements, viewsColumn } from '../../../src/stats/sql/breakdown.js';
import { checked, DIALECTS, planned, withDuckDb } from './dialects.js';

const ORDER = 'ORDER BY visitors DESC, views DESC NULLS LAST, k ASC LIMIT ? OFFSET ?';
const today = planned('breakdown', { period: 'today', dimension: 'page', limit: '5' });
/** Rolled-up days split around one whole month (February, read from dim_monthly). */
const months = (dimension: string, filter?: string) => planned('breakdown', { from: '2026-01-10', to: '2026-03-05', dimension, ...(filter ? { filter } : {}) });

for (const { name, d } of DIALECTS) {
  describe(`sql/breakdown: ${name}`, () => {
    test('raw days: events of the day, the page limited, the keys counted apart or with the page', () => {
      const s = breakdownStatements(d, today)!;
      const page = checked(s.page);
      const keys = checked(s.keyCount);
      assert.deepEqual(page.params, ['s', 5, 0]);
      assert.ok(page.text.endsWith(ORDER), page.text);
      const day = `day BETWEEN ${d.dateLiteral('2026-03-20')} AND ${d.dateLiteral('2026-03-20')}`;
      assert.deepEqual(keys, { text: `SELECT ${d.countDistinct('k')} AS n FROM (SELECT page AS k FROM (SELECT * FROM events WHERE site_id = ? AND ${day}) ev) u`, params: ['s'] });
      // Where the engine adds a totals row, one GROUP BY over the visits counts the page and the
      // period's visitors; else a window function counts the keys on the page.
      if (d.groupTotals() !== null) {
        assert.deepEqual([s.countedOnPage, s.visitorsInTotals], [false, true]);
        assert.match(page.text, / GROUP BY k WITH TOTALS ORDER BY/);
      } else {
        assert.deepEqual([s.countedOnPage, s.visitorsInTotals], [true, false]);
        assert.ok(page.text.startsWith(`SELECT k, visitors, views, ${d.countOverAll()} AS total_keys FROM`));
      }
    });

    test('rolled-up days: dim_daily around the months, dim_monthly for them, a filter on the key', () => {
      const s = checked(breakdownStatements(d, months('country', 'country:FR'))!.page);
      const range = (column: string, from: string, to: string) => `${column} BETWEEN ${d.dateLiteral(from)} AND ${d.dateLiteral(to)}`;
      for (const [table, part] of [['dim_daily', range('day', '2026-01-10', '2026-01-31')], ['dim_daily', range('day', '2026-03-01', '2026-03-05')], ['dim_monthly', range('month', '2026-02-01', '2026-02-01')]]) {
        assert.ok(s.text.includes(`SELECT key AS k, visitors, pageviews AS views FROM ${table} WHERE site_id = ? AND ${part} AND dimension = ? AND key = ?`), `${table} ${part}`);
      }
      assert.deepEqual(s.params, ['s', 'country', 'FR', 's', 'country', 'FR', 's', 'country', 'FR', 100, 0]);
    });

    test('under one session filter of few keys: pair months for the whole months, session rows and raw events after them', () => {
      const q = planned('breakdown', { period: 'year', dimension: 'referrer', filter: 'country:FR' }, { rawDays: 400, pairMonths: ['2026-01-01', '2026-02-01'] });
      const s = checked(breakdownStatements(d, q)!.page);
      const range = (column: string, from: string, to: string) => `${column} BETWEEN ${d.dateLiteral(from)} AND ${d.dateLiteral(to)}`;
      const key = d.asRepeated('key');
      assert.ok(s.text.includes(`SELECT ${key} AS k, visitors, pageviews AS views FROM pair_monthly WHERE site_id = ? AND ${range('month', '2026-01-01', '2026-02-01')}`), s.text);
      assert.ok(s.text.includes(`AND filter_dimension = ? AND filter_key = ? AND dimension = ?`), s.text);
      assert.ok(s.text.includes(range('day', '2026-03-01', '2026-03-19')) && s.text.includes('session_days'), 'session rows from March on');
      assert.ok(!s.text.includes(range('day', '2026-01-01', '2026-03-19')), 'no session rows of the months');
      assert.deepEqual(s.params.slice(0, 4), ['s', 'country', 'FR', 'referrer']);
    });

    test("a property's rolled-up days: its rows, else the day's `prop.` row as its (none), in one pass a table", () => {
      const s = checked(breakdownStatements(d, months('prop.plan'))!.page);
      assert.equal(s.text.split('dimension IN (?, ?)').length - 1, 3, 'one pass over each of the three parts');
      assert.deepEqual(s.params.slice(0, 6), ['prop.plan', '(none)', 'prop.plan', 's', 'prop.plan', 'prop.']);
      assert.equal(viewsColumn('prop.plan'), 'events');
      assert.ok(s.text.includes('events AS views'));
    });

    test('an event breakdown leaves out engage; a search is a parameter', () => {
      const q = planned('breakdown', { period: 'today', dimension: 'event', search: 'Sign' });
      const s = checked(breakdownStatements(d, q)!.page);
      assert.ok(s.text.includes(`k <> 'engage' AND ${d.containsInsensitive('k')}`), s.text);
      assert.ok(s.params.includes('Sign'));
    });
  });
}

test('sql/breakdown: every statement runs on DuckDB', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    const pairs = planned('breakdown', { period: 'year', dimension: 'event', filter: 'country:FR' }, { rawDays: 400, pairMonths: ['2026-01-01'] });
    for (const q of [today, months('country', 'country:FR'), months('prop.plan'), pairs]) {
      const s = breakdownStatements(d, q)!;
      assert.deepEqual(await store.query(s.page), []);
      await store.query(s.keyCount);
    }
  });
});
