// Page patterns as the engines match them (matcherPredicate: RE2 in DuckDB and ClickHouse, the only
// matcher there is): the answers of the reference semantics (a backtracking regular expression, run
// only here on short paths), the semantics of `*` and `**` as a table, and the worst patterns the
// limits admit against 2 048-character paths, on every EventStore adapter.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PAGE_PATTERN_LIMITS, pagePatternProblem } from '../../src/core/patterns.js';
import { joinSql, sql } from '../../src/sql/sql.js';
import { matcherPredicate } from '../../src/stats/sql/filters.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { EVENT_STORE_ADAPTERS as adapters } from '../helpers/event-stores.js';

/**
 * The matcher as a backtracking JavaScript RegExp: the reference semantics. Exponential on some
 * patterns (the reason it is gone from src/), so only ever run here on short inputs.
 */
function oracle(pattern: string): (path: string) => boolean {
  let source = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') {
      source += '[^/]*';
    } else {
      source += /[.+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
    }
  }
  const regex = new RegExp(`${source}$`);
  return (path) => regex.test(path);
}

// Characters where regular-expression dialects differ: line terminators (`.` in RE2 excludes only
// \n, in ClickHouse nothing), characters outside ASCII and outside the BMP, escapes.
const PATTERNS = ['/', '/blog/*', '/blog/**', '/**', '/*', '/***', '/**/*', '/*.pdf', '/a+b?', '/(x)|[y]', '/{1}$^\\', '/é/**', '/**a**a**b'];
const PATHS = ['/', '/blog/x', '/blog/x/y', '/blog/', '/a\nb', '/a\rb', '/a\u2028b', '/a\u2029b', '/a/\n', '/x.pdf', '/xpdf', '/a+b?', '/aab',
  '/(x)|[y]', '/x', '/{1}$^\\', '/é/🦆', '/aaab', '/a/a/b'];
// Small alphabets make wildcards, literals and separators collide often; line terminators and a
// surrogate pair are characters `**` and `*` treat differently, or that span two UTF-16 units.
const PATTERN_CHARS = ['a', 'b', '/', '.', '*', '*', '-', '\n', '\u2028', '+', '?'];
const PATH_CHARS = ['a', 'b', '/', '.', '-', '\n', '\r', '\u2028', '\u2029', '+', '?', '🦆'];
const stringOf = (chars: string[], maxLength: number) => fc.array(fc.constantFrom(...chars), { maxLength }).map((cs) => cs.join(''));
const randomPatterns = fc.sample(stringOf(PATTERN_CHARS, 10).map((body) => `/${body}`), { numRuns: 40, seed: 7 });
const randomPaths = fc.sample(fc.oneof(stringOf(PATH_CHARS, 14), stringOf(PATH_CHARS, 14).map((p) => `/${p}`)), { numRuns: 60, seed: 11 });
/** Paths the pattern nearly describes: each wildcard replaced by a few random characters. */
const pathsLike = (pattern: string, seed: number) =>
  fc.sample(fc.array(stringOf(PATH_CHARS, 3), { minLength: 17, maxLength: 17 }).map((fills) => pattern.replace(/\*\*?/g, () => fills.pop()!)), { numRuns: 4, seed });

/** Whether each path matches the pattern, as the engine answers. */
async function engineMatches(store: EventStore, pattern: string, paths: readonly string[]): Promise<boolean[]> {
  const rows = joinSql(paths.map((page, i) => sql`SELECT ${i} AS i, 'pageview' AS name, ${page} AS page`), ' UNION ALL ');
  const predicate = matcherPredicate(store.dialect, { kind: 'page', pattern });
  const answered = await store.query<{ i: number; m: number }>(sql`SELECT i, CASE WHEN ${predicate} THEN 1 ELSE 0 END AS m FROM (${rows}) t ORDER BY i`);
  return answered.map((r) => Number(r.m) === 1);
}

for (const adapter of adapters) {
  describe(`page patterns in SQL: ${adapter.name}`, () => {
    test('the predicate answers as the reference semantics, on chosen and random patterns and paths', async () => {
      const store = await adapter.open();
      try {
        for (const [n, pattern] of [...PATTERNS, ...randomPatterns].entries()) {
          const paths = [...PATHS, ...randomPaths, ...pathsLike(pattern, n)];
          const expected = oracle(pattern);
          assert.deepEqual(
            (await engineMatches(store, pattern, paths)).map((m, i) => [paths[i], m]),
            paths.map((p) => [p, expected(p)]),
            JSON.stringify(pattern),
          );
        }
      } finally {
        await store.close();
      }
    });

    test('semantics of * and **, literals and special characters; only pageviews match a page pattern', async () => {
      const store = await adapter.open();
      try {
        const cases: Array<[pattern: string, path: string, matches: boolean]> = [
          ['/', '/', true],
          ['/', '/x', false],
          ['/blog', '/blog', true],
          ['/blog', '/blog/', false],
          ['/blog', '/Blog', false],
          ['/blog/*', '/blog/x', true],
          ['/blog/*', '/blog/', true],
          ['/blog/*', '/blog/x/y', false],
          ['/blog/*', '/blog', false],
          ['/blog/**', '/blog/', true],
          ['/blog/**', '/blog/x/y/z', true],
          ['/blog/**', '/blog', false],
          ['/blog/**', '/blogs/x', false],
          ['/blog*', '/blogs', true],
          ['/blog*', '/blog/x', false],
          ['/*/edit', '/42/edit', true],
          ['/*/edit', '/a/b/edit', false],
          ['/**/edit', '/a/b/edit', true],
          ['/**/edit', '/edit', false],
          ['/shop/*/item-*', '/shop/shoes/item-42', true],
          ['/shop/*/item-*', '/shop/shoes/x/item-42', false],
          ['/**.pdf', '/docs/a/b.pdf', true],
          ['/**.pdf', '/docs/a/bxpdf', false], // `.` is a literal dot
          ['/a+b', '/a+b', true],
          ['/a+b', '/aab', false],
          ['/a?', '/a?', true],
          ['/a?', '/a', false],
          ['/(x)', '/(x)', true],
          ['/[ab]', '/[ab]', true],
          ['/[ab]', '/a', false],
          ['/{2}$^|\\', '/{2}$^|\\', true],
          ['/é/*', '/é/🦆', true],
          ['/***', '/a/b', true], // `**` then `*`
          ['/**a**a**a**a**b', '/aaaab', true],
          ['/**a**a**a**a**b', '/aaaaa', false],
          // `**` takes no line terminator, `*` takes them (the regular expression's `.` and `[^/]`).
          ['/**', '/a\nb', false],
          ['/**', '/a\rb', false],
          ['/**', '/a\u2028b', false],
          ['/**', '/a\u2029b', false],
          ['/*', '/a\nb', true],
          ['/**/*', '/a/\n', true],
        ];
        for (const [pattern, path, expected] of cases) {
          assert.deepEqual(await engineMatches(store, pattern, [path]), [expected], `${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
          assert.equal(oracle(pattern)(path), expected, `oracle: ${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
        }
        const event = matcherPredicate(store.dialect, { kind: 'page', pattern: '/buy/**' });
        const [row] = await store.query<{ m: number }>(sql`SELECT CASE WHEN ${event} THEN 1 ELSE 0 END AS m FROM (SELECT 'signup' AS name, '/buy/now' AS page) t`);
        assert.equal(Number(row!.m), 0);
      } finally {
        await store.close();
      }
    });

    test('the worst patterns the limits admit, against 2 048-character paths', async () => {
      const store = await adapter.open();
      try {
        const wildcards = PAGE_PATTERN_LIMITS.maxWildcards;
        // [pattern, matches /aaa…ab, matches /a/a/…/a/b]; every pattern misses the other paths.
        const patterns: Array<[string, boolean, boolean]> = [
          ['/**a**a**a**a**b', true, true],
          [`/${'**a'.repeat(wildcards - 1)}**b`, true, true],
          [`/${'*a'.repeat(wildcards - 1)}*b`, true, false],
          [`/${'***a'.repeat(wildcards / 2 - 1)}**b`, true, true],
          [`/${'**/'.repeat(wildcards - 1)}**b`, false, true],
          [`/${'*/'.repeat(wildcards - 1)}*b`, false, false],
          [`/**${'a'.repeat(240)}**${'a'.repeat(240)}b`, true, false],
          [`/${'**ab'.repeat(wildcards - 1)}**c`, false, false],
        ];
        const fill = (unit: string) => `/${unit.repeat(2048)}`.slice(0, 2048);
        const endInB = (path: string) => `${path.slice(0, -1)}b`;
        const paths = [fill('a'), fill('a/'), fill('ab'), fill('/'), endInB(fill('a')), endInB(fill('a/'))];
        for (const [pattern, ...endingInB] of patterns) {
          assert.equal(pagePatternProblem(pattern), null, `${pattern} is accepted`);
          assert.deepEqual(await engineMatches(store, pattern, paths), [false, false, false, false, ...endingInB], pattern);
        }
      } finally {
        await store.close();
      }
    });
  });
}
