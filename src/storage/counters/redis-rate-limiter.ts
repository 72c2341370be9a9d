// The exact sliding window of MemorySlidingWindow, in Redis, shared by every process: a list per
// key of its last `limit` counted hits, newest first, which expires a window after its newest hit.
// The hits of one turn of the event loop travel in that turn's EVALSHA (script-batch.ts).
import type { RateLimiter } from './rate-limiter.js';
import type { ScriptBatch } from './script-batch.js';

/** A window in Redis: its keys' prefix, its limit and its length. */
export interface RedisWindow {
  prefix: string;
  limit: number;
  windowMs: number;
}

export class RedisSlidingWindow implements RateLimiter {
  /** The window's number in the batch's calls. */
  private readonly number: number;

  /** Keys are the window's prefix + the caller's key. While Redis does not answer, hits are let through (the limit fails open) and `onUnavailable` counts it. */
  constructor(
    private readonly batch: ScriptBatch,
    readonly window: RedisWindow,
    private readonly onUnavailable: (err: unknown) => void,
  ) {
    this.number = batch.window(window.prefix, window.limit, window.windowMs);
  }

  hit(key: string, now: number): Promise<boolean> {
    const index = this.batch.hit(this.number, key, now);
    return this.batch.results.then(
      (results) => results[index] === 1,
      (err: unknown) => {
        this.onUnavailable(err);
        return true;
      },
    );
  }
}
