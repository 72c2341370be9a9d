// The Redis Counters' one Lua script, and the batch that carries its calls: every call made within
// one turn of the event loop (the rate-limit hits, session touches, admissions and outcome records
// of the events of the requests read in that turn), up to `maxCalls`, travels in one EVALSHA and runs
// in Redis one after the other, in the order made, atomically. Each port (redis-rate-limiter.ts,
// redis-sessions.ts, redis-recent-outcomes.ts) puts its calls in the one batch of its connection.
import type { Redis } from 'ioredis';

/** A call's kind: its first argument, which tells the script how many keys and arguments follow. */
export const OP = { hit: 'h', touch: 't', admit: 'a', record: 'r' } as const;
export type Op = (typeof OP)[keyof typeof OP];

/** A touch's or an admission's first answer (its `started`): what the script decided. */
export const TOUCH = {
  /** The session goes on. */
  continued: 0,
  /** A new session, with the attributes the call brought. */
  started: 1,
  /** A new session was due, and the call brought no attributes: nothing was written but the hit. */
  needsAttributes: 2,
  /** An admission over its rate limit: neither counted nor touched. */
  limited: 3,
} as const;

/** Arguments every batch shares, in ARGV[1..4]. */
export interface ScriptSettings {
  /** The session gap (ms). */
  gapMs: number;
  /** A session key's expiry after its last write (ms). */
  sessionExpiryMs: number;
  /** Outcomes kept per site. */
  outcomesKept: number;
  /** A site's outcome list's expiry after its last record (ms). */
  outcomesExpiryMs: number;
}

const SCRIPT_NAME = 'svcCounters';

/**
 * Calls, each `op` then its arguments, keys taken from KEYS in turn. Instants stay the strings they
 * came as (Lua prints large numbers in exponent form).
 *
 * - hit (KEYS: the window's list; ARGV: limit, window ms, instant): MemorySlidingWindow.hit; answers
 *   1 (counted) or 0 (over the limit).
 * - touch (KEYS: the visitor's key, yesterday's key or the visitor's again; ARGV: ts, page, 1 for a
 *   pageview, candidate id and attributes (JSON), both '' when not computed, the session id this
 *   process knows for the visitor or ''): SessionCache.touch; answers { started, id, last, entry or
 *   nil, attrs }, attrs '' when the session goes on under the known id (the caller holds them).
 *   A new session without attributes is not written: it answers { needsAttributes }.
 * - admit (KEYS: a hit's, then a touch's; ARGV: a hit's, then a touch's): the hit, and the touch
 *   when it counted; over the limit it answers { limited }.
 * - record (KEYS: the sequence counter, the site's list; ARGV: n, skipped, then n entries as JSON,
 *   oldest first): numbers `skipped` records that are not kept, then the n entries, pushes these,
 *   keeps the list's last entries; answers 0.
 */
const LUA = `
local gap, sessionExpiry, kept, outcomesExpiry = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), ARGV[4]

local function hit(key, limit, window, now)
  if redis.call('LLEN', key) >= limit and tonumber(now) - tonumber(redis.call('LINDEX', key, limit - 1)) < tonumber(window) then
    return 0
  end
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, limit - 1)
  redis.call('PEXPIRE', key, window)
  return 1
end

local function touch(key, previous, ts, page, pageview, id, attrs, known)
  local from = key
  local s = redis.call('HMGET', key, 'id', 'last', 'entry')
  if not s[1] and previous ~= key then
    s = redis.call('HMGET', previous, 'id', 'last', 'entry')
    from = previous
  end
  local t = tonumber(ts)
  local last, entry, started
  if s[1] and t - tonumber(s[2]) < gap and tonumber(s[2]) - t < gap then
    id, last, entry, started = s[1], s[2], s[3], 0
    if t > tonumber(last) then last = ts end
    if not entry and pageview then entry = page end
    if id == known then attrs = '' else attrs = redis.call('HGET', from, 'attrs') end
  else
    if attrs == '' then return { 2 } end
    last, started = ts, 1
    entry = pageview and page or false
  end
  if started == 0 and from == key then
    -- The session goes on under its key: only what changed is written.
    if last ~= s[2] and entry ~= s[3] then redis.call('HSET', key, 'last', last, 'entry', entry)
    elseif last ~= s[2] then redis.call('HSET', key, 'last', last)
    elseif entry ~= s[3] then redis.call('HSET', key, 'entry', entry) end
  else
    local stored = attrs
    if stored == '' then stored = redis.call('HGET', from, 'attrs') end
    if s[1] then redis.call('DEL', from) end
    if entry then
      redis.call('HSET', key, 'id', id, 'last', last, 'entry', entry, 'attrs', stored)
    else
      redis.call('HSET', key, 'id', id, 'last', last, 'attrs', stored)
    end
  end
  redis.call('PEXPIRE', key, sessionExpiry)
  return { started, id, last, entry, attrs }
end

local out = {}
local k, a, n = 1, 5, 0
while a <= #ARGV do
  local op = ARGV[a]
  local result
  if op == 'h' then
    result = hit(KEYS[k], tonumber(ARGV[a + 1]), ARGV[a + 2], ARGV[a + 3])
    k, a = k + 1, a + 4
  elseif op == 't' then
    result = touch(KEYS[k], KEYS[k + 1], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3] == '1', ARGV[a + 4], ARGV[a + 5], ARGV[a + 6])
    k, a = k + 2, a + 7
  elseif op == 'a' then
    if hit(KEYS[k], tonumber(ARGV[a + 1]), ARGV[a + 2], ARGV[a + 3]) == 1 then
      result = touch(KEYS[k + 1], KEYS[k + 2], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6] == '1', ARGV[a + 7], ARGV[a + 8], ARGV[a + 9])
    else
      result = { 3 }
    end
    k, a = k + 3, a + 10
  elseif op == 'r' then
    local count, skipped = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
    local seq = redis.call('INCRBY', KEYS[k], skipped + count) - count
    local entries = {}
    for j = 1, count do entries[j] = (seq + j) .. ' ' .. ARGV[a + 2 + j] end
    redis.call('LPUSH', KEYS[k + 1], unpack(entries))
    redis.call('LTRIM', KEYS[k + 1], 0, kept - 1)
    redis.call('PEXPIRE', KEYS[k + 1], outcomesExpiry)
    result = 0
    k, a = k + 2, a + 3 + count
  else
    return redis.error_reply('svcCounters: unknown call ' .. tostring(op))
  end
  n = n + 1
  out[n] = result
end
return out
`;

type ScriptCommand = (numKeys: number, ...keysAndArgs: Array<string | number>) => Promise<unknown[]>;

export class ScriptBatch {
  private keys: string[] = [];
  private args: Array<string | number> = [];
  private waiting: Array<{ resolve(result: unknown): void; reject(err: unknown): void }> = [];
  private scheduled = false;
  /** What puts its calls in the batch as it leaves (calls gathered over the turn). */
  private hooks: Array<() => void> = [];
  private readonly command: ScriptCommand;
  private readonly shared: ReadonlyArray<number>;

  /** `maxCalls` 1 sends every call on its own (what bench/counters compares batching with). */
  constructor(
    redis: Redis,
    settings: ScriptSettings,
    private readonly maxCalls = 512,
  ) {
    if (!(SCRIPT_NAME in redis)) redis.defineCommand(SCRIPT_NAME, { lua: LUA });
    const command = (redis as unknown as Record<string, ScriptCommand>)[SCRIPT_NAME]!;
    this.command = command.bind(redis);
    this.shared = [settings.gapMs, settings.sessionExpiryMs, settings.outcomesKept, settings.outcomesExpiryMs];
  }

  /** Queues one call (`op`, its keys, its arguments after the op) for this turn's EVALSHA; answers its result. */
  call<R>(op: Op, keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      for (const key of keys) this.keys.push(key);
      this.args.push(op);
      for (const arg of args) this.args.push(arg);
      this.waiting.push({ resolve: resolve as (result: unknown) => void, reject });
      if (this.waiting.length >= this.maxCalls) this.send();
      else this.schedule();
    });
  }

  /** Calls `hook` as this turn's batch leaves, before it is sent: the hook may put calls in it. */
  beforeSend(hook: () => void): void {
    this.hooks.push(hook);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.send());
  }

  private send(): void {
    this.scheduled = false;
    const hooks = this.hooks;
    this.hooks = [];
    for (const hook of hooks) hook();
    const { keys, args, waiting } = this;
    if (waiting.length === 0) return;
    this.keys = [];
    this.args = [];
    this.waiting = [];
    this.command(keys.length, ...keys, ...this.shared, ...args).then(
      (results) => {
        for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(results[i]);
      },
      (err: unknown) => {
        for (const w of waiting) w.reject(err);
      },
    );
  }
}
