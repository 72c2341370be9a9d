// A file store is its file attached to an in-memory DuckDB instance with row groups of
// ROW_GROUP_ROWS rows: every connection reads and writes the file's tables, spills go beside the
// file, the rows are there again after a reopen, and a path with a quote in it is the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { fileLiteral, ROW_GROUP_ROWS } from '../../src/storage/events/duckdb-file.js';
import { sql } from '../../src/sql/sql.js';

test("a file store's rows are in its file, in row groups of ROW_GROUP_ROWS, with spills beside it, under a path holding a quote", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-duckdb-file-it's-"));
  const path = join(dir, 'events.duckdb');
  try {
    const store = await DuckDbEventStore.open({ path, readers: 2 });
    await store.query(sql`CREATE TABLE numbers AS SELECT range AS n FROM range(${ROW_GROUP_ROWS * 2 + 5})`);
    const [setting] = await store.query<{ temp: string; catalog: string }>(sql`SELECT current_setting('temp_directory') AS temp, current_database() AS catalog`);
    assert.deepEqual(setting, { temp: `${path}.tmp`, catalog: 'store' });
    const groups = await store.query<{ rows: bigint }>(sql`SELECT sum(count) AS rows FROM pragma_storage_info('numbers') WHERE segment_type <> 'VALIDITY' GROUP BY row_group_id ORDER BY row_group_id`);
    assert.deepEqual(groups.map((g) => Number(g.rows)), [ROW_GROUP_ROWS, ROW_GROUP_ROWS, 5]);
    await store.close();
    assert.ok(existsSync(path), 'the file is where the path says');

    const again = await DuckDbEventStore.open({ path, readers: 1 });
    assert.deepEqual(await again.query(sql`SELECT count(*) AS n FROM numbers`), [{ n: BigInt(ROW_GROUP_ROWS * 2 + 5) }]);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a path becomes a DuckDB literal with each quote doubled; a NUL is refused', () => {
  assert.equal(fileLiteral("/data/it's/events.duckdb"), "'/data/it''s/events.duckdb'");
  assert.equal(fileLiteral('C:\\data\\events.duckdb'), "'C:\\data\\events.duckdb'");
  assert.throws(() => fileLiteral('/data/\0/events.duckdb'), /NUL/);
});
