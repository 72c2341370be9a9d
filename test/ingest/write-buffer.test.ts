// The write buffer against a store that fails: nothing lost, retries back off, memory is capped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBuffer } from '../../src/ingest/write-buffer.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import type { EventStore } from '../../src/storage/events/types.js';

/** A store whose appends fail while `down` is set; it records every attempt. */
function flakyStore() {
  const stored: StoredEvent[] = [];
  const state = { down: true, attempts: 0 };
  const store = {
    async append(rows: readonly StoredEvent[]) {
      state.attempts++;
      if (state.down) throw new Error('disk full');
      stored.push(...rows);
    },
  } as unknown as EventStore;
  return { store, stored, state };
}

const event = (i: number) => ({ page: `/p/${i}` }) as StoredEvent;

test('a failed flush keeps its batch, in order, and the next flush stores it', async () => {
  const { store, stored, state } = flakyStore();
  const buffer = new WriteBuffer(store);
  buffer.add(event(1));
  buffer.add(event(2));
  await assert.rejects(buffer.flush(), /disk full/);
  buffer.add(event(3));
  assert.equal(buffer.size, 3);
  state.down = false;
  await buffer.flush();
  assert.deepEqual(stored.map((e) => e.page), ['/p/1', '/p/2', '/p/3']);
});

test('while storage is down, adds do not hammer it: retries wait 1 s, 2 s, 4 s …', async () => {
  const { store, state } = flakyStore();
  let now = 0;
  const errors: number[] = [];
  const buffer = new WriteBuffer(store, { maxEvents: 10, now: () => now, onError: (_e, wait) => errors.push(wait) });
  for (let i = 0; i < 10; i++) buffer.add(event(i)); // reaches maxEvents: one flush attempt
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 10_000; i++) buffer.add(event(i)); // during backoff: no new attempt
  await new Promise((r) => setImmediate(r));
  assert.equal(state.attempts, 1);
  now = 1000;
  buffer.add(event(0));
  await new Promise((r) => setImmediate(r));
  assert.equal(state.attempts, 2);
  assert.deepEqual(errors, [1000, 2000]);
});

test('past its capacity the buffer refuses events and says so', async () => {
  const { store } = flakyStore();
  let overflow = 0;
  const buffer = new WriteBuffer(store, { capacity: 100, maxEvents: 1_000_000, onOverflow: () => overflow++ });
  for (let i = 0; i < 150; i++) buffer.add(event(i));
  assert.equal(buffer.size, 100);
  assert.equal(overflow, 50);
});
