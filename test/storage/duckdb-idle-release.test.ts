// DuckDB's idle release: at an idle check, once statements ran since the last release and none was
// asked since the check before, the write-ahead log is checkpointed (while imports roll up, commits
// leave it to IMPORT_CHECKPOINT_THRESHOLD) and the blocks its pool cached for reads are given back,
// the pool's limit set back as it was; statements asked meanwhile wait for it, and a running
// statement, an open bulk write or an import's lowered pool hold it off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore, type DuckDbEventStoreOptions } from '../../src/storage/events/duckdb.js';
import { IMPORT_CHECKPOINT_THRESHOLD } from '../../src/storage/events/duckdb-settings.js';
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

/** Two idle checks in a row: the first sees the statements asked since the last, the second a quiet interval. */
async function idleChecks(store: DuckDbEventStore): Promise<void> {
  await store.releaseIdleMemory();
  await store.releaseIdleMemory();
}

/** The write-ahead log's size in bytes (DuckDB tells it as text: '0 bytes', '4.7 KiB', '38.0 MiB'). */
async function walBytes(store: DuckDbEventStore): Promise<number> {
  const text = (await store.query<{ wal: string }>(sql`SELECT wal_size AS wal FROM pragma_database_size() WHERE database_name = current_database()`))[0]!.wal;
  const [, figure, unit] = /^([\d.]+) (bytes|KiB|MiB|GiB)$/.exec(text)!;
  return Number(figure) * { bytes: 1, KiB: 1024, MiB: MB, GiB: 1024 * MB }[unit as 'bytes' | 'KiB' | 'MiB' | 'GiB'];
}

const readBig = async (store: DuckDbEventStore) => Number((await store.query<{ n: unknown }>(sql`SELECT count(DISTINCT t) AS n FROM big`))[0]!.n);

test("the blocks reads cached are given back, and the pool's limit is the configured one again", async () => {
  await withFileStore({ memoryLimit: '224MiB' }, async (store) => {
    assert.equal(await readBig(store), 2_000_000);
    const cached = await cachedTableBytes(store);
    assert.ok(cached > 8 * MB, `the read cached ${cached} bytes`);
    await store.releaseIdleMemory();
    await readBig(store);
    await store.releaseIdleMemory();
    assert.ok((await cachedTableBytes(store)) > 8 * MB, 'a statement asked since the check before: kept');
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
    await idleChecks(store);
    assert.equal(await cachedTableBytes(store), cached);
    assert.equal(await limitOf(store), limit);
  });
});

test('a read asked while the pool is released waits for its limit to be back; a read running holds the release off', async () => {
  await withFileStore({ memoryLimit: '224MiB' }, async (store) => {
    await readBig(store);
    // Reads asked one after the other while the release runs: each sees the limit back (at 16 MiB a
    // read of the table fails for want of memory).
    await store.releaseIdleMemory();
    let released = false;
    const release = store.releaseIdleMemory().then(() => (released = true));
    const seen = new Set<string>();
    while (!released) seen.add(await limitOf(store));
    await release;
    assert.deepEqual([...seen], ['224.0 MiB']);
    assert.equal(await readBig(store), 2_000_000);
    const running = readBig(store);
    await new Promise((done) => setImmediate(done));
    await idleChecks(store);
    assert.equal(await running, 2_000_000);
    assert.ok((await cachedTableBytes(store)) > 8 * MB, 'not released under a running read');
  });
});

test('while an import holds the pool at its limit, or a bulk write is open, an idle release leaves the pool as it is', async () => {
  await withFileStore({ memoryLimit: '224MiB', importMemoryLimit: '112MiB' }, async (store) => {
    await readBig(store);
    await store.whileImporting(async () => {
      await idleChecks(store);
      assert.equal(await limitOf(store), '112.0 MiB');
    });
    assert.equal(await limitOf(store), '224.0 MiB');
    await readBig(store);
    const bulk = await store.beginBulk();
    await idleChecks(store);
    assert.ok((await cachedTableBytes(store)) > 8 * MB, 'not released while a bulk write is open');
    await bulk.rollback();
  });
});

test(`while an import rolls up, commits leave the write-ahead log to ${IMPORT_CHECKPOINT_THRESHOLD}; DuckDB's 16 MiB otherwise, and an idle release checkpoints it`, async () => {
  for (const options of [{ memoryLimit: '224MiB', importMemoryLimit: '112MiB' }, {}]) {
    await withFileStore(options, async (store) => {
      await store.query(sql`CREATE TABLE logged (n BIGINT, t VARCHAR)`);
      // Inserts smaller than a row group (ROW_GROUP_ROWS) go through the log (larger ones are written to the file).
      const logMillion = async () => {
        for (let i = 0; i < 100; i++) await store.query(sql`INSERT INTO logged SELECT range, 'row ' || range || ' of a text long enough' FROM range(10000)`);
      };
      const logged = await store.whileImporting(async () => {
        await logMillion();
        return walBytes(store);
      });
      assert.ok(logged > 24 * MB && logged < 64 * MB, `the log holds ${logged} bytes, past DuckDB's default threshold of 16 MiB`);
      await idleChecks(store);
      assert.equal(await walBytes(store), 0, 'checkpointed at the idle check');
      await logMillion();
      assert.ok((await walBytes(store)) < 20 * MB, 'checkpointed by commits past 16 MiB once no import rolls up');
      assert.equal(Number((await store.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM logged`))[0]!.n), 2_000_000);
    });
  }
});
