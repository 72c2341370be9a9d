// The RateLimiter contract, written once and run against every implementation: the in-process
// sliding window and Redis (each test on a key prefix of its own).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Counters } from '../../src/storage/counters/open.js';
import { MemorySlidingWindow } from '../../src/storage/counters/rate-limiter.js';
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

test('in process: a key keeps its hits when a new generation starts, and is forgotten a generation after its last hit', () => {
  const limiter = new MemorySlidingWindow(3, 1000);
  // The first hit starts a generation at 0; the third hit fills the ring within it.
  assert.deepEqual([0, 990, 995].map((t) => limiter.hit('k', t)), [true, true, true]);
  // 1000 starts the next generation: the ring moves along, so 1001 is refused (the oldest kept hit is 990).
  assert.deepEqual([1000, 1001].map((t) => limiter.hit('k', t)), [true, false]);
  for (let i = 0; i < 10_000; i++) limiter.hit(`network-${i}`, 1500);
  assert.equal(limiter.size, 10_001);
  // At 2000 the generation of 1000 becomes the older one: its keys were hit less than a window ago.
  limiter.hit('other', 2000);
  assert.equal(limiter.size, 10_002);
  assert.equal(limiter.hit('network-0', 2001), true);
  // At 3000 the generation of 1000 goes, but for network-0, hit again at 2001.
  limiter.hit('other', 3000);
  assert.equal(limiter.size, 2);
  // Two windows without a hit: both generations go.
  limiter.hit('late', 5000);
  assert.equal(limiter.size, 1);
});

test('in process: random traces decide every hit as a limiter that forgets nothing does, and hold the keys of two generations', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let trace = 0; trace < 200; trace++) {
    const [limit, window] = [1 + Math.floor(random() * 4), 100];
    const limiter = new MemorySlidingWindow(limit, window);
    const counted = new Map<string, number[]>();
    const lastHit = new Map<string, number>();
    // A generation starts at the first hit a window or more after the last one started; a key is
    // held while its last hit is in the current generation or the one before (none before, after a
    // gap of two windows).
    let [started, keptFrom] = [-Infinity, -Infinity];
    let now = 0;
    for (let step = 0; step < 300; step++) {
      // Mostly small steps, now and then a gap of up to three windows.
      now += random() < 0.05 ? Math.floor(random() * 3 * window) : Math.floor(random() * 10);
      if (now - started >= window) [started, keptFrom] = [now, now - started < 2 * window ? started : now];
      const key = `k${Math.floor(random() * 8)}`;
      const hits = counted.get(key) ?? [];
      const expected = hits.length < limit || now - hits[hits.length - limit]! >= window;
      if (expected) counted.set(key, [...hits, now]);
      lastHit.set(key, now);
      assert.equal(limiter.hit(key, now), expected, `trace ${trace}, step ${step}: ${key} at ${now}`);
      const held = [...lastHit.values()].filter((t) => t >= keptFrom).length;
      assert.equal(limiter.size, held, `trace ${trace}, step ${step}: keys held`);
    }
  }
});
