// The idle collection: garbage is collected only when the event loop was idle for the interval and
// the heap grew past the bound, and what else waits for an idle moment runs then; a busy loop is never paused by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeapBound } from '../../src/core/heap-bound.js';
import { collectWhenIdle } from '../../src/core/idle-collection.js';

const MB = 1024 * 1024;

function fakeHeap(startMb: number) {
  const heap = { usedMb: startMb, collections: 0 };
  const bound = new HeapBound(
    16 * MB,
    () => {
      heap.collections++;
      heap.usedMb = startMb;
    },
    () => ({ used: heap.usedMb * MB, held: heap.usedMb * MB }),
  );
  return { heap, bound };
}

const cases = [
  { name: 'idle, heap grown past the bound: collected', utilization: 0.01, grownMb: 40, collected: true },
  { name: 'idle, heap grown within the bound: left', utilization: 0.01, grownMb: 10, collected: false },
  { name: 'busy, heap grown past the bound: left to V8', utilization: 0.5, grownMb: 40, collected: false },
];

for (const c of cases) {
  test(c.name, async () => {
    const { heap, bound } = fakeHeap(30);
    heap.usedMb += c.grownMb;
    let idleTurns = 0;
    const stop = collectWhenIdle({ intervalMs: 5, bound, utilization: () => c.utilization, alsoWhenIdle: () => idleTurns++ });
    await sleep(40);
    stop();
    assert.equal(heap.collections > 0, c.collected);
    assert.equal(idleTurns > 0, c.utilization < 0.05, 'what waits for an idle moment runs at each idle check, never on a busy loop');
    if (c.collected) assert.equal(heap.collections, 1, 'once collected, the heap is back within the bound');
  });
}

test('with the real event loop and heap: the heap grown by work is collected once the loop idles', async () => {
  let collections = 0;
  const realBound = new HeapBound(1 * MB, () => collections++);
  const stop = collectWhenIdle({ intervalMs: 50, bound: realBound });
  const kept = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `row ${i}` }));
  await sleep(300);
  stop();
  assert.equal(kept.length, 200_000);
  assert.equal(collections, 1);
});
