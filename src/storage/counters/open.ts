// The Counters: what the processes of one deployment share while they run (live sessions, rate
// limits, cache invalidations). In process without SVC_REDIS_URL; in Redis with it.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { LocalInvalidations, type Invalidations } from './invalidations.js';
import { SeparateAdmission, type Admission } from './admission.js';
import type { LiveSessionStore } from './live-sessions.js';
import { SessionCache } from './memory-sessions.js';
import { MemorySlidingWindow, type RateLimiter } from './rate-limiter.js';
import { MemoryRecentOutcomes, type RecentOutcomeLog } from './recent-outcomes.js';
import { RedisInvalidations } from './redis-invalidations.js';
import { OUTCOMES_EXPIRY_MS, RedisRecentOutcomes } from './redis-recent-outcomes.js';
import { RedisSlidingWindow } from './redis-rate-limiter.js';
import { RedisLiveSessions } from './redis-sessions.js';
import { ScriptBatch } from './script-batch.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import { RECENT_OUTCOMES_PER_SITE } from './recent-outcomes.js';

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
  /**
   * Collection's admission of an event: a hit of the window `rateLimiter(name, count, windowMs)`
   * and, when it counts, the visitor's touch of `liveSessions` (with Redis, one call).
   */
  admission(name: string, count: number, windowMs: number): Admission;
  invalidations: Invalidations;
  /** Each site's last collection outcomes (installation verification). */
  recentOutcomes: RecentOutcomeLog;
  close(): Promise<void>;
}

export interface CountersOptions {
  /** The in-process session cache's bound (with Redis: of this process's copies of the sessions Redis answered, and of those it keeps while Redis does not answer). */
  sessionCacheBytes: number;
  /** Every Redis key and channel starts with it (tests give each theirs). */
  keyPrefix?: string;
  /**
   * Redis did not answer: sessions fell back to this process's own, a rate limit let the hit
   * through, an invalidation reached this process only, outcomes were listed from this process's own.
   */
  onUnavailable?: (what: CounterFallback, err: unknown) => void;
  /** The most calls that travel in one EVALSHA (1: each on its own). */
  maxBatch?: number;
  /** How long opening waits for Redis's first answer before going on without it. */
  connectTimeoutMs?: number;
}

/**
 * A session's key outlives its gap by this much. The gap is judged on event instants (the collect
 * processes' clocks), so the key's expiry (Redis's clock) only has to come after it.
 */
const SESSION_EXPIRY_SLACK_MS = 5 * 60_000;

/** A Redis call that takes longer fails (and falls back) rather than holding events. */
const COMMAND_TIMEOUT_MS = 2_000;

export async function openCounters(redisUrl: string | undefined, options: CountersOptions): Promise<Counters> {
  const localSessions = new SessionCache({ maxBytes: options.sessionCacheBytes });
  if (redisUrl === undefined) {
    const windows = new Map<string, MemorySlidingWindow>();
    const rateLimiter = (name: string, count: number, windowMs: number): MemorySlidingWindow => {
      let window = windows.get(name);
      if (!window) windows.set(name, (window = new MemorySlidingWindow(count, windowMs)));
      return window;
    };
    return {
      shared: false,
      liveSessions: localSessions,
      rateLimiter,
      admission: (name, count, windowMs) => new SeparateAdmission(rateLimiter(name, count, windowMs), localSessions),
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
  // One script and one batch for every counter: the calls of a turn share one EVALSHA.
  const batch = new ScriptBatch(
    redis,
    {
      gapMs: SESSION_GAP_MS,
      sessionExpiryMs: SESSION_GAP_MS + SESSION_EXPIRY_SLACK_MS,
      outcomesKept: RECENT_OUTCOMES_PER_SITE,
      outcomesExpiryMs: OUTCOMES_EXPIRY_MS,
      sessionKeyPrefix: `${prefix}ls:`,
    },
    options.maxBatch,
  );
  const window = (name: string, limit: number, windowMs: number) => ({ prefix: `${prefix}rl:${name}:`, limit, windowMs });
  const limitUnavailable = (err: unknown) => unavailable('rate_limit', err);
  const liveSessions = new RedisLiveSessions(batch, localSessions, (err) => unavailable('sessions', err));
  return {
    shared: true,
    liveSessions,
    rateLimiter: (name, count, windowMs) => new RedisSlidingWindow(batch, window(name, count, windowMs), limitUnavailable),
    admission: (name, count, windowMs) => liveSessions.admission(window(name, count, windowMs), limitUnavailable),
    invalidations: new RedisInvalidations(redis, subscriber, `${prefix}inv:`, (err) => unavailable('invalidation', err)),
    recentOutcomes: new RedisRecentOutcomes(redis, batch, `${prefix}ro:`, (err) => unavailable('recent_outcomes', err)),
    async close() {
      for (const connection of [redis, subscriber]) {
        if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      }
    },
  };
}
