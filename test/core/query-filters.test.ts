// Filter texts as the read API parses them (docs/api.md, Filters): each operator, the errors of bad
// input, one filter per dimension whatever its operator, and shared-link locks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/core/errors.js';
import { parseFilters, parseLockedFilters, parseQuery } from '../../src/core/query.js';
import { CONTAINS_TEXT_LENGTH, filterParam, filterValues, joinFilterValues, splitFilterParam } from '../../src/core/vocabulary.js';

const NOW = Date.UTC(2026, 2, 20, 12);

test('filter texts: dimension, operator and value', () => {
  const cases: Array<[string, { dimension: string; operator?: string; value: string; values?: string[] }]> = [
    ['page:/a', { dimension: 'page', value: '/a' }],
    ['page!:/a', { dimension: 'page', operator: 'is_not', value: '/a' }],
    ['page~:blog', { dimension: 'page', operator: 'contains', value: 'blog' }],
    ['page:/a:b', { dimension: 'page', value: '/a:b' }],
    ['page:!:x', { dimension: 'page', value: '!:x' }],
    ['referrer!:(none)', { dimension: 'referrer', operator: 'is_not', value: '(none)' }],
    ['country~:%_', { dimension: 'country', operator: 'contains', value: '%_' }],
    ['prop.plan!:pro', { dimension: 'prop.plan', operator: 'is_not', value: 'pro' }],
    ['prop.plan~:PR', { dimension: 'prop.plan', operator: 'contains', value: 'PR' }],
    ['prop.a!!:x', { dimension: 'prop.a!', operator: 'is_not', value: 'x' }],
    ['event~:~', { dimension: 'event', operator: 'contains', value: '~' }],
    // Several values (or), `\|` a literal `|`, `\\` a literal `\`, a `\` before anything else itself.
    ['country:DE|AT', { dimension: 'country', value: 'DE|AT', values: ['DE', 'AT'] }],
    ['page!:/a|/b|(none)', { dimension: 'page', operator: 'is_not', value: '/a|/b|(none)', values: ['/a', '/b', '(none)'] }],
    ['referrer~:google|bing', { dimension: 'referrer', operator: 'contains', value: 'google|bing', values: ['google', 'bing'] }],
    ['page:/a\\|b', { dimension: 'page', value: '/a\\|b', values: ['/a|b'] }],
    ['page:/a\\\\|/b', { dimension: 'page', value: '/a\\\\|/b', values: ['/a\\', '/b'] }],
    ['page:/a\\b', { dimension: 'page', value: '/a\\b', values: ['/a\\b'] }],
    ['prop.plan:pro|free', { dimension: 'prop.plan', value: 'pro|free', values: ['pro', 'free'] }],
  ];
  for (const [text, { values, ...expected }] of cases) {
    assert.deepEqual(parseFilters([text]), [{ ...expected, values: values ?? [expected.value] }], text);
    if (values) assert.deepEqual(filterValues(joinFilterValues(values)), values, `${text}: the values written back and read again`);
    // The parts name `is` too; a filter leaves it out (one spelling for each filter).
    assert.deepEqual(splitFilterParam(text), { dimension: expected.dimension, operator: expected.operator ?? 'is', value: expected.value }, text);
    assert.equal(filterParam(parseFilters([text])[0]!), text, `${text} written back`);
  }
});

test('filter texts: what is refused, and why', () => {
  const long = 'x'.repeat(CONTAINS_TEXT_LENGTH.max + 1);
  const cases: Array<[string[], RegExp]> = [
    [['page~:'], /filter page has an empty value/],
    [['country:DE|'], /filter country has an empty value/],
    [['country:|'], /filter country has an empty value/],
    [['page!:/a||/b'], /filter page has an empty value/],
    [[`country:${Array.from({ length: 21 }, (_, i) => `C${i}`).join('|')}`], /filter country lists more than 20 values$/],
    [[`page~:a|${long}`], /filter page value is too long \(at most 256 characters\)/],
    [['country:DE|AT', 'country!:FR'], /filter country is given twice/],
    [['page!:'], /filter page has an empty value/],
    [['page'], /filter page has an empty value/],
    [['nope!:x'], /unknown filter dimension/],
    [['!:x'], /unknown filter dimension/],
    [['prop.!:x'], /property key/],
    [[`page~:${long}`], /filter page value is too long \(at most 256 characters\)/],
    [['page:/a', 'page!:/b'], /filter page is given twice/],
    [['country~:F', 'country:FR'], /filter country is given twice/],
    [['prop.plan~:p', 'prop.plan!:free'], /filter prop.plan is given twice/],
    // Bounds on the statement a request makes: property keys are dimensions of their own, so the count is what holds.
    [Array.from({ length: 17 }, (_, i) => `prop.k${i}:v`), /^at most 16 filters are taken at once$/],
    [Array.from({ length: 3 }, (_, i) => `prop.k${i}~:${Array.from({ length: 14 }, (_, j) => `v${j}`).join('|')}`), /^the filters list more than 40 values together$/],
  ];
  for (const [texts, message] of cases) {
    assert.throws(
      () => parseFilters(texts),
      (err: unknown) => err instanceof ApiError && err.code === 'INVALID_PARAMS' && message.test(err.message),
      texts.join(' '),
    );
  }
  // At the bounds: 16 filters, 40 values in all.
  assert.equal(parseFilters(Array.from({ length: 16 }, (_, i) => `prop.k${i}:v`)).length, 16);
  assert.equal(parseFilters([`prop.a~:${Array.from({ length: 20 }, (_, j) => `v${j}`).join('|')}`, `prop.b~:${Array.from({ length: 20 }, (_, j) => `v${j}`).join('|')}`]).length, 2);
  // A contains text of the longest length is taken; an `is` value may be longer.
  assert.equal(parseFilters([`page~:${'x'.repeat(CONTAINS_TEXT_LENGTH.max)}`]).length, 1);
  assert.equal(parseFilters([`page:/${long}`]).length, 1);
});

test('shared-link locks: a page pattern under is only; the request gives way on a locked dimension whatever its operator', () => {
  assert.deepEqual(parseLockedFilters(['page:/blog/**']), [{ dimension: 'page', value: '/blog/**', values: ['/blog/**'], pattern: true }]);
  assert.deepEqual(parseLockedFilters(['page!:/blog/**']), [{ dimension: 'page', operator: 'is_not', value: '/blog/**', values: ['/blog/**'] }]);
  assert.deepEqual(parseLockedFilters(['page~:*']), [{ dimension: 'page', operator: 'contains', value: '*', values: ['*'] }]);
  // Several values: patterns each checked by the goals' rules, any of them matching.
  assert.deepEqual(parseLockedFilters(['page:/docs|/blog/**']), [{ dimension: 'page', value: '/docs|/blog/**', values: ['/docs', '/blog/**'], pattern: true }]);
  assert.deepEqual(parseLockedFilters(['country:DE|AT']), [{ dimension: 'country', value: 'DE|AT', values: ['DE', 'AT'] }]);
  assert.throws(() => parseLockedFilters(['page:/docs|blog*']), (err: unknown) => err instanceof ApiError && err.code === 'INVALID_PARAMS');
  const site = { id: 's', timezone: 'UTC' };
  const q = parseQuery('stats', { filter: ['country~:F', 'device!:mobile'] }, site, NOW, ['country!:US|FR']);
  assert.deepEqual(q.filters, [
    { dimension: 'device', operator: 'is_not', value: 'mobile', values: ['mobile'] },
    { dimension: 'country', operator: 'is_not', value: 'US|FR', values: ['US', 'FR'] },
  ]);
  assert.equal(q.pageLock, null);
  // Under a lock on `page`, the request's own entry and exit filters compare the pages as the lock shows them; the lock itself is kept as it is.
  const locked = parseQuery('stats', { filter: ['exit:/a', 'entry!:/b', 'country:DE'] }, site, NOW, ['page:/blog/**', 'entry:/c']);
  const lock = { dimension: 'page', value: '/blog/**', values: ['/blog/**'], pattern: true };
  assert.deepEqual(locked.pageLock, lock);
  assert.deepEqual(locked.filters, [
    { dimension: 'exit', value: '/a', values: ['/a'], pageLock: lock },
    { dimension: 'country', value: 'DE', values: ['DE'] },
    lock,
    { dimension: 'entry', value: '/c', values: ['/c'] },
  ]);
});
