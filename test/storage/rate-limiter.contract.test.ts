// The RateLimiter contract, written once and run against every implementation: the in-process
// sliding window and Redis (each test on a key prefix of its own).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Counters } from '../../src/storage/counters/open.js';
import { COUNTER_KINDS, testWithCounters } from '../../support/counters.js';

const T0 = Date.now();
const WINDOW = 60_000;

for (const kind of COUNTER_KINDS) {
  describe(`RateLimiter contract: ${kind.name}`, () => {
    const withCounters = (name: string, processes: number, body: (counters: Counters[]) => Promise<void>) => testWithCounters(kind, name, processes, body);

    withCounters('exact window: the limit, its edges, refused hits not counted', 1, async ([counters]) => {
      const limiter = counters!.rateLimiter('edges', 3, WINDOW);
      const hits: boolean[] = [];
      for (const at of [0, 1, 2, 3, WINDOW - 1, WINDOW, WINDOW, WINDOW + 1, WINDOW + 2, WINDOW + 3]) hits.push(await limiter.hit('k', T0 + at));
      // At WINDOW the oldest counted hit (0) has left: one more; the refused ones (3, WINDOW - 1) never counted.
      assert.deepEqual(hits, [true, true, true, false, false, true, false, true, true, false]);
    });

    withCounters('keys and windows are apart', 1, async ([counters]) => {
      const one = counters!.rateLimiter('one', 1, WINDOW);
      const other = counters!.rateLimiter('other', 1, WINDOW);
      assert.equal(await one.hit('a', T0), true);
      assert.equal(await one.hit('a', T0 + 1), false);
      assert.equal(await one.hit('b', T0 + 1), true);
      assert.equal(await other.hit('a', T0 + 1), true);
    });

    withCounters('hits made at once are decided in the order made', 1, async ([counters]) => {
      const limiter = counters!.rateLimiter('burst', 3, WINDOW);
      const hits = await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.hit('k', T0 + i)));
      assert.deepEqual(hits, [true, true, true, false, false]);
    });

    withCounters('a key whose newest hit left the window starts over', 1, async ([counters]) => {
      const limiter = counters!.rateLimiter('expiry', 2, 200);
      assert.equal(await limiter.hit('k', Date.now()), true);
      assert.equal(await limiter.hit('k', Date.now()), true);
      assert.equal(await limiter.hit('k', Date.now()), false);
      await sleep(250);
      assert.equal(await limiter.hit('k', Date.now()), true);
      assert.equal(await limiter.hit('k', Date.now()), true);
    });

    withCounters('processes sharing the counters share one window per key', 2, async ([a, b]) => {
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push(await (i % 2 === 0 ? a! : b!).rateLimiter('shared', 3, WINDOW).hit('k', T0 + i));
      assert.deepEqual(hits, [true, true, true, false]);
    });
  });
}

test('Redis: a window key expires a window after its newest counted hit', async () => {
  const redis = COUNTER_KINDS.find((k) => k.name === 'redis')!;
  const { counters, redis: client, prefix, dispose } = await redis.open();
  try {
    const limiter = counters[0]!.rateLimiter('ttl', 5, 300);
    assert.equal(await limiter.hit('k', Date.now()), true);
    const ttl = await client!.pttl(`${prefix}rl:ttl:k`);
    assert.ok(ttl > 0 && ttl <= 300, `PTTL ${ttl}`);
    await sleep(400);
    assert.equal(await client!.exists(`${prefix}rl:ttl:k`), 0);
  } finally {
    await dispose();
  }
});

test('Redis: calls past the batch size go in further batches, in the order made', async () => {
  const redis = COUNTER_KINDS.find((k) => k.name === 'redis')!;
  const { counters, dispose } = await redis.open(1, { maxBatch: 2 });
  try {
    const limiter = counters[0]!.rateLimiter('batches', 3, WINDOW);
    const hits = await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.hit('k', T0 + i)));
    assert.deepEqual(hits, [true, true, true, false, false]);
  } finally {
    await dispose();
  }
});
