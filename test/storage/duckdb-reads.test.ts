// DuckDB's read connections. Each keeps the last statements with parameters it ran prepared: a
// statement asked again binds its new parameters and runs, and answers as if it were prepared anew:
// after rows were appended (also rows its tables' statistics ruled out when it was prepared), after
// the statements it keeps were pushed out by others, after a failed run, a timeout, and a column
// added to its table. Rows come back as `getRowObjectsJS` gives them. A read goes to the connection
// with the fewest statements queued.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DuckDbEventStore, PREPARED_PER_READER } from '../../src/storage/events/duckdb.js';
import { StatementTimeout } from '../../src/storage/events/types.js';
import { countTable } from '../helpers/table-specs.js';
import { sql, trusted } from '../../src/sql/sql.js';
import { event } from '../../support/events.js';

const DAY = Date.UTC(2026, 5, 1);

/** A store of one read connection (every statement meets the same kept ones), with `counts[site]` events of each site. */
async function storeWith(counts: Record<string, number>): Promise<DuckDbEventStore> {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  await store.append(Object.entries(counts).flatMap(([siteId, n]) => Array.from({ length: n }, (_, i) => event({ siteId, ts: DAY + i }))));
  return store;
}

const countOf = (store: DuckDbEventStore, siteId: string) => store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${siteId}`);

/** Counts the statements DuckDB prepares while `run` runs. */
async function preparesDuring(run: () => Promise<void>): Promise<number> {
  const prepare = DuckDBConnection.prototype.prepare;
  let prepared = 0;
  DuckDBConnection.prototype.prepare = function (this: DuckDBConnection, text: string) {
    prepared++;
    return prepare.call(this, text);
  };
  try {
    await run();
  } finally {
    DuckDBConnection.prototype.prepare = prepare;
  }
  return prepared;
}

test('a kept statement answers each call with its own parameters, and sees rows appended since it was prepared', async () => {
  const store = await storeWith({ a: 3, b: 5 });
  try {
    const prepared = await preparesDuring(async () => {
      for (let round = 0; round < 3; round++) {
        assert.deepEqual(await countOf(store, 'a'), [{ n: 3n + BigInt(round) }]);
        assert.deepEqual(await countOf(store, 'b'), [{ n: 5n }]);
        assert.deepEqual(await countOf(store, 'none'), [{ n: 0n }]);
        await store.append([event({ siteId: 'a', ts: DAY + 100 + round })]);
      }
    });
    assert.equal(prepared, 1, 'one text, prepared once');
  } finally {
    await store.close();
  }
});

test("rows that the tables' statistics ruled out when a statement was prepared are read once appended", async () => {
  const store = await storeWith({ a: 2 });
  try {
    // Every event is on DAY's date: a later day's literal is outside the stored days' range.
    const nextDay = trusted("DATE '2026-06-02'");
    const withParameters = () => store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${'a'} AND day = ${nextDay}`);
    const withoutParameters = () => store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE day = ${nextDay}`);
    const later = () => store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${'a'} AND ts > ${DAY + 86_400_000}`);
    for (const read of [withParameters, withoutParameters, later]) assert.deepEqual(await read(), [{ n: 0n }]);
    await store.append([event({ siteId: 'a', ts: DAY + 86_400_000 + 3_600_000 })]);
    for (const read of [withParameters, withoutParameters, later]) assert.deepEqual(await read(), [{ n: 1n }]);
  } finally {
    await store.close();
  }
});

test(`the last ${PREPARED_PER_READER} statements are kept; one pushed out is prepared anew and answers the same`, async () => {
  const store = await storeWith({ a: 7 });
  try {
    const ask = async (i: number) => {
      const rows = await store.query<{ k: number; n: bigint }>(sql`SELECT ${trusted(String(i))} AS k, count(*) + ${i} AS n FROM events WHERE site_id = ${'a'}`);
      assert.deepEqual(rows, [{ k: i, n: 7n + BigInt(i) }], `statement ${i}`);
    };
    const all = Array.from({ length: PREPARED_PER_READER }, (_, i) => i);
    assert.equal(await preparesDuring(async () => { for (const i of [...all, ...all]) await ask(i); }), PREPARED_PER_READER, 'each prepared once');
    // One more pushes out the least recently asked (0), which is prepared again when asked.
    assert.equal(await preparesDuring(async () => { await ask(PREPARED_PER_READER); await ask(1); }), 1);
    assert.equal(await preparesDuring(() => ask(0)), 1);
    // Many more than it keeps, asked in turn: each is prepared every time, and answers the same.
    const many = Array.from({ length: PREPARED_PER_READER * 2 + 5 }, (_, i) => 1000 + i);
    assert.equal(await preparesDuring(async () => { for (const i of [...many, ...many]) await ask(i); }), many.length * 2);
  } finally {
    await store.close();
  }
});

test('a statement whose run failed or ran past its deadline answers its next call', { timeout: 30_000 }, async () => {
  const store = await storeWith({ a: 2 });
  try {
    const cast = (value: string) => store.query<{ v: number }>(sql`SELECT CAST(${value} AS INTEGER) AS v`);
    assert.deepEqual(await cast('5'), [{ v: 5 }]);
    await assert.rejects(cast('not a number'), /Conversion Error/);
    assert.deepEqual(await cast('6'), [{ v: 6 }]);

    const crossCount = (n: number, deadlineMs?: number) =>
      store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM range(${n}) x, range(${n}) y WHERE x.range + y.range >= 0`, deadlineMs === undefined ? {} : { deadlineMs });
    assert.deepEqual(await crossCount(3), [{ n: 9n }]);
    await assert.rejects(crossCount(1_000_000_000, 50), StatementTimeout);
    assert.deepEqual(await crossCount(4), [{ n: 16n }]);
    assert.deepEqual(await countOf(store, 'a'), [{ n: 2n }]);
  } finally {
    await store.close();
  }
});

test('a kept statement reads the columns a later spec added to its table', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  try {
    const spec = countTable('kept_reads');
    await store.createTables([spec]);
    await store.replaceRows(spec, { siteId: 's', days: { from: '2026-06-01', to: '2026-06-01' } }, sql`SELECT 's', DATE '2026-06-01', 1`);
    const everything = () => store.query(sql`SELECT * FROM kept_reads WHERE site_id = ${'s'}`);
    const day = new Date('2026-06-01T00:00:00Z');
    assert.deepEqual(await everything(), [{ site_id: 's', day, n: 1n }]);
    await store.createTables([{ ...spec, columns: [...spec.columns, { name: 'm', type: 'BIGINT', nullable: false }] }]);
    assert.deepEqual(await everything(), [{ site_id: 's', day, n: 1n, m: 0n }]);
  } finally {
    await store.close();
  }
});

test('rows come back as getRowObjectsJS gives them: several chunks, every type the reads use, repeated names, none', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  const reference = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    const cases: Array<[string, Array<string | number>]> = [
      [
        `SELECT range AS i, CAST(range AS INTEGER) AS small, range * 1.5 AS x, 'k' || range AS k, range % 2 = 0 AS even,
           DATE '2026-01-01' + CAST(range % 400 AS INTEGER) AS day, CASE WHEN range % 3 = 0 THEN NULL ELSE range END AS maybe,
           [range, range + 1] AS pair FROM range(?) ORDER BY i`,
        [5000],
      ],
      ['SELECT ? AS n, 2 AS n, 3 AS n', [1]],
      ['SELECT range AS i FROM range(10) WHERE range > ?', [100]],
      ['SELECT 1 AS n, 2 AS n', []],
    ];
    for (const [text, params] of cases) {
      const expected = (await reference.runAndReadAll(text, params.length > 0 ? params : undefined)).getRowObjectsJS();
      assert.deepEqual(await store.query({ text, params }), expected, text);
    }
  } finally {
    reference.closeSync();
    await store.close();
  }
});

test('a short read goes to a connection with nothing to do, not behind a long read', { timeout: 30_000 }, async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 2 });
  try {
    const finished: string[] = [];
    // Seconds of work on one connection, cut short by its deadline once the short reads are in.
    const long = store
      .query(sql`SELECT count(*) AS n FROM range(${40_000}) x, range(${40_000}) y WHERE (x.range * y.range) % 7 = 3`, { deadlineMs: 1_000 })
      .then(
        () => finished.push('long'),
        (err: unknown) => finished.push(err instanceof StatementTimeout ? 'long (cancelled)' : String(err)),
      );
    // Each short read is asked once the one before has answered: in turn, the second would go to the busy connection.
    for (const name of ['first', 'second', 'third']) {
      await store.query(sql`SELECT ${name} AS name`);
      finished.push(name);
    }
    assert.deepEqual(finished, ['first', 'second', 'third']);
    await long;
    assert.deepEqual(finished, ['first', 'second', 'third', 'long (cancelled)']);
  } finally {
    await store.close();
  }
});
