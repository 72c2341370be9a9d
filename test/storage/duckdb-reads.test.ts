// DuckDB's read connections. Each keeps the statements it ran lately prepared: a statement asked
// again binds its new parameters and runs, and answers as if it were prepared anew, after writes,
// after the last statements it keeps were pushed out by others, after a failed run, a timeout, and a
// column added to its table. A read goes to the connection with the fewest statements queued.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDbEventStore, PREPARED_PER_READER } from '../../src/storage/events/duckdb.js';
import { StatementTimeout, type TableSpec } from '../../src/storage/events/types.js';
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

test('a kept statement answers each call with its own parameters, and sees rows appended since it was prepared', async () => {
  const store = await storeWith({ a: 3, b: 5 });
  try {
    for (let round = 0; round < 3; round++) {
      assert.deepEqual(await countOf(store, 'a'), [{ n: 3n + BigInt(round) }]);
      assert.deepEqual(await countOf(store, 'b'), [{ n: 5n }]);
      assert.deepEqual(await countOf(store, 'none'), [{ n: 0n }]);
      await store.append([event({ siteId: 'a', ts: DAY + 100 + round })]);
    }
  } finally {
    await store.close();
  }
});

test('statements pushed out by more than the connection keeps are prepared anew and answer the same', async () => {
  const store = await storeWith({ a: 7 });
  try {
    const texts = PREPARED_PER_READER * 2 + 5;
    for (let round = 0; round < 2; round++) {
      // Each text its own statement; every round asks each one after all the others pushed it out.
      for (let i = 0; i < texts; i++) {
        const rows = await store.query<{ k: number; n: bigint }>(sql`SELECT ${trusted(String(i))} AS k, count(*) + ${i} AS n FROM events WHERE site_id = ${'a'}`);
        assert.deepEqual(rows, [{ k: i, n: 7n + BigInt(i) }], `round ${round}, statement ${i}`);
      }
    }
  } finally {
    await store.close();
  }
});

test('a statement whose run failed or ran past its deadline answers its next call', async () => {
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
    const spec: TableSpec = {
      name: 'kept_reads',
      columns: [
        { name: 'site_id', type: 'VARCHAR', nullable: false },
        { name: 'day', type: 'DATE', nullable: false },
        { name: 'n', type: 'BIGINT', nullable: false },
      ],
      dayColumn: 'day',
      key: ['n'],
    };
    await store.createTables([spec]);
    const scope = { siteId: 's', days: { from: '2026-06-01', to: '2026-06-01' } };
    await store.replaceRows(spec, scope, sql`SELECT 's', DATE '2026-06-01', 1`);
    const everything = () => store.query(sql`SELECT * FROM kept_reads WHERE site_id = ${'s'}`);
    assert.deepEqual(await everything(), [{ site_id: 's', day: '2026-06-01', n: 1n }].map(withDate));
    await store.createTables([{ ...spec, columns: [...spec.columns, { name: 'm', type: 'BIGINT', nullable: false }] }]);
    assert.deepEqual(await everything(), [{ site_id: 's', day: '2026-06-01', n: 1n, m: 0n }].map(withDate));
  } finally {
    await store.close();
  }
});

/** A row as DuckDB hands a DATE back to JavaScript. */
function withDate<T extends { day: string }>(row: T): Omit<T, 'day'> & { day: Date } {
  return { ...row, day: new Date(`${row.day}T00:00:00Z`) };
}

test('a short read goes to a connection with nothing to do, not behind a long read', async () => {
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
    const short = async (name: string) => {
      await store.query(sql`SELECT ${name} AS name`);
      finished.push(name);
    };
    // Each short read is asked once the one before has answered: the second round-robin pick is the busy connection.
    for (const name of ['first', 'second', 'third']) await short(name);
    await long;
    assert.deepEqual(finished, ['first', 'second', 'third', 'long (cancelled)']);
  } finally {
    await store.close();
  }
});
