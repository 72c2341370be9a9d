// Sliding-window rate limiting: the port, and its in-process implementation. The Redis one is
// redis-rate-limiter.ts; test/storage/rate-limiter.contract.test.ts holds both to one semantics.
import type { MaybePromise } from '../../core/clock.js';

export interface RateLimiter {
  /**
   * Records a hit for `key` at `now`; false when the key is over its limit (the hit is not counted).
   * A key is over its limit when the oldest of its last `limit` counted hits is younger than the window.
   */
  hit(key: string, now: number): MaybePromise<boolean>;
}

/**
 * Exact sliding window: keeps up to `limit` timestamps per key in a ring. A key is over its limit
 * when its oldest kept hit is younger than the window.
 */
export class MemorySlidingWindow implements RateLimiter {
  private readonly hits = new Map<string, { ring: number[]; next: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  hit(key: string, now: number): boolean {
    this.sweep(now);
    const entry = this.hits.get(key);
    if (!entry) {
      // A ring of one: most networks hit once a window, and an empty array grows to 17 slots on its first push.
      this.hits.set(key, { ring: [now], next: 0 });
      return true;
    }
    if (entry.ring.length < this.limit) {
      entry.ring.push(now);
      return true;
    }
    const oldest = entry.ring[entry.next]!;
    if (now - oldest < this.windowMs) return false;
    entry.ring[entry.next] = now;
    entry.next = (entry.next + 1) % this.limit;
    return true;
  }

  /** Forgets keys whose newest hit left the window, at most once per window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.hits) {
      const newest = entry.ring[(entry.next + entry.ring.length - 1) % entry.ring.length]!;
      if (now - newest >= this.windowMs) this.hits.delete(key);
    }
  }
}
