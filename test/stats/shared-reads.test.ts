// Identical read statements asked at once run once (src/stats/shared-reads.ts), on a real DuckDB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from '../../src/sql/sql.js';
import { sharingReads } from '../../src/stats/shared-reads.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventReader } from '../../src/storage/events/types.js';

test('a statement asked while the same one runs takes its answer; asked after, or with other parameters, it runs again', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 2 });
  try {
    const ran: string[] = [];
    const counted: EventReader = {
      dialect: store.dialect,
      query: (statement, options) => {
        ran.push(`rows ${statement.params[0]}`);
        return store.query(statement, options);
      },
      queryPage: (statement, options) => {
        ran.push(`page ${statement.params[0]}`);
        return store.queryPage(statement, options);
      },
    };
    const reader = sharingReads(counted);
    const square = (n: number) => sql`SELECT CAST(${n} AS INTEGER) * CAST(${n} AS INTEGER) AS v`;
    const together = await Promise.all([reader.query(square(3)), reader.query(square(3)), reader.query(square(4)), reader.queryPage(square(3))]);
    assert.deepEqual(together.slice(0, 3), [[{ v: 9 }], [{ v: 9 }], [{ v: 16 }]]);
    assert.deepEqual(together[3]!.rows, [{ v: 9 }]);
    assert.deepEqual(ran, ['rows 3', 'rows 4', 'page 3']);
    assert.deepEqual(await reader.query(square(3)), [{ v: 9 }]);
    assert.deepEqual(ran, ['rows 3', 'rows 4', 'page 3', 'rows 3']);
    // A bigint and a text spelling its digits are other parameters.
    const echo = (v: bigint | string) => sql`SELECT CAST(${v} AS VARCHAR) || '' AS v`;
    const mixed = await Promise.all([reader.query(echo(5n)), reader.query(echo('5n')), reader.query(echo('{"bigint":"5"}'))]);
    assert.deepEqual(mixed, [[{ v: '5' }], [{ v: '5n' }], [{ v: '{"bigint":"5"}' }]]);
    assert.equal(ran.length, 7);
    // A failure reaches every caller that shared the statement, and the next ask runs it anew.
    const failing = sql`SELECT * FROM no_such_table WHERE x = ${1}`;
    const failures = await Promise.allSettled([reader.query(failing), reader.query(failing)]);
    assert.deepEqual(failures.map((f) => f.status), ['rejected', 'rejected']);
    await assert.rejects(reader.query(failing), /no_such_table/);
    assert.equal(ran.filter((r) => r === 'rows 1').length, 2);
  } finally {
    await store.close();
  }
});
