// The Counters on Redis (SVC_REDIS_URL): one connection for the calls, one subscriber for the cache
// invalidations, and this process's own session cache as the fallback while Redis does not answer.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Counters, CountersOptions } from './types.js';
import type { SessionCache } from './memory-sessions.js';
import { RedisInvalidations } from './redis-invalidations.js';
import { OUTCOMES_EXPIRY_MS, RedisRecentOutcomes } from './redis-recent-outcomes.js';
import { RedisSlidingWindow } from './redis-rate-limiter.js';
import { RedisLiveSessions } from './redis-sessions.js';
import { ScriptBatch } from './script-batch.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import { RECENT_OUTCOMES_PER_SITE } from './recent-outcomes.js';

/**
 * A session's key outlives its gap by this much. The gap is judged on event instants (the collect
 * processes' clocks), so the key's expiry (Redis's clock) only has to come after it.
 */
const SESSION_EXPIRY_SLACK_MS = 5 * 60_000;

/** A Redis call that takes longer fails (and falls back) rather than holding events. */
const COMMAND_TIMEOUT_MS = 2_000;

export async function openRedisCounters(redisUrl: string, options: CountersOptions, localSessions: SessionCache): Promise<Counters> {
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
