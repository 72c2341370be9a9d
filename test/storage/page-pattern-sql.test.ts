// The SQL twin of a page pattern (matcherPredicate, RE2 in DuckDB and ClickHouse) gives the answers of
// the JavaScript matcher (src/core/patterns.ts) on every EventStore adapter: the read API counts goals
// in SQL, while funnels and goal alert rules match in JavaScript, and all must agree.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compilePagePattern } from '../../src/core/patterns.js';
import { joinSql, sql } from '../../src/sql/sql.js';
import { matcherPredicate } from '../../src/stats/sql/goals.js';
import { EVENT_STORE_ADAPTERS as adapters } from '../helpers/event-stores.js';

// Characters where regular-expression dialects differ: line terminators (`.` in RE2 excludes only
// \n, in ClickHouse nothing), characters outside ASCII and outside the BMP, escapes.
const PATTERNS = ['/', '/blog/*', '/blog/**', '/**', '/*', '/***', '/**/*', '/*.pdf', '/a+b?', '/(x)|[y]', '/{1}$^\\', '/é/**', '/**a**a**b'];
const PATHS = ['/', '/blog/x', '/blog/x/y', '/blog/', '/a\nb', '/a\rb', '/a\u2028b', '/a\u2029b', '/a/\n', '/x.pdf', '/xpdf', '/a+b?', '/aab',
  '/(x)|[y]', '/x', '/{1}$^\\', '/é/🦆', '/aaab', '/a/a/b'];
const randomPatterns = fc.sample(fc.array(fc.constantFrom('a', 'b', '/', '.', '*', '*', '\n', '\u2028'), { maxLength: 8 }).map((cs) => `/${cs.join('')}`), { numRuns: 40, seed: 7 });
const randomPaths = fc.sample(fc.array(fc.constantFrom('a', 'b', '/', '.', '\n', '\r', '\u2028', '🦆'), { maxLength: 10 }).map((cs) => `/${cs.join('')}`), { numRuns: 40, seed: 11 });

for (const adapter of adapters) {
  describe(`page patterns in SQL: ${adapter.name}`, () => {
    test('the predicate answers as the JavaScript matcher', async () => {
      const store = await adapter.open();
      try {
        const paths = [...PATHS, ...randomPaths];
        const rows = joinSql(paths.map((page, i) => sql`SELECT ${i} AS i, 'pageview' AS name, ${page} AS page`), ' UNION ALL ');
        for (const pattern of [...PATTERNS, ...randomPatterns]) {
          const predicate = matcherPredicate(store.dialect, { kind: 'page', pattern });
          const answered = await store.query<{ i: number; m: number }>(sql`SELECT i, CASE WHEN ${predicate} THEN 1 ELSE 0 END AS m FROM (${rows}) t ORDER BY i`);
          const matches = compilePagePattern(pattern);
          assert.deepEqual(
            answered.map((r) => [paths[Number(r.i)], Number(r.m) === 1]),
            paths.map((p) => [p, matches(p)]),
            JSON.stringify(pattern),
          );
        }
      } finally {
        await store.close();
      }
    });
  });
}
