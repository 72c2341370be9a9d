// HeapBound: long work collects its garbage once the used heap has grown past the bound since the
// last collection, and counts the growth from what each collection leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeapBound } from '../../src/core/heap-bound.js';
import { EventLoopTurns } from '../../src/core/turns.js';

/** A heap that grows as told and drops to `live` at each collection. */
function fakeHeap(start: number, live: number) {
  const heap = { used: start, collections: 0 };
  const collect = () => {
    heap.collections++;
    heap.used = live;
  };
  return { heap, bound: (growth: number) => new HeapBound(growth, collect, () => ({ used: heap.used, held: heap.used })) };
}

test('no collection within the bound; one past it, the next growth counted from what it left', () => {
  const { heap, bound } = fakeHeap(100, 60);
  const heapBound = bound(50);
  heap.used = 150;
  heapBound.check();
  assert.equal(heap.collections, 0, 'grown by the bound exactly: not past it');
  heap.used = 151;
  heapBound.check();
  assert.deepEqual([heap.collections, heap.used], [1, 60]);
  // From the 60 left: 110 is within the bound, 111 past it.
  heap.used = 110;
  heapBound.check();
  assert.equal(heap.collections, 1);
  heap.used = 111;
  heapBound.check();
  assert.equal(heap.collections, 2);
});

test('collectIfGrown collects only past the growth it is given, counted from the last collection', () => {
  const { heap, bound } = fakeHeap(100, 70);
  const heapBound = bound(50);
  heapBound.restart();
  heap.used = 108;
  heapBound.collectIfGrown(8);
  assert.equal(heap.collections, 0, 'grown by 8 exactly: not past it');
  heap.used = 109;
  heapBound.collectIfGrown(8);
  assert.deepEqual([heap.collections, heap.used], [1, 70]);
  heap.used = 78;
  heapBound.collectIfGrown(8);
  assert.equal(heap.collections, 1, 'counted from the 70 the collection left');
});

test('collectNow collects whatever the growth, and the bound counts from it', () => {
  const { heap, bound } = fakeHeap(100, 80);
  const heapBound = bound(50);
  heapBound.collectNow();
  assert.deepEqual([heap.collections, heap.used], [1, 80]);
  heap.used = 129;
  heapBound.check();
  assert.equal(heap.collections, 1, 'within 50 of the 80 the collection left');
});

test('a heap V8 collected below the last collection counts the growth from there; restart counts it from now', () => {
  const { heap, bound } = fakeHeap(100, 60);
  const heapBound = bound(50);
  heap.used = 70; // V8 collected on its own
  heapBound.check();
  heap.used = 120;
  heapBound.check();
  assert.equal(heap.collections, 0, 'within 50 of the 70 seen');
  heap.used = 121;
  heapBound.check();
  assert.equal(heap.collections, 1);
  heap.used = 300;
  heapBound.restart();
  heap.used = 350;
  heapBound.check();
  assert.equal(heap.collections, 1, 'within 50 of the 300 it restarted from');
});

test('an idle check collects a heap V8 holds past the bound over what is used, again while a collection gives back more than the bound, and not after', () => {
  // V8 holds `held` MB for `used`; each collection leaves `used` at 30 and gives back the next of `givenBack`.
  const heap = { used: 30, held: 40, collections: 0 };
  const givenBack = [60, 30, 10];
  const bound = new HeapBound(
    16,
    () => {
      heap.collections++;
      heap.held -= givenBack.shift() ?? 0;
    },
    () => ({ used: heap.used, held: heap.held }),
  );
  bound.checkIdle();
  assert.equal(heap.collections, 0, 'held within the bound of used');
  heap.held = 150; // long work grew the heap and left garbage
  bound.check();
  assert.equal(heap.collections, 0, 'check() reads the used heap only');
  bound.checkIdle();
  assert.deepEqual([heap.collections, heap.held], [1, 90], 'held 150 for 30 used');
  bound.checkIdle();
  assert.deepEqual([heap.collections, heap.held], [2, 60], 'the last collection gave back 60, more than the bound');
  bound.checkIdle();
  assert.deepEqual([heap.collections, heap.held], [3, 50], 'gave back 30: tried again');
  bound.checkIdle();
  bound.checkIdle();
  assert.equal(heap.collections, 3, 'the last gave back 10, within the bound: V8 keeps the rest');
  heap.held = 51;
  bound.checkIdle();
  assert.equal(heap.collections, 4, 'V8 holds more than it held after the last collection');
});

test('long work runs its upkeep before each turn it gives back, and only then', async () => {
  let upkeep = 0;
  const turns = new EventLoopTurns({ sliceMs: 0, stepsPerCheck: 4, atTurn: () => upkeep++ });
  for (let i = 0; i < 3; i++) assert.equal(turns.step(), undefined);
  assert.equal(upkeep, 0, 'no turn yet');
  const turn = turns.step();
  assert.ok(turn instanceof Promise);
  assert.equal(upkeep, 1, 'before the turn is taken');
  await turn;
});
