// A Plausible import rewrites the imported tables from its staged rows within the event store's
// import scope (`whileImporting`), where DuckDB's pool is lowered for it; it stages them outside
// (their appends run on the event loop, where a pool under pressure would spill).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPlausible } from '../../src/imports/plausible-import.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { StoreSwitch } from '../helpers/switched-event-store.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

test('a Plausible import stages its rows outside the store\'s import scope and writes them inside', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1, memoryLimit: '224MiB', importMemoryLimit: '112MiB' });
  const dir = await mkdtemp(join(tmpdir(), 'svc-plausible-scope-'));
  try {
    await createRollupTables(store);
    const delegate = new StoreSwitch().wrap(store);
    let scopes = 0;
    const staged = { inside: 0, outside: 0 };
    const written = { inside: 0, outside: 0 };
    const counted = <A extends unknown[], R>(write: (...args: A) => Promise<R>, counts: typeof staged) => (...args: A) => {
      counts[scopes > 0 ? 'inside' : 'outside']++;
      return write(...args);
    };
    const events: EventStore = {
      ...delegate,
      appendRows: counted(delegate.appendRows, staged),
      replaceTogether: counted(delegate.replaceTogether, written),
      whileImporting: async (work) => {
        scopes++;
        try {
          return await delegate.whileImporting(work);
        } finally {
          scopes--;
        }
      },
    };
    const path = join(dir, 'export.zip');
    await writeFile(path, await zipOf(plausibleExport(['2025-03-01', '2025-03-02'])));
    const report = await importPlausible(events, { siteId: 'psite', importId: 'i1' }, path, 'export.zip');
    assert.ok(report.rows > 0);
    assert.deepEqual(staged.inside, 0);
    assert.ok(staged.outside > 0, 'the import staged its rows');
    assert.deepEqual(written, { inside: 1, outside: 0 });
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
