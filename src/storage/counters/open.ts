// The Counters: what the processes of one deployment share while they run (live sessions, rate
// limits, cache invalidations). In process without SVC_REDIS_URL; in Redis with it.
import { LocalInvalidations } from './invalidations.js';
import { SeparateAdmission } from './admission.js';
import { SessionCache } from './memory-sessions.js';
import { MemorySlidingWindow } from './rate-limiter.js';
import { MemoryRecentOutcomes } from './recent-outcomes.js';
import type { Counters, CountersOptions } from './types.js';

export type { CounterFallback, Counters, CountersOptions } from './types.js';

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
  // ioredis (20 MB resident) is loaded only by processes given SVC_REDIS_URL.
  const { openRedisCounters } = await import('./redis-counters.js');
  return openRedisCounters(redisUrl, options, localSessions);
}
