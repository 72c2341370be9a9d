// DuckDB's idle release: the blocks its pool cached for reads are given back once statements ran
// since the last release, the pool's limit set back as it was; an import's lowered pool is left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore, type DuckDbEventStoreOptions } from '../../src/storage/events/duckdb.js';
import { sql } from '../../src/sql/sql.js';

const MB = 1024 * 1024;
const limitOf = async (store: DuckDbEventStore) => (await store.query<{ limit: string }>(sql`SELECT current_setting('memory_limit') AS "limit"`))[0]!.limit;
/** The bytes of stored tables' blocks the pool holds. */
const cachedTableBytes = async (store: DuckDbEventStore) =>
  Number((await store.query<{ bytes: unknown }>(sql`SELECT coalesce(sum(memory_usage_bytes), 0) AS bytes FROM duckdb_memory() WHERE tag = 'BASE_TABLE'`))[0]!.bytes);

/** A store in a file (an in-memory one cannot evict its blocks) holding a table of about 30 MB, closed after `body`. */
async function withFileStore(options: Omit<DuckDbEventStoreOptions, 'path'>, body: (store: DuckDbEventStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-idle-release-'));
  const warnings: string[] = [];
  const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1, ...options, warn: (err, message) => warnings.push(`${message}: ${String(err)}`) });
  try {
    await store.query(sql`CREATE TABLE big AS SELECT range AS n, 'row ' || range AS t FROM range(2000000)`);
    await store.query(sql`CHECKPOINT`);
    await body(store);
    assert.deepEqual(warnings, [], 'every change of the limit taken');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const readBig = async (store: DuckDbEventStore) => Number((await store.query<{ n: unknown }>(sql`SELECT count(DISTINCT t) AS n FROM big`))[0]!.n);

test("the blocks reads cached are given back, and the pool's limit is the configured one again", async () => {
  await withFileStore({ memoryLimit: '224MiB' }, async (store) => {
    assert.equal(await readBig(store), 2_000_000);
    const cached = await cachedTableBytes(store);
    assert.ok(cached > 8 * MB, `the read cached ${cached} bytes`);
    await store.releaseIdleMemory();
    assert.ok((await cachedTableBytes(store)) < 16 * MB, 'given back down to the limit of the moment');
    assert.equal(await limitOf(store), '224.0 MiB');
    assert.equal(await readBig(store), 2_000_000, 'read again from the file');
    assert.ok((await cachedTableBytes(store)) > 8 * MB);
  });
});

test("a store without a configured limit leaves its pool to DuckDB", async () => {
  await withFileStore({}, async (store) => {
    const limit = await limitOf(store);
    await readBig(store);
    const cached = await cachedTableBytes(store);
    await store.releaseIdleMemory();
    assert.equal(await cachedTableBytes(store), cached);
    assert.equal(await limitOf(store), limit);
  });
});

test('while an import holds the pool at its limit, an idle release leaves it there', async () => {
  await withFileStore({ memoryLimit: '224MiB', importMemoryLimit: '112MiB' }, async (store) => {
    await readBig(store);
    await store.whileImporting(async () => {
      await store.releaseIdleMemory();
      assert.equal(await limitOf(store), '112.0 MiB');
    });
    assert.equal(await limitOf(store), '224.0 MiB');
  });
});
