// The exact sliding window of MemorySlidingWindow, in Redis, shared by every process: a list per
// key of its last `limit` counted hits, newest first, which expires a window after its newest hit.
// The hits of one turn of the event loop travel in one EVALSHA (script-batch.ts).
import type { Redis } from 'ioredis';
import type { RateLimiter } from './rate-limiter.js';
import { ScriptBatch, type BatchScript } from './script-batch.js';

/**
 * MemorySlidingWindow.hit, in Lua, for a list of hits. KEYS: one per hit. ARGV: the limit and the
 * window (ms), then each hit's instant (kept as the string it came as). Answers 1 (counted) or 0
 * (over the limit) per hit.
 */
const HIT_WINDOWS: BatchScript = {
  name: 'svcHitWindows',
  lua: `
local limit, window = tonumber(ARGV[1]), ARGV[2]
local out = {}
for i = 1, #KEYS do
  local key, now = KEYS[i], ARGV[2 + i]
  local counted = 1
  if redis.call('LLEN', key) >= limit and tonumber(now) - tonumber(redis.call('LINDEX', key, limit - 1)) < tonumber(window) then
    counted = 0
  else
    redis.call('LPUSH', key, now)
    redis.call('LTRIM', key, 0, limit - 1)
    redis.call('PEXPIRE', key, window)
  end
  out[i] = counted
end
return out
`,
};

export class RedisSlidingWindow implements RateLimiter {
  private readonly batch: ScriptBatch<number>;

  /**
   * Keys are `prefix` + the caller's key. While Redis does not answer, hits are let through (the
   * limit fails open) and `onUnavailable` counts it.
   */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    limit: number,
    windowMs: number,
    private readonly onUnavailable: (err: unknown) => void,
    maxBatch?: number,
  ) {
    this.batch = new ScriptBatch(redis, HIT_WINDOWS, [limit, windowMs], maxBatch);
  }

  hit(key: string, now: number): Promise<boolean> {
    return this.batch.call([this.prefix + key], [String(now)]).then(
      (counted) => counted === 1,
      (err: unknown) => {
        this.onUnavailable(err);
        return true;
      },
    );
  }
}
