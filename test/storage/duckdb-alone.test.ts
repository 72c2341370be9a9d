// A DuckDB statement refused for want of memory runs again once, alone (src/storage/events/duckdb-alone.ts):
// the retry starts only once every other statement of the store has ended, statements asked
// meanwhile wait until it ends, two retries take turns, and any other failure is not retried. The
// refusal is DuckDB's own, from a pool too small for the statement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { isOutOfMemory, newActivity, retriedAloneOnOutOfMemory, type Activity } from '../../src/storage/events/duckdb-alone.js';

/** DuckDB's refusal of a statement its 8 MB pool cannot hold. */
async function duckdbRefusal(): Promise<unknown> {
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '8MB' });
  const conn = await instance.connect();
  try {
    await conn.run(`SELECT count(*) FROM (SELECT DISTINCT range::VARCHAR || 'x' FROM range(2000000))`);
    return null;
  } catch (err) {
    return err;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** A statement as the store runs one: after the gate, counted as running while `work` runs. */
async function statement<T>(activity: Activity, work: () => Promise<T>): Promise<T> {
  activity.statements++;
  await activity.gate;
  activity.running++;
  try {
    return await work();
  } finally {
    activity.running--;
  }
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

test('a statement DuckDB refuses for want of memory runs again once the others end, and holds back those asked meanwhile', async () => {
  const refusal = await duckdbRefusal();
  assert.ok(isOutOfMemory(refusal), String(refusal));
  const activity = newActivity();
  const order: string[] = [];
  let endOther!: () => void;
  const other = statement(activity, () => new Promise<void>((resolve) => (endOther = resolve)).then(() => order.push('other ended')));
  let attempts = 0;
  const retried = statement(activity, () =>
    retriedAloneOnOutOfMemory(activity, async () => {
      attempts++;
      if (attempts === 1) throw refusal;
      order.push(`retry ran with ${activity.running} running`);
      await tick(20);
      order.push('retry ended');
      return 'rows';
    }),
  );
  await tick(20);
  const later = statement(activity, async () => order.push('later ran'));
  await tick(20);
  assert.deepEqual(order, [], 'the retry waits for the statement under way, and the later one for the retry');
  endOther();
  assert.equal(await retried, 'rows');
  await Promise.all([other, later]);
  assert.deepEqual(order, ['other ended', 'retry ran with 1 running', 'retry ended', 'later ran']);
  assert.equal(attempts, 2);
  assert.equal(activity.running, 0);
});

test('two refused statements run again one after the other; another failure is not retried', async () => {
  const refusal = await duckdbRefusal();
  const activity = newActivity();
  const alone: number[] = [];
  const refusedOnce = () => {
    let first = true;
    return statement(activity, () =>
      retriedAloneOnOutOfMemory(activity, async () => {
        if (first) {
          first = false;
          await tick(10);
          throw refusal;
        }
        alone.push(activity.running);
        await tick(10);
      }),
    );
  };
  await Promise.all([refusedOnce(), refusedOnce()]);
  assert.deepEqual(alone, [1, 1]);
  let calls = 0;
  const other = new Error('Binder Error: no such column');
  await assert.rejects(statement(activity, () => retriedAloneOnOutOfMemory(activity, async () => (calls++, Promise.reject(other)))), other);
  assert.equal(calls, 1);
  assert.equal(activity.running, 0);
});
