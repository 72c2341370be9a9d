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

/** A key's last counted hits: a ring of at most `limit` instants, `next` the oldest once it is full. */
type KeyHits = { ring: number[]; next: number };

/**
 * Exact sliding window: keeps up to `limit` timestamps per key in a ring. A key is over its limit
 * when its oldest kept hit is younger than the window.
 *
 * Keys live in two generations of a window each: a key hit now moves to the current one, and at each
 * new window the older generation, whose keys have not been hit for a whole window, is dropped at
 * once: a pass over every key would hold the event loop for about 10 ms per 50 000 networks.
 */
export class MemorySlidingWindow implements RateLimiter {
  private current = new Map<string, KeyHits>();
  private previous = new Map<string, KeyHits>();
  private rotatedAt = -Infinity;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Keys held: those hit within the last one to two windows. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  hit(key: string, now: number): boolean {
    this.rotate(now);
    let entry = this.current.get(key);
    if (!entry) {
      entry = this.previous.get(key);
      if (entry) {
        this.previous.delete(key);
        this.current.set(key, entry);
      }
    }
    if (!entry) {
      // A ring of one: most networks hit once a window, and an empty array grows to 17 slots on its first push.
      this.current.set(key, { ring: [now], next: 0 });
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

  /**
   * Starts a generation once a window has passed since the last one started. The current
   * generation's hits all came within a window of its start, so two windows after it they are
   * all out of the window too.
   */
  private rotate(now: number): void {
    if (now - this.rotatedAt < this.windowMs) return;
    this.previous = now - this.rotatedAt < 2 * this.windowMs ? this.current : new Map();
    this.current = new Map();
    this.rotatedAt = now;
  }
}
