// The Counters of each kind, for the port suites: in process, and on the Redis every machine of the
// project runs (127.0.0.1:6379). Each Redis use has a key prefix of its own, so tests never share
// keys; an unreachable Redis fails the test that asked for it, and so does any fallback (a call
// Redis did not answer), which would otherwise hide behind the in-process behaviour.
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';
import { openCounters, type CounterFallback, type Counters, type CountersOptions } from '../src/storage/counters/open.js';

export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

const sessionCacheBytes = loadConfig({}).sessionCacheBytes;

/** A key prefix no other test uses. */
export function testKeyPrefix(): string {
  return `svc-test:${randomBytes(6).toString('hex')}:`;
}

/** Fails unless Redis answers; deletes the keys under `prefix` (a test's own) when asked to. */
export async function testRedis(): Promise<Redis> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`Redis at ${TEST_REDIS_URL} is unreachable (these tests need it): ${String(err)}`);
  }
  return redis;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export interface CountersKind {
  name: string;
  /**
   * Opens `processes` Counters that share their state as that many processes of one deployment do
   * (with Redis: connections of their own on one key prefix); `dispose` closes them and fails if
   * Redis ever did not answer.
   */
  open(processes?: number, options?: Partial<CountersOptions>): Promise<{ counters: Counters[]; redis?: Redis; prefix: string; dispose(): Promise<void> }>;
}

export const COUNTER_KINDS: CountersKind[] = [
  {
    name: 'memory',
    async open(processes = 1) {
      // In process, nothing is shared: one Counters serves every "process".
      const counters = await openCounters(undefined, { sessionCacheBytes });
      return { counters: Array.from({ length: processes }, () => counters), prefix: '', dispose: () => counters.close() };
    },
  },
  {
    name: 'redis',
    async open(processes = 1, options = {}) {
      const redis = await testRedis();
      const prefix = testKeyPrefix();
      const fallbacks: Array<{ what: CounterFallback; err: unknown }> = [];
      const counters: Counters[] = [];
      for (let i = 0; i < processes; i++) {
        counters.push(await openCounters(TEST_REDIS_URL, { sessionCacheBytes, keyPrefix: prefix, onUnavailable: (what, err) => fallbacks.push({ what, err }), ...options }));
      }
      return {
        counters,
        redis,
        prefix,
        async dispose() {
          for (const c of counters) await c.close();
          await deleteKeys(redis, prefix);
          redis.disconnect();
          if (fallbacks.length > 0) throw new Error(`Redis did not answer: ${fallbacks.map((f) => `${f.what}: ${String(f.err)}`).join('; ')}`);
        },
      };
    },
  },
];

/** A test over `processes` Counters of `kind`, disposed (and checked for fallbacks) after it. */
export function testWithCounters(kind: CountersKind, name: string, processes: number, body: (counters: Counters[]) => Promise<void>): void {
  test(name, async () => {
    const opened = await kind.open(processes);
    try {
      await body(opened.counters);
    } finally {
      await opened.dispose();
    }
  });
}
