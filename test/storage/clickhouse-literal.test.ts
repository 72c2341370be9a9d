// The ClickHouse literal function (src/storage/events/clickhouse-literal.ts), fuzzed against a real
// server: every value comes back exactly as it went in, and nothing in a value ends its literal.
// fast-check runs with a fixed seed: a failure is reproducible.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ClickHouseEventStore } from '../../src/storage/events/clickhouse.js';
import { clickhouseLiteral, inlineParams } from '../../src/storage/events/clickhouse-literal.js';
import { joinSql, sql, withParams, type SqlValue } from '../../src/sql/sql.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';

const SEED = 20261122;

/** Strings built to break out of a literal: quotes, backslashes (also last), escapes, NUL, SQL. */
const hostile = fc.oneof(
  // Any code point (no lone surrogates: they have no UTF-8 form, and are refused, see below).
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.constantFrom("'", '\\', '"', '`', '?', '\0', '\n', '\r', '\t', '\x1b', '\x7f', '\\x27', "\\'", "''", '--', '/*', '*/', ';', ' OR 1=1', '🦆', 'é', '\u2028', '%s'), { maxLength: 30 }).map((parts) => parts.join('')),
);

describe('ClickHouse literals', () => {
  let store: ClickHouseEventStore;
  before(async () => {
    store = await ClickHouseEventStore.open({ url: await freshDatabaseUrl() });
  });
  after(() => store.close());

  /** The values selected back, one column each, through the store's own query path. */
  async function selectBack(values: readonly unknown[], wrap = (c: string) => c): Promise<Record<string, unknown>> {
    const parts = values.map((v, i) => withParams(`${wrap('?')} AS c${i}`, v as SqlValue));
    const rows = await store.query(sql`SELECT ${joinSql(parts, ', ')}, 'end' AS sentinel`);
    assert.equal(rows.length, 1);
    assert.deepEqual(Object.keys(rows[0]!), [...values.map((_, i) => `c${i}`), 'sentinel'], 'a value ended its literal');
    assert.equal(rows[0]!.sentinel, 'end');
    return rows[0]!;
  }

  test('hostile strings round-trip exactly through a real server', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 20 }), async (strings) => {
        const row = await selectBack(strings);
        strings.forEach((s, i) => assert.equal(row[`c${i}`], s));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  test('integers of 64 bits, numbers and booleans round-trip; what has no literal is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { minLength: 1, maxLength: 20 }), async (ints) => {
        const row = await selectBack(ints, (p) => `toString(${p})`);
        ints.forEach((n, i) => assert.equal(row[`c${i}`], n.toString()));
      }),
      { seed: SEED, numRuns: 50 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => x === 0 || Math.abs(x) >= 2.2250738585072014e-308), fc.integer(), fc.maxSafeInteger()), { minLength: 1, maxLength: 20 }), async (numbers) => {
        const row = await selectBack(numbers, (p) => `toFloat64(${p})`);
        numbers.forEach((n, i) => assert.ok(Object.is(Number(row[`c${i}`]), n === 0 ? 0 : n) || Number(row[`c${i}`]) === n, `${n} came back as ${row[`c${i}`]}`));
      }),
      { seed: SEED, numRuns: 50 },
    );
    const row = await selectBack([true, false, null]);
    assert.deepEqual([row.c0, row.c1, row.c2], [1, 0, null]);
    // A negative value after a minus of the text stays a value (not `--`, a comment).
    assert.deepEqual(await store.query(sql`SELECT 1-${-5} AS a, 1-${-5n} AS b`), [{ a: 6, b: 6 }]);
    for (const bad of [NaN, Infinity, -Infinity, 5e-324, 2n ** 63n, -(2n ** 63n) - 1n, 'a\uD800b', '\uDC00']) assert.throws(() => clickhouseLiteral(bad));
  });

  test('a ? inside a quoted string, identifier or comment of the text is not a placeholder', async () => {
    const query = sql`SELECT '?' AS "a?", ${'x'} AS b, 'it''s ?' AS c, '\\'?' AS d -- ?
      , /* ? */ ${"y'"} AS e`;
    assert.match(inlineParams(query), /'\?' AS "a\?", 'x' AS b, 'it''s \?' AS c, '\\'\?' AS d -- \?\n\s+, \/\* \? \*\/ 'y\\'' AS e/);
    assert.deepEqual(await store.query(query), [{ 'a?': '?', b: 'x', c: "it's ?", d: "'?", e: "y'" }]);
    assert.throws(() => inlineParams(sql`SELECT ${1}, ?`), /placeholders/);
    assert.throws(() => inlineParams(sql`SELECT '?`), /unterminated/);
  });
});
