// A Plausible import writes its rows within the event store's import scope (`whileImporting`),
// where DuckDB's pool is lowered for it: every write of the import runs inside, none after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPlausible } from '../../src/imports/plausible-import.js';
import { createRollupTables } from '../../src/stats/rollups/job.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { StoreSwitch } from '../helpers/switched-event-store.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

test('a Plausible import stages and writes its rows inside the store\'s import scope', async () => {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1, memoryLimit: '224MiB', importMemoryLimit: '112MiB' });
  const dir = await mkdtemp(join(tmpdir(), 'svc-plausible-scope-'));
  try {
    await createRollupTables(store);
    const delegate = new StoreSwitch().wrap(store);
    let scopes = 0;
    const writes = { inside: 0, outside: 0 };
    const counted = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => (...args: A) => {
      writes[scopes > 0 ? 'inside' : 'outside']++;
      return write(...args);
    };
    const events: EventStore = {
      ...delegate,
      appendRows: counted(delegate.appendRows),
      replaceTogether: counted(delegate.replaceTogether),
      replaceRows: counted(delegate.replaceRows),
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
    assert.ok(writes.inside > 0, 'the import wrote its rows');
    assert.equal(writes.outside, 0);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
