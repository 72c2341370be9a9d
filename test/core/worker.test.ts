// The worker runs each maintenance task first soon after start, then on its period; a slow task
// never overlaps itself, a failing one is logged and runs again, and stop waits for runs under way.
// Real timers with short periods: every check waits for what it means, with generous deadlines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/core/clock.js';
import { MaintenanceRegistry, type MaintenanceTask } from '../../src/core/maintenance.js';
import type { Logger } from '../../src/context.js';
import { Worker } from '../../src/worker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > deadlineMs) assert.fail(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

/** A worker over the given tasks, with the errors it logs. */
function workerFor(tasks: MaintenanceTask[], firstRunAfterMs: number) {
  const maintenance = new MaintenanceRegistry();
  for (const task of tasks) maintenance.register(task);
  const errors: Array<{ task: string; message: string }> = [];
  const log: Logger = {
    info() {},
    warn() {},
    error(obj) {
      const { err, task } = obj as { err: Error; task: string };
      errors.push({ task, message: err.message });
    },
  };
  return { worker: new Worker({ maintenance, clock: systemClock, log }, firstRunAfterMs), errors };
}

test('a task first runs after the first-run delay, not after its whole period, then on its period', async () => {
  const runs: number[] = [];
  const started = performance.now();
  const { worker } = workerFor([{ name: 'retention', everyMs: 60 * 60_000, run: async () => void runs.push(performance.now() - started) }], 100);
  worker.start();
  await until(() => runs.length === 1, 'the first run, long before its hour');
  assert.ok(runs[0]! >= 95, `the first run waits for the first-run delay (ran after ${runs[0]!.toFixed(0)} ms)`);
  await sleep(100);
  assert.equal(runs.length, 1, 'the next run waits for the period');
  await worker.stop();

  const often: number[] = [];
  const { worker: frequent } = workerFor([{ name: 'salts', everyMs: 20, run: async (now) => void often.push(now) }], 60 * 60_000);
  frequent.start();
  await until(() => often.length >= 3, 'three runs of a task whose period is shorter than the first-run delay');
  await frequent.stop();
});

test('a slow task never overlaps itself, and stop waits for the run under way', async () => {
  let concurrent = 0;
  let most = 0;
  let finished = 0;
  const { worker } = workerFor(
    [
      {
        name: 'rollup',
        everyMs: 5,
        async run() {
          most = Math.max(most, ++concurrent);
          await sleep(60);
          concurrent--;
          finished++;
        },
      },
    ],
    5,
  );
  worker.start();
  await until(() => finished >= 2, 'two runs finished');
  await until(() => concurrent === 1, 'a run under way');
  await worker.stop();
  assert.equal(concurrent, 0, 'stop returned only once the run under way finished');
  assert.equal(most, 1, 'never two runs at once');
  const after = finished;
  await sleep(50);
  assert.equal(finished, after, 'nothing runs after stop');
});

test('a failing task is logged with its name and runs again at its next period; other tasks go on', async () => {
  let failures = 0;
  let healthy = 0;
  const { worker, errors } = workerFor(
    [
      {
        name: 'alerts',
        everyMs: 10,
        async run() {
          failures++;
          throw new Error('storage down');
        },
      },
      { name: 'sessions', everyMs: 10, run: async () => void healthy++ },
    ],
    10,
  );
  worker.start();
  await until(() => failures >= 2 && healthy >= 2, 'both tasks ran twice');
  await worker.stop();
  assert.ok(errors.length >= 2);
  assert.deepEqual(errors[0], { task: 'alerts', message: 'storage down' });
});
