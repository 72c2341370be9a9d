// The Redis Counters' one Lua script, and the batch that carries its calls: every call made within
// one turn of the event loop (the rate-limit hits, session touches, admissions and outcome records
// of the events of the requests read in that turn), up to `maxCalls`, travels in one EVALSHA and runs
// in Redis one after the other, in the order made, atomically. Each port (redis-rate-limiter.ts,
// redis-sessions.ts, redis-recent-outcomes.ts) puts its calls in the one batch of its connection.
//
// The batch's calls travel as one argument, a JSON array of their fields one after the other, and
// come back as one JSON array of their results: the process builds, writes and reads one string a
// batch rather than a dozen arguments and an answer of five values an event, and the calls of a
// batch share one promise, which each caller reads its call's result from by its index.
import type { Redis } from 'ioredis';
import type { RecordedOutcome } from './recent-outcomes.js';

/** A call's kind: its first field, which tells the script how many fields follow. */
export const OP = { hit: 'h', touch: 't', admit: 'a', record: 'r' } as const;

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

/** Arguments every batch shares, in ARGV[1..5]. */
export interface ScriptSettings {
  /** The session gap (ms). */
  gapMs: number;
  /** A session key's expiry after its last write (ms). */
  sessionExpiryMs: number;
  /** Outcomes kept per site. */
  outcomesKept: number;
  /** A site's outcome list's expiry after its last record (ms). */
  outcomesExpiryMs: number;
  /** A session's key is this prefix and its visitor id. */
  sessionKeyPrefix: string;
}

const SCRIPT_NAME = 'svcCounters';

/**
 * ARGV[1..5] are the ScriptSettings; ARGV[6] the rate-limit windows, a JSON array of each one's key
 * prefix, limit and length (ms); ARGV[7] the batch: a JSON array of calls, each `op` then its fields.
 * A window is named by its number in ARGV[6], a session's key by its visitor id. Instants are strings
 * (they are stored as sent; Lua prints large numbers in exponent form), and an absent text is ''
 * (JSON's null is no Lua nil). The answer is the JSON array of the calls' results, in order.
 *
 * - hit (window, key in the window, instant): MemorySlidingWindow.hit; answers 1 (counted) or 0
 *   (over the limit).
 * - touch (the visitor's id, yesterday's or '', ts, the page or '' (not a pageview), candidate id
 *   and attributes (JSON), both '' when not computed, the session id this process knows for the
 *   visitor or ''): SessionCache.touch; answers [started, id, last, entry or false, attrs], id ''
 *   when it is the known one, last '' when it is ts, attrs '' when the session goes on under the
 *   known id (the caller holds these). A new session without attributes is not written: it answers
 *   [needsAttributes].
 * - admit (window, key in the window, then a touch's fields; the hit's instant is the touch's): the
 *   hit, and the touch when it counted; over the limit it answers [limited].
 * - record (the sequence counter's key, the site's list's key, n, skipped, u, then u User-Agents as
 *   JSON texts, then n entries, oldest first, each its instant, its outcome, its path and its name
 *   as JSON texts and the number of its User-Agent): numbers `skipped` records that are not kept, then the
 *   n entries, pushes these as `<seq> {"ts":…,"outcome":…,"path":…,"name":…,"ua":…}` (JSON.stringify's text
 *   of the entry: the User-Agents of a turn's records repeat, and are sent once), keeps the list's
 *   last entries; answers 0.
 */
const LUA = `
local gap, sessionExpiry, kept, outcomesExpiry, sessions = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local windows, calls = cjson.decode(ARGV[6]), cjson.decode(ARGV[7])

local function hit(w, key, now)
  local limit, window = w[2], w[3]
  key = w[1] .. key
  if redis.call('LLEN', key) >= limit and tonumber(now) - tonumber(redis.call('LINDEX', key, limit - 1)) < window then
    return 0
  end
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, limit - 1)
  redis.call('PEXPIRE', key, window)
  return 1
end

local function touch(visitor, previous, ts, page, id, attrs, known)
  local key = sessions .. visitor
  if previous ~= '' then previous = sessions .. previous end
  local from = key
  local s = redis.call('HMGET', key, 'id', 'last', 'entry')
  if not s[1] and previous ~= '' then
    s = redis.call('HMGET', previous, 'id', 'last', 'entry')
    from = previous
  end
  local t = tonumber(ts)
  local last, entry, started
  if s[1] and t - tonumber(s[2]) < gap and tonumber(s[2]) - t < gap then
    id, last, entry, started = s[1], s[2], s[3], 0
    if t > tonumber(last) then last = ts end
    if not entry and page ~= '' then entry = page end
    if id == known then attrs = '' else attrs = redis.call('HGET', from, 'attrs') end
  else
    if attrs == '' then return { 2 } end
    last, started = ts, 1
    entry = page ~= '' and page or false
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
  if id == known then id = '' end
  if last == ts then last = '' end
  return { started, id, last, entry, attrs }
end

local out = {}
local a, n = 1, 0
while a <= #calls do
  local op = calls[a]
  local result
  if op == 'h' then
    result = hit(windows[calls[a + 1]], calls[a + 2], calls[a + 3])
    a = a + 4
  elseif op == 't' then
    result = touch(calls[a + 1], calls[a + 2], calls[a + 3], calls[a + 4], calls[a + 5], calls[a + 6], calls[a + 7])
    a = a + 8
  elseif op == 'a' then
    if hit(windows[calls[a + 1]], calls[a + 2], calls[a + 5]) == 1 then
      result = touch(calls[a + 3], calls[a + 4], calls[a + 5], calls[a + 6], calls[a + 7], calls[a + 8], calls[a + 9])
    else
      result = { 3 }
    end
    a = a + 10
  elseif op == 'r' then
    local count, skipped, agents = calls[a + 3], calls[a + 4], calls[a + 5]
    local seq = redis.call('INCRBY', calls[a + 1], skipped + count) - count
    local entries = {}
    local e = a + 6 + agents
    for j = 1, count do
      entries[j] = (seq + j) .. ' {"ts":' .. calls[e] .. ',"outcome":' .. calls[e + 1] .. ',"path":' .. calls[e + 2] .. ',"name":' .. calls[e + 3] .. ',"ua":' .. calls[a + 5 + calls[e + 4]] .. '}'
      e = e + 5
    end
    redis.call('LPUSH', calls[a + 2], unpack(entries))
    redis.call('LTRIM', calls[a + 2], 0, kept - 1)
    redis.call('PEXPIRE', calls[a + 2], outcomesExpiry)
    result = 0
    a = e
  else
    return redis.error_reply('svcCounters: unknown call ' .. tostring(op))
  end
  n = n + 1
  out[n] = result
end
return cjson.encode(out)
`;

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A text a client chose, as it goes in the batch's JSON: its lone surrogates (which JSON escapes and
 * cjson refuses) become U+FFFD, as writing the text in UTF-8 makes them.
 */
function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(/\p{Cs}/gu, '\uFFFD') : text;
}

type ScriptCommand = (
  numKeys: 0,
  gapMs: number,
  sessionExpiryMs: number,
  outcomesKept: number,
  outcomesExpiryMs: number,
  sessionKeyPrefix: string,
  windows: string,
  calls: string,
) => Promise<string>;

/** A touch's answer: what the script decided, and the session's id, instant, entry page and attributes (JSON). */
export type TouchReply = [started: number, id?: string, last?: string, entry?: string | false, attrs?: string];

export class ScriptBatch {
  /** The calls of the batch being filled, their fields one after the other (the script's ARGV[5]). */
  private readonly fields: Array<string | number> = [];
  private calls = 0;
  /** The results of the batch the last call went in. */
  private answer: Promise<unknown[]> = Promise.resolve([]);
  private resolve: (results: unknown[]) => void = () => undefined;
  private reject: (err: unknown) => void = () => undefined;
  private scheduled = false;
  /** What puts its calls in the batch as it leaves (calls gathered over the turn). */
  private hooks: Array<() => void> = [];
  private readonly command: ScriptCommand;
  /** The windows by key prefix (numbered from 1, as Lua counts), and their JSON (ARGV[6]). */
  private readonly windows = new Map<string, number>();
  private readonly windowList: Array<[prefix: string, limit: number, windowMs: number]> = [];
  private windowsJson = '[]';

  /** `maxCalls` 1 sends every call on its own (what bench/counters compares batching with). */
  constructor(
    redis: Redis,
    private readonly settings: ScriptSettings,
    private readonly maxCalls = 512,
  ) {
    if (!(SCRIPT_NAME in redis)) redis.defineCommand(SCRIPT_NAME, { lua: LUA });
    const command = (redis as unknown as Record<string, ScriptCommand>)[SCRIPT_NAME]!;
    this.command = command.bind(redis);
  }

  /**
   * The results of the batch the last call went in, by the calls' indexes (what each call method
   * answers); rejected when Redis did not answer the batch.
   */
  get results(): Promise<unknown[]> {
    return this.answer;
  }

  /** The number the calls name a rate-limit window by: its keys are `prefix` and a key in it. */
  window(prefix: string, limit: number, windowMs: number): number {
    let number = this.windows.get(prefix);
    if (number === undefined) {
      number = this.windowList.push([prefix, limit, windowMs]);
      this.windows.set(prefix, number);
      this.windowsJson = JSON.stringify(this.windowList);
    }
    return number;
  }

  /** Queues a hit of `key` in window number `window`; its result is 1 (counted) or 0. Answers its index in `results`. */
  hit(window: number, key: string, now: number): number {
    this.opening();
    this.fields.push(OP.hit, window, wellFormed(key), String(now));
    return this.added();
  }

  /**
   * Queues a session touch (`previousVisitorId` '' when there is none, `page` '' for an event that is
   * not a pageview, `id` and `attrs` '' when not computed, `knownId` '' when none); its result is a
   * TouchReply.
   */
  touch(visitorId: string, previousVisitorId: string, ts: number, page: string, id: string, attrs: string, knownId: string): number {
    this.opening();
    this.fields.push(OP.touch, visitorId, previousVisitorId, String(ts), wellFormed(page), id, attrs, knownId);
    return this.added();
  }

  /** Queues a hit of `key` in window number `window` at `ts`, then, when it counts, a touch; its result is a TouchReply. */
  admit(window: number, key: string, visitorId: string, previousVisitorId: string, ts: number, page: string, id: string, attrs: string, knownId: string): number {
    this.opening();
    this.fields.push(OP.admit, window, wellFormed(key), visitorId, previousVisitorId, String(ts), wellFormed(page), id, attrs, knownId);
    return this.added();
  }

  /** Queues a site's records (`entries` oldest first, after `skipped` that are numbered only); its result is 0. */
  record(seqKey: string, listKey: string, skipped: number, entries: ReadonlyArray<Omit<RecordedOutcome, 'seq'>>): number {
    this.opening();
    const fields = this.fields;
    fields.push(OP.record, seqKey, listKey, entries.length, skipped, 0);
    const agentsAt = fields.length - 1;
    const agents = new Map<string, number>();
    for (const { ua } of entries) {
      if (agents.has(ua)) continue;
      agents.set(ua, agents.size + 1);
      fields.push(JSON.stringify(ua));
    }
    fields[agentsAt] = agents.size;
    for (const { ts, outcome, path, name, ua } of entries) fields.push(String(ts), JSON.stringify(outcome), JSON.stringify(path), JSON.stringify(name), agents.get(ua)!);
    return this.added();
  }

  /** Calls `hook` as this turn's batch leaves, before it is sent: the hook may put calls in it. */
  beforeSend(hook: () => void): void {
    this.hooks.push(hook);
    this.schedule();
  }

  /** A batch's first call makes its results' promise. */
  private opening(): void {
    if (this.calls > 0) return;
    this.answer = new Promise<unknown[]>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  private added(): number {
    const index = this.calls++;
    if (this.calls >= this.maxCalls) this.send();
    else this.schedule();
    return index;
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
    if (this.calls === 0) return;
    const { resolve, reject, settings } = this;
    // The fields are written out at once: their array is filled again by the next batch.
    const calls = JSON.stringify(this.fields);
    this.fields.length = 0;
    this.calls = 0;
    this.command(0, settings.gapMs, settings.sessionExpiryMs, settings.outcomesKept, settings.outcomesExpiryMs, settings.sessionKeyPrefix, this.windowsJson, calls).then((answer) => {
      let results: unknown[];
      try {
        results = JSON.parse(answer) as unknown[];
      } catch (err) {
        reject(err);
        return;
      }
      resolve(results);
    }, reject);
  }
}
