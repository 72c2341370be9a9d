// Sliding-window request limit per API key: a key may make `count` requests in any `windowMs`.
// A log of recent request instants per key gives an exact window (counts are small: tens to
// hundreds per key).
import type { RateLimit } from '../../config.js';

export class SlidingWindowLimiter {
  private readonly log = new Map<number, number[]>();

  constructor(private readonly limit: RateLimit) {}

  /** Records a request at `now` if the window has room; false when it is full. */
  allow(key: number, now: number): boolean {
    const since = now - this.limit.windowMs;
    const recent = (this.log.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit.count) {
      this.log.set(key, recent);
      return false;
    }
    recent.push(now);
    this.log.set(key, recent);
    return true;
  }
}
