import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedQueue } from '../../src/core/bounded-queue.js';

/** A task that runs until `finish` is called, noting the queue's running count when it starts. */
function gatedTask(queue: BoundedQueue, started: number[], value: number) {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  const result = queue.run(async () => {
    started.push(queue.active);
    await gate;
    return value;
  });
  return { result, finish };
}

test('runs at most `concurrency` tasks, keeps `maxWaiting` in order, refuses the rest at once', async () => {
  const queue = new BoundedQueue(2, 2, () => new Error('busy'));
  const started: number[] = [];
  const tasks = [1, 2, 3, 4].map((n) => gatedTask(queue, started, n));
  await assert.rejects(queue.run(async () => 5), /busy/);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [1, 2], 'two run, two wait');

  tasks[1]!.finish();
  assert.equal(await tasks[1]!.result, 2);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [1, 2, 2], 'the first waiting task takes the freed place');
  for (const task of tasks) task.finish();
  assert.deepEqual(await Promise.all(tasks.map((t) => t.result)), [1, 2, 3, 4]);
  assert.equal(queue.active, 0);
  assert.equal(await queue.run(async () => 6), 6, 'room again once drained');
});

test('a failing task frees its place', async () => {
  const queue = new BoundedQueue(1, 0, () => new Error('busy'));
  await assert.rejects(queue.run(async () => {
    throw new Error('task failed');
  }), /task failed/);
  assert.equal(queue.active, 0);
  assert.equal(await queue.run(async () => 'ran'), 'ran');
});
