// FairShare: slots handed out in turn between keys, one key never holding them all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairShare } from '../../src/core/fair-share.js';

/** A task that runs until `finish` is called, noting its start in `started`. */
function gated(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => (started.push(name), done), finish: () => finish() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test("a key's burst holds all slots but one: another key's task starts at once, before the burst's waiting tasks", async () => {
  const share = new FairShare(3);
  const started: string[] = [];
  const burst = Array.from({ length: 6 }, (_, i) => gated(started, `a${i}`));
  const running = burst.map((b) => share.run('a', b.task));
  await turn();
  assert.deepEqual(started, ['a0', 'a1']);
  assert.deepEqual(share.state('a'), { held: 2, waiting: 4 });
  const other = gated(started, 'b0');
  const otherRun = share.run('b', other.task);
  await turn();
  assert.deepEqual(started, ['a0', 'a1', 'b0']);
  other.finish();
  burst[0]!.finish();
  await turn();
  assert.deepEqual(started, ['a0', 'a1', 'b0', 'a2']);
  for (const b of burst) b.finish();
  await Promise.all([...running, otherRun]);
  assert.deepEqual(started, ['a0', 'a1', 'b0', 'a2', 'a3', 'a4', 'a5']);
  assert.deepEqual(share.state('a'), { held: 0, waiting: 0 });
});

test('freed slots go to the waiting keys in turn, not to the key that asked first', async () => {
  const share = new FairShare(2);
  const started: string[] = [];
  const keys = ['x', 'y', 'a', 'a', 'a', 'b', 'b', 'c'];
  const tasks = new Map(keys.map((key, i) => [`${key}${i}`, gated(started, `${key}${i}`)]));
  const runs = [...tasks].map(([name, g]) => share.run(name[0]!, g.task));
  await turn();
  assert.deepEqual(started, ['x0', 'y1']);
  // One slot frees at a time, the longest running task's: each goes to the next key in turn.
  for (let finished = 0; finished < keys.length; finished++) {
    tasks.get(started[finished]!)!.finish();
    await turn();
  }
  await Promise.all(runs);
  assert.deepEqual(started, ['x0', 'y1', 'a2', 'b5', 'c7', 'a3', 'b6', 'a4']);
});

test('a failing task gives its slot back', async () => {
  const share = new FairShare(1);
  await assert.rejects(share.run('a', () => Promise.reject(new Error('no'))), /no/);
  assert.equal(await share.run('a', async () => 'after'), 'after');
  assert.deepEqual(share.state('a'), { held: 0, waiting: 0 });
});
