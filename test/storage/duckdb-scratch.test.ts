// DuckDB keeps a temporary table's deleted rows in memory until the table goes: a scratch table
// (the rollups' session parts, a cap's kept keys) emptied by a clear is made anew, so that rollup
// after rollup it holds no more than the rows in use; one still holding another scope's rows stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { countTable } from '../helpers/table-specs.js';
import { sql } from '../../src/sql/sql.js';

const SCRATCH = countTable('parts_scratch', { scratch: true });

test('a scratch table emptied by a clear gives its memory back; one holding other rows keeps them', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:' });
  try {
    await store.createTables([SCRATCH]);
    const scope = (siteId: string) => ({ siteId, days: { from: '2026-01-01', to: '2026-01-01' } });
    const fill = (siteId: string, rows: number) => store.replaceRows(SCRATCH, scope(siteId), sql`SELECT ${siteId}, DATE '2026-01-01', range FROM range(${rows})`);
    const tableMb = async () => {
      const [row] = await store.query<{ b: bigint | null }>(sql`SELECT sum(memory_usage_bytes) AS b FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`);
      return Number(row?.b ?? 0n) / 2 ** 20;
    };
    for (let round = 0; round < 3; round++) {
      await fill('a', 1_000_000);
      assert.ok((await tableMb()) > 4, 'the rows take memory while in use');
      await store.replaceRows(SCRATCH, scope('a'), null);
      assert.ok((await tableMb()) < 1, `round ${round}: ${(await tableMb()).toFixed(1)} MiB held after the clear`);
    }
    await fill('a', 10);
    await fill('b', 20);
    await store.replaceRows(SCRATCH, scope('a'), null);
    // Read through a table of its own: a scratch table is the writer connection's.
    const copy = countTable('parts_copy');
    await store.createTables([copy]);
    await store.replaceRows(copy, { siteId: 'b', days: { from: null, to: '2026-12-31' } }, sql`SELECT * FROM parts_scratch`);
    await store.replaceRows(copy, { siteId: 'a', days: { from: null, to: '2026-12-31' } }, sql`SELECT * FROM parts_scratch`);
    assert.deepEqual(await store.query(sql`SELECT site_id, count(*) AS n FROM parts_copy GROUP BY site_id`), [{ site_id: 'b', n: 20n }]);
  } finally {
    await store.close();
  }
});
