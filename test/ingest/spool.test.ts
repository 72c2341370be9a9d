// The spool file on its own, and the write buffer over it with a store that fails on demand: batches
// come back whole and in order across reopening, a torn last record is dropped, replayed batches
// are not replayed again, memory stays bounded while the store is down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spool, SPOOL_FILE } from '../../src/ingest/spool.js';
import { WriteBuffer } from '../../src/ingest/write-buffer.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { storedEvent as event } from '../helpers/stored-event.js';
import type { EventStore } from '../../src/storage/events/types.js';

const batch = (id: string, from: number, count: number) => ({ id, rows: Array.from({ length: count }, (_, i) => event(from + i)) });

function withDir(run: (dir: string) => Promise<void> | void) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-spool-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'batches read back whole (bigints included), oldest first, across reopening; replayed ones do not come back; the file empties at the end',
  withDir((dir) => {
    const spool = Spool.open(dir);
    assert.ok(spool.empty);
    spool.append(batch('a', 0, 3));
    spool.append(batch('b', 3, 2));
    spool.append(batch('c', 5, 1));
    assert.deepEqual([spool.batches, spool.events], [3, 6]);
    assert.deepEqual(spool.oldest(), batch('a', 0, 3));
    spool.replayed('a');
    assert.throws(() => spool.replayed('c'), /not the oldest/);
    spool.close();

    const reopened = Spool.open(dir);
    assert.deepEqual([reopened.batches, reopened.events], [2, 3]);
    assert.deepEqual(reopened.oldest(), batch('b', 3, 2));
    reopened.replayed('b');
    assert.deepEqual(reopened.oldest(), batch('c', 5, 1));
    reopened.replayed('c');
    assert.ok(reopened.empty);
    assert.equal(reopened.oldest(), undefined);
    assert.equal(statSync(join(dir, SPOOL_FILE)).size, 0);
    reopened.close();
    assert.ok(Spool.open(dir).empty);
  }),
);

test(
  'a torn last record (cut short, or with a wrong checksum) is dropped and the next batch follows the last whole one',
  withDir((dir) => {
    const spool = Spool.open(dir);
    spool.append(batch('a', 0, 2));
    spool.append(batch('b', 2, 2));
    spool.close();
    const path = join(dir, SPOOL_FILE);
    const whole = readFileSync(path);
    const firstLength = 8 + whole.readUInt32BE(0);

    // Cut in the middle of the second record's payload.
    writeFileSync(path, whole.subarray(0, whole.length - 5));
    const torn: number[] = [];
    const cut = Spool.open(dir, (bytes) => torn.push(bytes));
    assert.deepEqual(torn, [whole.length - 5 - firstLength]);
    assert.deepEqual([cut.batches, cut.events], [1, 2]);
    assert.equal(statSync(path).size, firstLength);
    cut.append(batch('c', 4, 1));
    cut.close();
    const afterCut = Spool.open(dir);
    assert.deepEqual(afterCut.oldest(), batch('a', 0, 2));
    afterCut.replayed('a');
    assert.deepEqual(afterCut.oldest(), batch('c', 4, 1));
    afterCut.close();

    // A whole-length record whose bytes do not match its checksum, then a header cut short.
    const flipped = Buffer.from(whole);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 2) ^ 0x01, flipped.length - 2);
    writeFileSync(path, flipped);
    appendFileSync(path, Buffer.from([0, 0, 0]));
    const corrupt = Spool.open(dir, (bytes) => torn.push(bytes));
    assert.equal(torn.at(-1), whole.length + 3 - firstLength);
    assert.deepEqual(corrupt.oldest(), batch('a', 0, 2));
    assert.equal(corrupt.batches, 1);
    corrupt.close();
  }),
);

/** A store whose appends fail while `down` is set; it records what it stored. */
function switchedStore() {
  const stored: StoredEvent[] = [];
  const state = { down: true, attempts: 0 };
  const store = {
    async append(rows: readonly StoredEvent[]) {
      state.attempts++;
      if (state.down) throw new Error('store unreachable');
      stored.push(...rows);
    },
  } as unknown as EventStore;
  return { store, stored, state };
}

test(
  'with a spool, a refused batch and every later one go to disk in order; memory stays empty; a replay stores each once, in order',
  withDir(async (dir) => {
    const { store, stored, state } = switchedStore();
    const spool = Spool.open(dir);
    let now = 0;
    const buffer = new WriteBuffer(store, { spool, now: () => now, capacity: 10 });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 5; i++) assert.ok(buffer.add(event(round * 5 + i)), 'the buffer never fills: it empties into the spool');
      await buffer.flush();
      assert.equal(buffer.size, 0);
    }
    // The store was tried once; the later batches went behind the first without asking it.
    assert.equal(state.attempts, 1);
    assert.deepEqual([spool.batches, spool.events], [5, 25]);
    await assert.rejects(buffer.replayed(), /store unreachable/);
    state.down = false;
    now = 60_000;
    await buffer.replayed();
    assert.ok(spool.empty);
    assert.deepEqual(stored.map((e) => e.page), Array.from({ length: 25 }, (_, i) => `/p/${i}`));
    // The spool is empty: the next batch goes to the store directly.
    buffer.add(event(25));
    await buffer.flush();
    assert.equal(stored.at(-1)!.page, '/p/25');
    assert.ok(spool.empty);
    spool.close();
  }),
);

test(
  'a drain with the store down leaves what was buffered in the spool, and a buffer started on it replays it',
  withDir(async (dir) => {
    const { store, stored, state } = switchedStore();
    const first = Spool.open(dir);
    const stopping = new WriteBuffer(store, { spool: first });
    for (let i = 0; i < 3; i++) stopping.add(event(i));
    await stopping.drain();
    assert.equal(stored.length, 0);
    first.close();

    state.down = false;
    const second = Spool.open(dir);
    assert.equal(second.events, 3);
    const started = new WriteBuffer(store, { spool: second, intervalMs: 10 });
    started.start();
    // Events collected after the start go behind the spooled ones.
    started.add(event(3));
    await started.replayed();
    await started.drain();
    assert.deepEqual(stored.map((e) => e.page), ['/p/0', '/p/1', '/p/2', '/p/3']);
    assert.ok(second.empty);
    second.close();
  }),
);

test(
  'a stop while the store is slow to answer an append spools that batch first, then the rest: on disk whatever the store does, stored once when it answers',
  withDir(async (dir) => {
    const stored: StoredEvent[] = [];
    const answers: Array<() => void> = [];
    // Appends wait until the test answers them, then store.
    const slowStore = {
      append: (rows: readonly StoredEvent[]) =>
        new Promise<void>((resolve) =>
          answers.push(() => {
            stored.push(...rows);
            resolve();
          }),
        ),
    } as unknown as EventStore;
    const spool = Spool.open(dir);
    const buffer = new WriteBuffer(slowStore, { spool });
    for (let i = 0; i < 3; i++) buffer.add(event(i));
    const flushing = buffer.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answers.length, 1, 'the first batch is on its way to the store');
    for (let i = 3; i < 5; i++) buffer.add(event(i));
    const draining = buffer.drain();
    await new Promise((resolve) => setImmediate(resolve));

    // What a process killed at this point (the stop deadline passed) leaves on disk: both batches, in order.
    const onDisk = Spool.open(dir);
    assert.deepEqual([onDisk.batches, onDisk.events], [2, 5]);
    assert.deepEqual(onDisk.oldest()!.rows.map((e) => e.page), ['/p/0', '/p/1', '/p/2']);
    onDisk.close();

    // The store takes the first batch after all: it leaves the spool, and the second is replayed behind it.
    answers[0]!();
    await flushing;
    while (answers.length < 2) await new Promise((resolve) => setImmediate(resolve));
    answers[1]!();
    await draining;
    assert.deepEqual(stored.map((e) => e.page), ['/p/0', '/p/1', '/p/2', '/p/3', '/p/4']);
    assert.ok(spool.empty);
    spool.close();
  }),
);
