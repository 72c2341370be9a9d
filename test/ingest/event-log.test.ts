// The event log on its own and under the write buffer, over a real DuckDB store: accepted events are
// on disk within the sync period and come back after a crash, a batch's segment goes once the store
// has it, a torn last record is left out, and a batch replayed after the store took it is not
// stored twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_LOG_PREFIX, EventLog } from '../../src/ingest/event-log.js';
import { WriteBuffer } from '../../src/ingest/write-buffer.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { sql } from '../../src/sql/sql.js';
import { storedEvent as event } from '../helpers/stored-event.js';

const SYNC_MS = 20;
const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => event(from + i));
const segmentPath = (dir: string, n: number) => join(dir, `${EVENT_LOG_PREFIX}${n}`);
/** Recovered batches without their ids, which are checked to be drawn apart (UUIDs, each its own). */
function withoutIds(batches: ReadonlyArray<{ segment: number; id: string; rows: StoredEvent[] }>) {
  for (const { id } of batches) assert.match(id, /^[0-9a-f-]{36}$/);
  assert.equal(new Set(batches.map((b) => b.id)).size, batches.length);
  return batches.map(({ segment, rows }) => ({ segment, rows }));
}
const segments = (dir: string) => readdirSync(dir).filter((name) => name.startsWith(EVENT_LOG_PREFIX)).sort();

/** Waits (at most 10 s: a loaded machine) until `done` holds. */
async function until(what: string, done: () => boolean): Promise<void> {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() - started > 10_000) assert.fail(`never: ${what}`);
  }
}

/** Waits until segment `n` holds `bytes` more than `before`. */
const grown = (dir: string, n: number, before = 0) => until(`segment ${n} grows`, () => existsSync(segmentPath(dir, n)) && statSync(segmentPath(dir, n)).size > before);

function withDir(run: (dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-event-log-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

async function storedPages(store: EventStore): Promise<string[]> {
  const rows = await store.query<{ page: string }>(sql`SELECT page FROM events ORDER BY ts`);
  return rows.map((r) => r.page);
}

test(
  'added events are on disk after the sync period without a flush; a crash gives them back as one batch, in order, every field exact',
  withDir(async (dir) => {
    const log = EventLog.open(dir, { syncMs: SYNC_MS });
    assert.deepEqual(log.recovered, []);
    for (const e of events(0, 5)) log.add(e);
    await grown(dir, 1);
    // The process dies here: nothing closes the log.
    const reopened = EventLog.open(dir, { syncMs: SYNC_MS });
    assert.deepEqual(withoutIds(reopened.recovered), [{ segment: 1, rows: events(0, 5) }]);
    assert.equal(EventLog.open(dir, { syncMs: SYNC_MS }).recovered[0]!.id, reopened.recovered[0]!.id, 'the batch keeps its id across starts');
  }),
);

test(
  'a stored batch\'s segment is deleted; after a crash only the events not yet stored come back, and a graceful stop leaves no segment',
  withDir(async (dir) => {
    const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1 });
    try {
      const log = EventLog.open(dir, { syncMs: SYNC_MS });
      const buffer = new WriteBuffer(store, { log });
      for (const e of events(0, 3)) buffer.add(e);
      await buffer.flush();
      for (const e of events(3, 2)) buffer.add(e);
      await grown(dir, 2);
      await until('the stored batch\'s segment is deleted', () => !existsSync(segmentPath(dir, 1)));
      assert.deepEqual(segments(dir), [`${EVENT_LOG_PREFIX}2`]);

      const afterCrash = EventLog.open(dir, { syncMs: SYNC_MS });
      assert.deepEqual(withoutIds(afterCrash.recovered), [{ segment: 2, rows: events(3, 2) }]);
      const restarted = new WriteBuffer(store, { log: afterCrash });
      assert.equal(restarted.size, 2, 'the recovered events wait in the buffer');
      restarted.add(event(5));
      await restarted.drain();
      assert.deepEqual(await storedPages(store), events(0, 6).map((e) => e.page));
      assert.deepEqual(segments(dir), []);
    } finally {
      await store.close();
    }
  }),
);

test(
  'a torn last record is left out and reported; the whole records before it come back; bytes past the last whole record are ignored',
  withDir(async (dir) => {
    const log = EventLog.open(dir, { syncMs: SYNC_MS });
    for (const e of events(0, 3)) log.add(e);
    await grown(dir, 1);
    const firstRecord = statSync(segmentPath(dir, 1)).size;
    for (const e of events(3, 2)) log.add(e);
    await grown(dir, 1, firstRecord);
    const whole = statSync(segmentPath(dir, 1)).size;

    truncateSync(segmentPath(dir, 1), whole - 7); // the crash cut the second record's write short
    const torn: number[] = [];
    assert.deepEqual(withoutIds(EventLog.open(dir, { syncMs: SYNC_MS }, (bytes) => torn.push(bytes)).recovered), [{ segment: 1, rows: events(0, 3) }]);
    assert.deepEqual(torn, [whole - 7 - firstRecord]);

    truncateSync(segmentPath(dir, 1), firstRecord);
    appendFileSync(segmentPath(dir, 1), Buffer.from([0, 0, 0, 4, 1, 2, 3, 4, 9, 9, 9, 9])); // a header whose checksum does not match
    torn.length = 0;
    assert.deepEqual(withoutIds(EventLog.open(dir, { syncMs: SYNC_MS }, (bytes) => torn.push(bytes)).recovered), [{ segment: 1, rows: events(0, 3) }]);
    assert.deepEqual(torn, [12]);
  }),
);

test(
  'a crash after the store took a batch and before its segment was deleted: the next start stores the batch once, and the events after it',
  withDir(async (dir) => {
    const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1 });
    try {
      // The store commits, then the process dies before the answer comes back (the append never settles for the buffer).
      const dying = {
        async append(rows: readonly StoredEvent[], batchId?: string) {
          await store.append(rows, batchId);
          return new Promise<void>(() => undefined);
        },
      } as unknown as EventStore;
      const log = EventLog.open(dir, { syncMs: SYNC_MS });
      const buffer = new WriteBuffer(dying, { log });
      for (const e of events(0, 4)) buffer.add(e);
      void buffer.flush();
      while ((await storedPages(store)).length < 4) await new Promise((r) => setTimeout(r, 5));
      for (const e of events(4, 3)) buffer.add(e);
      await grown(dir, 2);

      const afterCrash = EventLog.open(dir, { syncMs: SYNC_MS });
      assert.deepEqual(afterCrash.recovered.map((b) => b.rows.length), [4, 3]);
      const restarted = new WriteBuffer(store, { log: afterCrash });
      await restarted.drain();
      assert.deepEqual(await storedPages(store), events(0, 7).map((e) => e.page), 'each event stored once, in order');
      assert.deepEqual(segments(dir), []);
    } finally {
      await store.close();
    }
  }),
);

test(
  'a failed flush keeps its batch whole: the retry stores the same rows as one batch under its id, and later events as another',
  withDir(async (dir) => {
    const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1 });
    try {
      const appended: string[][] = [];
      const ids: Array<string | undefined> = [];
      let down = true;
      const flaky = {
        async append(rows: readonly StoredEvent[], batchId?: string) {
          appended.push(rows.map((r) => r.page));
          ids.push(batchId);
          if (down) throw new Error('disk full');
          return store.append(rows, batchId);
        },
      } as unknown as EventStore;
      const log = EventLog.open(dir, { syncMs: SYNC_MS });
      const buffer = new WriteBuffer(flaky, { log });
      for (const e of events(0, 2)) buffer.add(e);
      await assert.rejects(buffer.flush(), /disk full/);
      buffer.add(event(2));
      assert.equal(buffer.size, 3);
      down = false;
      await buffer.flush();
      assert.deepEqual(appended, [['/p/0', '/p/1'], ['/p/0', '/p/1'], ['/p/2']]);
      assert.ok(ids[0] !== undefined && ids[0] === ids[1] && ids[2] !== ids[0], 'the retry appends under the batch\'s id, the next batch under its own');
      await buffer.drain();
      assert.deepEqual(segments(dir), []);
    } finally {
      await store.close();
    }
  }),
);

test(
  'closing the log with events in no batch yet writes them and keeps them for the next start; an empty log leaves no file',
  withDir(async (dir) => {
    const log = EventLog.open(dir, { syncMs: 60_000 });
    for (const e of events(0, 2)) log.add(e);
    await log.close();
    const reopened = EventLog.open(dir, { syncMs: SYNC_MS });
    assert.deepEqual(withoutIds(reopened.recovered), [{ segment: 1, rows: events(0, 2) }]);
    reopened.release(1);
    await reopened.close();
    assert.deepEqual(segments(dir), []);
  }),
);
