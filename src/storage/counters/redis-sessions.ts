// Live sessions in Redis, shared by every collect process: a hash per open session under its
// visitor's key (`id`, `last`, `entry` when the session has had a pageview, `attrs` as JSON). One
// Lua script decides each touch atomically, so events of one visitor reaching two processes form
// one session. The touches of one turn of the event loop travel in one EVALSHA (script-batch.ts).
import type { Redis } from 'ioredis';
import { randomId64 } from '../../core/ids.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import type { LiveSessionStore, SessionAttributes, SessionDecision } from './live-sessions.js';
import type { SessionCache } from './memory-sessions.js';
import { ScriptBatch, type BatchScript } from './script-batch.js';

/**
 * A session's key outlives its gap by this much. The gap is judged on event instants (the collect
 * processes' clocks), so the key's expiry (Redis's clock) only has to come after it.
 */
const EXPIRY_SLACK_MS = 5 * 60_000;

/**
 * SessionCache.touch, in Lua, for a list of touches. KEYS per touch: the visitor's key, then
 * yesterday's key (the visitor's again when there is none). ARGV: the gap and the key expiry (ms),
 * then per touch: ts, page, 1 for a pageview, the candidate session id, the candidate attributes.
 * Instants stay the strings they came as (Lua prints large numbers in exponent form).
 * Answers per touch: { 1 when started, id, last, entry or nil, attrs }.
 */
const TOUCH_SESSIONS: BatchScript = {
  name: 'svcTouchSessions',
  lua: `
local gap = tonumber(ARGV[1])
local expiry = ARGV[2]
local out = {}
for i = 1, #KEYS / 2 do
  local key, previous = KEYS[2 * i - 1], KEYS[2 * i]
  local a = 2 + (i - 1) * 5
  local ts, page, pageview = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3] == '1'
  local from = key
  local s = redis.call('HMGET', key, 'id', 'last', 'entry', 'attrs')
  if not s[1] and previous ~= key then
    s = redis.call('HMGET', previous, 'id', 'last', 'entry', 'attrs')
    from = previous
  end
  local t = tonumber(ts)
  local id, last, entry, attrs, started
  if s[1] and t - tonumber(s[2]) < gap and tonumber(s[2]) - t < gap then
    id, last, entry, attrs, started = s[1], s[2], s[3], s[4], 0
    if t > tonumber(last) then last = ts end
    if not entry and pageview then entry = page end
  else
    id, last, attrs, started = ARGV[a + 4], ts, ARGV[a + 5], 1
    entry = pageview and page or false
  end
  if started == 0 and from == key then
    -- The session goes on under its key: only what changed is written.
    if last ~= s[2] and entry ~= s[3] then redis.call('HSET', key, 'last', last, 'entry', entry)
    elseif last ~= s[2] then redis.call('HSET', key, 'last', last)
    elseif entry ~= s[3] then redis.call('HSET', key, 'entry', entry) end
  else
    if s[1] then redis.call('DEL', from) end
    if entry then
      redis.call('HSET', key, 'id', id, 'last', last, 'entry', entry, 'attrs', attrs)
    else
      redis.call('HSET', key, 'id', id, 'last', last, 'attrs', attrs)
    end
  end
  redis.call('PEXPIRE', key, expiry)
  out[i] = { started, id, last, entry, attrs }
end
return out
`,
};

type TouchReply = [started: number, id: string, last: string, entry: string | null, attrs: string];

export class RedisLiveSessions implements LiveSessionStore {
  private readonly batch: ScriptBatch<TouchReply>;

  /**
   * Keys are `prefix` + the visitor id. While Redis does not answer, `fallback` sessionizes the
   * events of this process on its own (as the embedded profile does), and `onUnavailable` counts it.
   */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly fallback: SessionCache,
    private readonly onUnavailable: (err: unknown) => void,
    maxBatch?: number,
  ) {
    this.batch = new ScriptBatch(redis, TOUCH_SESSIONS, [SESSION_GAP_MS, SESSION_GAP_MS + EXPIRY_SLACK_MS], maxBatch);
  }

  touch(
    visitorId: bigint,
    previousVisitorId: bigint | undefined,
    ts: number,
    page: string,
    isPageview: boolean,
    start: () => SessionAttributes,
  ): Promise<SessionDecision> {
    // The script decides whether the session starts; the candidate's attributes go with every touch.
    const attrs = start();
    const key = this.prefix + visitorId;
    const previous = previousVisitorId === undefined ? key : this.prefix + previousVisitorId;
    const args = [String(ts), page, isPageview ? 1 : 0, randomId64().toString(), JSON.stringify(attrs)];
    return this.batch.call([key, previous], args).then(
      ([started, id, last, entry, attrsJson]) => ({
        session: { sessionId: BigInt(id), lastTs: Number(last), entryPage: entry, attrs: started === 1 ? attrs : (JSON.parse(attrsJson) as SessionAttributes) },
        started: started === 1,
      }),
      (err: unknown) => {
        this.onUnavailable(err);
        return this.fallback.touch(visitorId, previousVisitorId, ts, page, isPageview, () => attrs);
      },
    );
  }

  /** Redis expires its keys; the fallback sessions are swept. */
  sweep(now: number): void {
    this.fallback.sweep(now);
  }
}
