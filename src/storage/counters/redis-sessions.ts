// Live sessions in Redis, shared by every collect process: a hash per open session under its
// visitor's key (`id`, `last`, `entry` when the session has had a pageview, `attrs` as JSON). One
// Lua call decides each touch atomically, so events of one visitor reaching two processes form one
// session; the touches (and admissions: a rate-limit hit and a touch in one call) of one turn of the
// event loop travel in that turn's EVALSHA (script-batch.ts).
//
// The process keeps a copy of the sessions Redis answered it (in the SessionCache it falls back on
// while Redis does not answer): an event within the gap of its visitor's known session goes on
// with it unless Redis lost the key, so its candidate attributes are neither computed nor sent, and
// Redis answers the known session's attributes by its id alone. Enrichment runs for the events that
// may start a session: the first this process sees of a visitor, and those past its known gap.
import { randomId64 } from '../../core/ids.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import type { Admission } from './admission.js';
import type { LiveSession, LiveSessionStore, SessionAttributes, SessionDecision, SessionVisit } from './live-sessions.js';
import type { SessionCache } from './memory-sessions.js';
import type { RedisWindow } from './redis-rate-limiter.js';
import { OP, TOUCH, type ScriptBatch } from './script-batch.js';

type TouchReply = [started: number, id?: string, last?: string, entry?: string | null, attrs?: string];

/** One touch as sent: its keys and arguments, the attributes it brought and the session it named as known. */
interface TouchCall {
  keys: string[];
  args: string[];
  attrs: SessionAttributes | null;
  known: LiveSession | undefined;
}

export class RedisLiveSessions implements LiveSessionStore {
  /**
   * Keys are `prefix` + the visitor id. `local` holds the sessions Redis answered; while Redis does
   * not answer it sessionizes the events of this process on its own (as the embedded profile does),
   * and `onUnavailable` counts it.
   */
  constructor(
    private readonly batch: ScriptBatch,
    private readonly prefix: string,
    private readonly local: SessionCache,
    private readonly onUnavailable: (err: unknown) => void,
  ) {}

  touch(visit: SessionVisit): Promise<SessionDecision> {
    const call = this.touchCall(visit, false);
    return this.batch.call<TouchReply>(OP.touch, call.keys, call.args).then(
      (reply) => this.decided(reply, call, visit),
      (err: unknown) => this.fellBack(err, call, visit),
    );
  }

  /** An admission in one call: the hit of `window`, then the touch when it counted. */
  admission(window: RedisWindow, onLimitUnavailable: (err: unknown) => void): Admission {
    return {
      admit: (rateKey, visit) => {
        const call = this.touchCall(visit, false);
        return this.batch
          .call<TouchReply>(OP.admit, [window.prefix + rateKey, ...call.keys], [window.limit, window.windowMs, String(visit.ts), ...call.args])
          .then(
            (reply) => (reply[0] === TOUCH.limited ? null : this.decided(reply, call, visit)),
            (err: unknown) => {
              onLimitUnavailable(err);
              return this.fellBack(err, call, visit);
            },
          );
      },
    };
  }

  /** Redis expires its keys; the local copies and fallback sessions are swept. */
  sweep(now: number): void {
    this.local.sweep(now);
  }

  /**
   * A touch's keys and arguments. Within the gap of the session this process knows for the visitor,
   * no attributes are computed (unless `withAttributes`): the session goes on, or Redis asks for them.
   */
  private touchCall({ visitorId, previousVisitorId, ts, page, isPageview, start }: SessionVisit, withAttributes: boolean): TouchCall {
    const key = this.prefix + visitorId;
    const known = this.local.peek(visitorId);
    const goesOn = !withAttributes && known !== undefined && ts - known.lastTs < SESSION_GAP_MS && known.lastTs - ts < SESSION_GAP_MS;
    const attrs = goesOn ? null : start();
    return {
      keys: [key, previousVisitorId === undefined ? key : this.prefix + previousVisitorId],
      // Without attributes the call starts no session: it needs no candidate id either.
      args: [String(ts), page, isPageview ? '1' : '0', attrs ? randomId64().toString() : '', attrs ? JSON.stringify(attrs) : '', known ? known.sessionId.toString() : ''],
      attrs,
      known,
    };
  }

  private decided(
    [started, id, last, entry, attrsJson]: TouchReply,
    call: TouchCall,
    visit: SessionVisit,
  ): SessionDecision | Promise<SessionDecision> {
    if (started === TOUCH.needsAttributes) {
      // Redis no longer holds the known session (evicted): a new one starts, with attributes.
      const retry = this.touchCall(visit, true);
      return this.batch.call<TouchReply>(OP.touch, retry.keys, retry.args).then(
        (reply) => this.decided(reply, retry, visit),
        (err: unknown) => this.fellBack(err, retry, visit),
      );
    }
    const attrs = started === TOUCH.started ? call.attrs! : attrsJson === '' ? call.known!.attrs : (JSON.parse(attrsJson!) as SessionAttributes);
    // The known session's id was sent as the touch's last argument.
    const sessionId = call.known !== undefined && id === call.args[5] ? call.known.sessionId : BigInt(id!);
    const session = this.local.remember(visit.visitorId, { sessionId, lastTs: Number(last), entryPage: entry ?? null, attrs });
    return { session, started: started === TOUCH.started };
  }

  private fellBack(err: unknown, call: TouchCall, visit: SessionVisit): SessionDecision {
    this.onUnavailable(err);
    const attrs = call.attrs;
    // The attributes already computed for the call are reused (a copy of the visit only when Redis does not answer).
    return this.local.touch(attrs ? { ...visit, start: () => attrs } : visit);
  }
}
