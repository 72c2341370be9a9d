// The Counters: what the processes of one deployment share while they run (live sessions, rate
// limits, cache invalidations). In process without SVC_REDIS_URL; in Redis with it.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { LocalInvalidations, type Invalidations } from './invalidations.js';
import type { LiveSessionStore } from './live-sessions.js';
import { SessionCache } from './memory-sessions.js';
import { MemorySlidingWindow, type RateLimiter } from './rate-limiter.js';
import { MemoryRecentOutcomes, type RecentOutcomeLog } from './recent-outcomes.js';
import { RedisInvalidations } from './redis-invalidations.js';
import { RedisRecentOutcomes } from './redis-recent-outcomes.js';
import { RedisSlidingWindow } from './redis-rate-limiter.js';
import { RedisLiveSessions } from './redis-sessions.js';

/** What did without Redis: a connection attempt, or a call that fell back. */
export type CounterFallback = 'connection' | 'sessions' | 'rate_limit' | 'invalidation' | 'recent_outcomes';

export interface Counters {
  /** True when other processes share these counters (Redis). */
  shared: boolean;
  liveSessions: LiveSessionStore;
  /**
   * A sliding window of `count` hits per `windowMs`; `name` keeps its keys apart from other
   * windows' (a name is one window: asked again, it is the same one, in every process).
   */
  rateLimiter(name: string, count: number, windowMs: number): RateLimiter;
  invalidations: Invalidations;
  /** Each site's last collection outcomes (installation verification). */
  recentOutcomes: RecentOutcomeLog;
  close(): Promise<void>;
}

export interface CountersOptions {
  /** The in-process session cache's bound (with Redis: the bound of the sessions kept while it does not answer). */
  sessionCacheBytes: number;
  /** Every Redis key and channel starts with it (tests give each theirs). */
  keyPrefix?: string;
  /**
   * Redis did not answer: sessions fell back to this process's own, a rate limit let the hit
   * through, an invalidation reached this process only, outcomes were listed from this process's own.
   */
  onUnavailable?: (what: CounterFallback, err: unknown) => void;
  /** The most calls of one script that travel in one EVALSHA (1: each on its own). */
  maxBatch?: number;
  /** How long opening waits for Redis's first answer before going on without it. */
  connectTimeoutMs?: number;
}

/** A Redis call that takes longer fails (and falls back) rather than holding events. */
const COMMAND_TIMEOUT_MS = 2_000;

export async function openCounters(redisUrl: string | undefined, options: CountersOptions): Promise<Counters> {
  const fallbackSessions = new SessionCache({ maxBytes: options.sessionCacheBytes });
  if (redisUrl === undefined) {
    const windows = new Map<string, MemorySlidingWindow>();
    return {
      shared: false,
      liveSessions: fallbackSessions,
      rateLimiter(name, count, windowMs) {
        let window = windows.get(name);
        if (!window) windows.set(name, (window = new MemorySlidingWindow(count, windowMs)));
        return window;
      },
      invalidations: new LocalInvalidations(),
      recentOutcomes: new MemoryRecentOutcomes(),
      close: async () => undefined,
    };
  }
  const unavailable = options.onUnavailable ?? (() => undefined);
  const prefix = options.keyPrefix ?? 'svc:';
  // Calls fail at once while disconnected (enableOfflineQueue: false; a call under way when the
  // connection drops is not sent again: maxRetriesPerRequest: 0); the connection is retried forever.
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS });
  // The subscriber queues its subscriptions until connected and renews them on every reconnection.
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', (err: unknown) => unavailable('connection', err));
  subscriber.on('error', () => undefined);
  try {
    await once(redis, 'ready', { signal: AbortSignal.timeout(options.connectTimeoutMs ?? 5_000) });
  } catch (err) {
    // Not fatal: collection goes on with the fallbacks, and the connection is retried.
    unavailable('connection', err);
  }
  return {
    shared: true,
    liveSessions: new RedisLiveSessions(redis, `${prefix}ls:`, fallbackSessions, (err) => unavailable('sessions', err), options.maxBatch),
    rateLimiter: (name, count, windowMs) =>
      new RedisSlidingWindow(redis, `${prefix}rl:${name}:`, count, windowMs, (err) => unavailable('rate_limit', err), options.maxBatch),
    invalidations: new RedisInvalidations(redis, subscriber, `${prefix}inv:`, (err) => unavailable('invalidation', err)),
    recentOutcomes: new RedisRecentOutcomes(redis, `${prefix}ro:`, (err) => unavailable('recent_outcomes', err), options.maxBatch),
    async close() {
      for (const connection of [redis, subscriber]) {
        if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      }
    },
  };
}
