// DuckDB's pool while imports run: lowered to the import limit when the first starts, set back when
// the last ends, whether it succeeded or failed; without an import limit, left as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { sql } from '../../src/sql/sql.js';

const limitOf = async (store: DuckDbEventStore) => (await store.query<{ limit: string }>(sql`SELECT current_setting('memory_limit') AS "limit"`))[0]!.limit;

/** A work that reads the limit once started, then waits to be let go. */
function heldImport(store: DuckDbEventStore) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let seen!: (limit: string) => void;
  const started = new Promise<string>((r) => (seen = r));
  const done = store.whileImporting(async () => {
    seen(await limitOf(store));
    await released;
    return 'answer';
  });
  return { started, release, done };
}

/** A store of `memoryLimit` with `importMemoryLimit` for imports, closed after `body`. */
async function withStore(memoryLimit: string, importMemoryLimit: string | undefined, body: (store: DuckDbEventStore) => Promise<void>): Promise<void> {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1, memoryLimit, ...(importMemoryLimit ? { importMemoryLimit } : {}) });
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

test('the pool is at the import limit while imports overlap, and back once the last ends', async () => {
  await withStore('224MiB', '112MiB', async (store) => {
    assert.equal(await limitOf(store), '224.0 MiB');
    const first = heldImport(store);
    assert.equal(await first.started, '112.0 MiB');
    const second = heldImport(store);
    assert.equal(await second.started, '112.0 MiB');
    first.release();
    assert.equal(await first.done, 'answer');
    assert.equal(await limitOf(store), '112.0 MiB', 'another import still runs');
    second.release();
    await second.done;
    assert.equal(await limitOf(store), '224.0 MiB');
  });
});

test('imports started in one tick both run at the import limit; one started while the limit is set back runs at it too', async () => {
  await withStore('224MiB', '112MiB', async (store) => {
    const [a, b] = [heldImport(store), heldImport(store)];
    assert.deepEqual(await Promise.all([a.started, b.started]), ['112.0 MiB', '112.0 MiB']);
    a.release();
    b.release();
    await Promise.all([a.done, b.done]);
    assert.equal(await limitOf(store), '224.0 MiB');
    // The next import starts once the first's work is done, while its limit is being set back.
    let next: ReturnType<typeof heldImport> | undefined;
    const first = store.whileImporting(async () => {
      setImmediate(() => (next = heldImport(store)));
    });
    await first;
    assert.ok(next, 'started before the first import returned');
    assert.equal(await next.started, '112.0 MiB');
    next.release();
    await next.done;
    assert.equal(await limitOf(store), '224.0 MiB');
  });
});

test('an import that ends after the store closed answers what its work answered', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1, memoryLimit: '224MiB', importMemoryLimit: '112MiB' });
  const held = heldImport(store);
  assert.equal(await held.started, '112.0 MiB');
  await store.close();
  held.release();
  assert.equal(await held.done, 'answer');
});

test('a failing import sets the pool back and fails with its own error', async () => {
  await withStore('200MiB', '120MiB', async (store) => {
    await assert.rejects(
      store.whileImporting(async () => {
        assert.equal(await limitOf(store), '120.0 MiB');
        throw new Error('the import failed');
      }),
      /the import failed/,
    );
    assert.equal(await limitOf(store), '200.0 MiB');
  });
});

test('without an import limit, or with one equal to the limit, the pool is left as it is; a limit not written as configuration writes it is refused', async () => {
  for (const importMemoryLimit of [undefined, '200MiB']) {
    await withStore('200MiB', importMemoryLimit, async (store) => assert.equal(await store.whileImporting(async () => limitOf(store)), '200.0 MiB'));
  }
  await assert.rejects(DuckDbEventStore.open({ path: ':memory:', readers: 1, memoryLimit: '200MiB', importMemoryLimit: "1MB'; DROP TABLE events; --" }), /not a memory limit/);
});
