// Page patterns' limits (src/core/patterns.ts), checked where goals and funnel steps are defined; how a
// pattern matches is the engines' (test/storage/page-pattern-sql.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pagePatternIsLiteral, pagePatternProblem } from '../../src/core/patterns.js';

describe('page patterns', () => {
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

  test('a pattern without wildcards is literal', () => {
    assert.deepEqual(['/blog', '/blog/*', '/**', '/a.b'].map(pagePatternIsLiteral), [true, false, false, true]);
  });
});
