// EventLoopTurns: long work hands the event loop back once its slice is spent, and only then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventLoopTurns } from '../../src/core/turns.js';

test('no turn is taken while the slice lasts, nor between clock checks', () => {
  const turns = new EventLoopTurns({ sliceMs: 60_000, stepsPerCheck: 1 });
  for (let i = 0; i < 1000; i++) assert.equal(turns.step(), undefined);
  // A spent slice is only noticed on a checking step.
  const sparse = new EventLoopTurns({ sliceMs: 0, stepsPerCheck: 4 });
  assert.deepEqual([sparse.step(), sparse.step(), sparse.step()], [undefined, undefined, undefined]);
  assert.ok(sparse.step() instanceof Promise);
});

test('a spent slice gives the event loop a turn: what was waiting runs before the work goes on', async () => {
  // A slice far longer than a slow machine's pause between the turn and the next step.
  const turns = new EventLoopTurns({ sliceMs: 50, stepsPerCheck: 1 });
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  let turn: Promise<void> | undefined;
  // Busy work, as an import's lines would be: nothing else can run until a turn is taken.
  while (!(turn = turns.step())) {}
  assert.equal(timerRan, false);
  await turn;
  // Checked as the work goes on, right after the turn: another event loop round first could
  // outlast the slice on a loaded machine.
  assert.equal(turns.step(), undefined, 'a new slice starts after the turn');
  // The turn resolves in the check phase: one more lets the timers phase come round.
  await new Promise((r) => setImmediate(r));
  assert.equal(timerRan, true);
});
