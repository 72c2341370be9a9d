// Amounts as svc keeps them: decimal text read exactly into whole cents, currencies upper-cased,
// cents written back as decimals with at most 2 digits, means rounded half up in integers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { majorUnits, MAX_AMOUNT_MAJOR, parseAmount, parseCurrency, parseRevenue } from '../../src/core/money.js';
import { meanHalfUp } from '../../src/stats/measures.js';

test('parseAmount reads the decimal text exactly, or refuses it', () => {
  const cases: Array<[unknown, number | null]> = [
    [19.99, 1999],
    ['19.99', 1999],
    [0.1, 10],
    ['0.5', 50],
    [5, 500],
    ['007', 700],
    [0, 0],
    [-0, 0],
    [MAX_AMOUNT_MAJOR + 0.99, 99_999_999_999_999],
    [0.1 + 0.2, null],
    [1.005, null],
    ['1.005', null],
    [-0.01, null],
    ['-1', null],
    ['+1', null],
    [NaN, null],
    [Infinity, null],
    [1e21, null],
    ['1e2', null],
    ['1.', null],
    ['.5', null],
    [' 1', null],
    ['1 ', null],
    ['', null],
    ['1'.repeat(13), null],
    ['1'.repeat(100_000), null],
    [true, null],
    [null, null],
    [{}, null],
    [10n, null],
  ];
  for (const [amount, minor] of cases) assert.equal(parseAmount(amount), minor, String(amount));
});

test('parseCurrency takes three letters, upper-cased', () => {
  for (const [code, parsed] of [['EUR', 'EUR'], ['usd', 'USD'], ['gBp', 'GBP'], ['EU', null], ['EURO', null], ['E1R', null], ['ÉUR', null], ['', null], [978, null]] as const) {
    assert.equal(parseCurrency(code), parsed, String(code));
  }
  assert.deepEqual(parseRevenue({ amount: '12.3', currency: 'chf' }), { minor: 1230, currency: 'CHF' });
  for (const bad of [null, 'EUR 5', [5, 'EUR'], { amount: 5 }, { currency: 'EUR' }, { amount: 5, currency: 'EURO' }]) assert.equal(parseRevenue(bad), null, JSON.stringify(bad));
});

test('cents are written as their decimal exactly: the JSON of every amount up to 1 000 000.00 has at most 2 decimals', () => {
  for (let minor = 0; minor <= 100_000_000; minor += minor < 100_000 ? 1 : 9973) {
    const text = JSON.stringify(majorUnits(minor));
    const expected = `${Math.floor(minor / 100)}${minor % 100 === 0 ? '' : `.${String(minor % 100).padStart(2, '0').replace(/0$/, '')}`}`;
    if (text !== expected) assert.equal(text, expected, `${minor} cents`);
  }
  assert.equal(JSON.stringify(majorUnits(10 + 20)), '0.3');
});

test('meanHalfUp rounds half up in integer arithmetic', () => {
  assert.equal(meanHalfUp(3, 2), 2);
  assert.equal(meanHalfUp(5, 2), 3);
  assert.equal(meanHalfUp(125, 2), 63);
  assert.equal(meanHalfUp(2099, 4), 525);
  assert.equal(meanHalfUp(1, 3), 0);
  assert.equal(meanHalfUp(2, 3), 1);
  assert.equal(meanHalfUp(0, 5), 0);
  assert.equal(meanHalfUp(Number.MAX_SAFE_INTEGER, 1), Number.MAX_SAFE_INTEGER);
});
