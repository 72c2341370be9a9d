// What the Counters are, whichever backs them (src/storage/counters/open.ts opens them).
import type { Admission } from './admission.js';
import type { Invalidations } from './invalidations.js';
import type { LiveSessionStore } from './live-sessions.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RecentOutcomeLog } from './recent-outcomes.js';

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

