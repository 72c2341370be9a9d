// The leaves of the read path's SQL alone (src/stats/sql/filters.ts, the predicates of goals.ts):
// inputs in, text and parameters out, on both dialects; client text is only ever a parameter. The
// operators' predicates also run on DuckDB (on ClickHouse: test/stats/session-rows.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from '../../../src/sql/sql.js';
import type { Filter } from '../../../src/core/vocabulary.js';
import { sessionRowsRelation } from '../../../src/stats/sql/events.js';
import { dayRange, filterPredicate, goalPredicate, instantBounds, integerLiteral, keyExpr, matcherPredicate, needsExit } from '../../../src/stats/sql/filters.js';
import { checked, DIALECTS, withDuckDb } from './dialects.js';

const DAYS = { from: '2026-03-01', to: '2026-03-02' };

for (const { name, d } of DIALECTS) {
  const [from, to] = [d.dateLiteral(DAYS.from), d.dateLiteral(DAYS.to)];
  describe(`sql/filters: ${name}`, () => {
    test('dayRange bounds a DATE column with the dialect literals, no parameter', () => {
      assert.deepEqual(checked(dayRange(d, 'month', DAYS)), { text: `month BETWEEN ${from} AND ${to}`, params: [] });
    });

    test('keyExpr reads an absent value as (none), but for page and event (never absent)', () => {
      assert.equal(keyExpr('page').text, 'page');
      assert.equal(keyExpr('event').text, 'name');
      assert.equal(keyExpr('country').text, "coalesce(country, '(none)')");
    });

    test('filterPredicate: a key, a page pattern (its regex a parameter), a property', () => {
      assert.deepEqual(checked(filterPredicate(d, { dimension: 'country', value: 'FR', values: ['FR'] })), { text: "coalesce(country, '(none)') = ?", params: ['FR'] });
      const pattern = checked(filterPredicate(d, { dimension: 'page', value: '/blog/**', values: ['/blog/**'], pattern: true }));
      assert.equal(pattern.text, d.regexMatches('page'));
      assert.deepEqual(pattern.params, ['^/blog/[^\\n\\r\\x{2028}\\x{2029}]*$']);
      const property = checked(filterPredicate(d, { dimension: 'prop.plan', value: 'pro', values: ['pro'] }));
      assert.match(property.text, /^\(NOT name = 'engage' AND .* IN \(\?, \?\)\)$/);
      assert.deepEqual(property.params.slice(-2), ['"pro"', 'pro']);
    });

    test('filterPredicate under each operator: the value or text only ever a parameter, contains on present values', () => {
      const country = (operator: Filter['operator'], value: string) => checked(filterPredicate(d, { dimension: 'country', operator, value, values: [value] }));
      const key = "coalesce(country, '(none)')";
      assert.deepEqual(country('is_not', '(none)'), { text: `${key} <> ?`, params: ['(none)'] });
      assert.deepEqual(country('contains', '%_'), { text: `(${key} <> ? AND ${d.containsInsensitive(key)})`, params: ['(none)', '%_'] });
      assert.deepEqual(checked(filterPredicate(d, { dimension: 'page', operator: 'is_not', value: '/a', values: ['/a'] })), { text: 'page <> ?', params: ['/a'] });
      assert.deepEqual(checked(filterPredicate(d, { dimension: 'event', operator: 'contains', value: 'Sign', values: ['Sign'] })), {
        text: `(name <> ? AND ${d.containsInsensitive('name')})`,
        params: ['(none)', 'Sign'],
      });
      const isNot = checked(filterPredicate(d, { dimension: 'prop.plan', operator: 'is_not', value: 'pro', values: ['pro'] }));
      assert.match(isNot.text, /^\(NOT name = 'engage' AND NOT \(.* IN \(\?, \?\)\)\)$/);
      assert.deepEqual(isNot.params.slice(-2), ['"pro"', 'pro']);
      const contains = checked(filterPredicate(d, { dimension: 'prop.plan', operator: 'contains', value: 'PR', values: ['PR'] }));
      assert.match(contains.text, /^\(NOT name = 'engage' AND .* <> '' AND /);
      assert.equal(contains.params.at(-1), 'PR');
      // Session rows hold `(none)` for an absent value: the same predicate over their column.
      const rows = checked(sessionRowsRelation(d, 's', DAYS, [{ dimension: 'referrer', operator: 'contains', value: 'goo', values: ['goo'] }]));
      assert.ok(rows.text.includes(`(referrer <> ? AND ${d.containsInsensitive('referrer')})`), rows.text);
      assert.deepEqual(rows.params.filter((p) => p !== 's'), ['(none)', 'goo']);
    });

    test('instantBounds: either bound, both, or neither', () => {
      assert.deepEqual(checked(instantBounds({ since: 5, until: 9 })), { text: 'AND ts >= ? AND ts < ?', params: [5, 9] });
      assert.deepEqual(checked(instantBounds({ until: 9 })), { text: 'AND ts < ?', params: [9] });
      assert.deepEqual(checked(instantBounds({})), { text: '', params: [] });
    });

    test('needsExit: a breakdown or a filter on the exit page', () => {
      assert.equal(needsExit([], 'exit'), true);
      assert.equal(needsExit([{ dimension: 'exit', value: '/a', values: ['/a'] }]), true);
      assert.equal(needsExit([{ dimension: 'page', value: '/a', values: ['/a'] }], 'page'), false);
    });

    test('integerLiteral takes ids we issued, and refuses anything else', () => {
      assert.equal(integerLiteral(42).text, '42');
      assert.throws(() => integerLiteral(1.5));
    });

    test('goal predicates: an event goal with its properties, a page goal matched as a pattern', () => {
      const goal = checked(goalPredicate(d, { goalId: 3, kind: 'event', pattern: 'Signup', props: { plan: 'pro' } }));
      assert.equal(goal.text, `name = ? AND ${checked(filterPredicate(d, { dimension: 'prop.plan', value: 'pro', values: ['pro'] })).text}`);
      assert.deepEqual(goal.params[0], 'Signup');
      assert.deepEqual(checked(matcherPredicate(d, { kind: 'page', pattern: '/blog/*' })), {
        text: `(name = 'pageview' AND ${d.regexMatches('page')})`,
        params: ['^/blog/[^/]*$'],
      });
      assert.deepEqual(checked(goalPredicate(d, { goalId: 4, kind: 'event', pattern: 'Buy' })), { text: 'name = ?', params: ['Buy'] });
    });
  });
}

test('sql/filters: the predicates run on DuckDB and select as they say', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    const rows = sql`(SELECT 'pageview' AS name, '/blog/x' AS page, NULL AS country, '{"plan":"pro"}' AS props, DATE '2026-03-01' AS day, 7 AS ts
      UNION ALL SELECT 'Signup', '/', 'FR', '{"plan":"pro"}', DATE '2026-03-03', 9) e`;
    const count = async (where: ReturnType<typeof sql>) => Number((await store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM ${rows} WHERE ${where}`))[0]!.n);
    assert.equal(await count(dayRange(d, 'day', DAYS)), 1);
    assert.equal(await count(filterPredicate(d, { dimension: 'country', value: '(none)', values: ['(none)'] })), 1);
    assert.equal(await count(filterPredicate(d, { dimension: 'page', value: '/blog/*', values: ['/blog/*'], pattern: true })), 1);
    assert.equal(await count(goalPredicate(d, { goalId: 1, kind: 'event', pattern: 'Signup', props: { plan: 'pro' } })), 1);
    assert.equal(await count(goalPredicate(d, { goalId: 1, kind: 'event', pattern: 'Signup', props: { plan: 'free' } })), 0);
    assert.equal(await count(sql`TRUE ${instantBounds({ since: 8 })}`), 1);
  });
});

test('sql/filters: is not and contains run on DuckDB: (none) included or left out, text taken literally and case-insensitively', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    const rows = sql`(SELECT * FROM (VALUES ('pageview', '/Blog/100%', NULL, '{"plan":"Pro"}'), ('pageview', '/blog/1000', 'FR', '{}'),
      ('Signup', '/x_y', 'DE', '{"plan":"free"}'), ('engage', '/blog/1000', 'FR', '{"plan":"Pro"}')) t(name, page, country, props)) e`;
    const pages = async (operator: Filter['operator'], dimension: Filter['dimension'], value: string) =>
      (await store.query<{ page: string }>(sql`SELECT page FROM ${rows} WHERE ${filterPredicate(d, { dimension, operator, value, values: [value] })} ORDER BY name, page`)).map((r) => r.page);
    assert.deepEqual(await pages('is_not', 'country', 'FR'), ['/x_y', '/Blog/100%']);
    assert.deepEqual(await pages('is_not', 'country', '(none)'), ['/x_y', '/blog/1000', '/blog/1000']);
    assert.deepEqual(await pages('contains', 'page', '100%'), ['/Blog/100%']);
    assert.deepEqual(await pages('contains', 'page', 'x_y'), ['/x_y']);
    assert.deepEqual(await pages('contains', 'page', '_'), ['/x_y']);
    assert.deepEqual(await pages('contains', 'page', 'BLOG/1'), ['/blog/1000', '/Blog/100%', '/blog/1000']);
    assert.deepEqual(await pages('contains', 'country', 'none'), []);
    assert.deepEqual(await pages('contains', 'country', 'r'), ['/blog/1000', '/blog/1000']);
    assert.deepEqual(await pages('is_not', 'prop.plan', 'Pro'), ['/x_y', '/blog/1000']);
    assert.deepEqual(await pages('is_not', 'prop.plan', '(none)'), ['/x_y', '/Blog/100%']);
    assert.deepEqual(await pages('contains', 'prop.plan', 'pR'), ['/Blog/100%']);
  });
});
