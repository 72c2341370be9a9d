// Page patterns (src/core/patterns.ts): the same answers as the regular expression they used to run
// as (the oracle below, kept only here), time linear in the path for any pattern, the semantics of
// `*` and `**` as a table, and the SQL twin agreeing with the JavaScript matcher on every engine.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileMatcher, compilePagePattern, PAGE_PATTERN_LIMITS, pagePatternProblem, pagePatternRegex } from '../../src/core/patterns.js';

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

// Small alphabets make wildcards, literals and separators collide often; line terminators and a
// surrogate pair are characters `**` and `*` treat differently, or that span two UTF-16 units.
const PATTERN_CHARS = ['a', 'b', '/', '.', '*', '*', '-', '\n', '+', '?'];
const PATH_CHARS = ['a', 'b', '/', '.', '-', '\n', '\r', '\u2028', '\u2029', '+', '?', '🦆'];
const stringOf = (chars: string[], maxLength: number) => fc.array(fc.constantFrom(...chars), { maxLength }).map((cs) => cs.join(''));

/** Paths the pattern nearly describes: each wildcard replaced by a few random characters. */
const pathsLike = (pattern: string) =>
  fc.array(stringOf(PATH_CHARS, 3), { minLength: 17, maxLength: 17 }).map((fills) => pattern.replace(/\*\*?/g, () => fills.pop()!));

describe('page patterns', () => {
  test('the same answers as the regular expression, on random patterns and paths', () => {
    const patterns = stringOf(PATTERN_CHARS, 10).map((body) => `/${body}`);
    const cases = patterns.chain((pattern) =>
      fc.tuple(fc.constant(pattern), fc.array(fc.oneof(stringOf(PATH_CHARS, 14), stringOf(PATH_CHARS, 14).map((p) => `/${p}`), pathsLike(pattern)), { minLength: 1, maxLength: 8 })),
    );
    fc.assert(
      fc.property(cases, ([pattern, paths]) => {
        const matches = compilePagePattern(pattern);
        const expected = oracle(pattern);
        for (const path of paths) assert.equal(matches(path), expected(path), `${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
      }),
      { numRuns: 5000 },
    );
  });

  test('semantics of * and **, literals and special characters', () => {
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
      assert.equal(compilePagePattern(pattern)(path), expected, `${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
      assert.equal(oracle(pattern)(path), expected, `oracle: ${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
    }
  });

  test('a goal or step matches pageviews by page, events by exact name', () => {
    const page = compileMatcher({ kind: 'page', pattern: '/buy/**' });
    assert.equal(page('pageview', '/buy/now'), true);
    assert.equal(page('signup', '/buy/now'), false, 'only pageviews match a page pattern');
    const event = compileMatcher({ kind: 'event', pattern: 'signup' });
    assert.equal(event('signup', '/anything'), true);
    assert.equal(event('signup_done', '/'), false);
  });

  test('one compiled matcher answers path after path, long and short', () => {
    const matches = compilePagePattern('/**/x');
    const long = `/${'a/'.repeat(1000)}x`;
    assert.deepEqual([matches(long), matches('/a/x'), matches(long.slice(0, -1)), matches('/x')], [true, true, false, false]);
  });

  // A security regression guard (a fixed generous ceiling, not a speed target): each of these takes
  // the backtracking regular expression seconds at 100 characters and forever at 2 048.
  test('worst patterns against 2 048-character paths: at most 5 ms per match', () => {
    const CEILING_MS = 5;
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
    let worst = 0;
    for (const [pattern, ...endingInB] of patterns) {
      assert.equal(pagePatternProblem(pattern), null, `${pattern} is accepted`);
      const matches = compilePagePattern(pattern);
      const expected = [false, false, false, false, ...endingInB];
      for (const [i, path] of paths.entries()) {
        assert.equal(path.length, 2048);
        // The best of a few runs: a pause of the machine is no slower matcher.
        let perMatch = Infinity;
        for (let run = 0; run < 5; run++) {
          const started = performance.now();
          assert.equal(matches(path), expected[i], `${pattern} on path ${i}`);
          perMatch = Math.min(perMatch, performance.now() - started);
        }
        worst = Math.max(worst, perMatch);
        assert.ok(perMatch < CEILING_MS, `${pattern} on path ${i}: ${perMatch.toFixed(3)} ms per match`);
      }
    }
    console.log(`# worst ${worst.toFixed(3)} ms per match`);
  });

  test('limits: a page pattern starts with /, has at most 512 characters and 16 wildcards', () => {
    assert.equal(pagePatternProblem(`/${'*/'.repeat(16)}`), null);
    assert.equal(pagePatternProblem(`/${'x'.repeat(511)}`), null);
    assert.deepEqual(pagePatternProblem('pricing'), { rule: 'start' });
    assert.deepEqual(pagePatternProblem(`/${'x'.repeat(512)}`), { rule: 'length' });
    assert.deepEqual(pagePatternProblem(`/${'*/'.repeat(17)}`), { rule: 'wildcards', wildcards: 17 });
    assert.deepEqual(pagePatternProblem(`/${'**/'.repeat(17)}`), { rule: 'wildcards', wildcards: 17 });
    assert.equal(pagePatternProblem(`/${'*'.repeat(32)}`), null, '`**` is one wildcard');
    assert.deepEqual(pagePatternProblem(`/${'*'.repeat(33)}`), { rule: 'wildcards', wildcards: 17 });
  });
});
