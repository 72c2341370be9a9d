// Closing the DuckDB store while a bulk write (an import) is between two steps of an append: the
// step under way finishes on its connection, the write rolls back, and the file holds none of its
// rows when opened again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { sql } from '../../src/sql/sql.js';
import { event } from '../../support/events.js';

test('a bulk write open at close is rolled back after the step under way, its later calls refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bulk-close-'));
  try {
    const path = join(dir, 'events.duckdb');
    const store = await DuckDbEventStore.open({ path, readers: 1 });
    const rows = Array.from({ length: 5000 }, (_, i) => event({ siteId: 's', ts: Date.UTC(2026, 5, 1) + i }));
    const bulk = await store.beginBulk();
    await bulk.append(rows.slice(0, 1000));
    // Closing starts while the next append is between two of its steps.
    const appending = bulk.append(rows.slice(1000));
    await new Promise((resolve) => setImmediate(resolve));
    await store.close();
    await appending;
    await assert.rejects(bulk.append(rows.slice(0, 10)), /ended/);
    await assert.rejects(bulk.commit(), /ended/);
    await bulk.rollback();
    const again = await DuckDbEventStore.open({ path, readers: 1 });
    assert.deepEqual(await again.query(sql`SELECT count(*) AS n FROM events`), [{ n: 0n }]);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
