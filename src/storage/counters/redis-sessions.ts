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
import { TOUCH, type ScriptBatch, type TouchReply } from './script-batch.js';

export class RedisLiveSessions implements LiveSessionStore {
  /**
   * Keys are the batch's session key prefix + the visitor id. `local` holds the sessions Redis
   * answered; while Redis does not answer it sessionizes the events of this process on its own (as
   * the embedded profile does), and `onUnavailable` counts it.
   */
  constructor(
    private readonly batch: ScriptBatch,
    private readonly local: SessionCache,
    private readonly onUnavailable: (err: unknown) => void,
  ) {}

  touch(visit: SessionVisit): Promise<SessionDecision> {
    return this.sent(visit, false, 0, '', null) as Promise<SessionDecision>;
  }

  /** An admission in one call: the hit of `window`, then the touch when it counted. */
  admission(window: RedisWindow, onLimitUnavailable: (err: unknown) => void): Admission {
    const number = this.batch.window(window.prefix, window.limit, window.windowMs);
    return { admit: (rateKey, visit) => this.sent(visit, false, number, rateKey, onLimitUnavailable) };
  }

  /** Redis expires its keys; the local copies and fallback sessions are swept. */
  sweep(now: number): void {
    this.local.sweep(now);
  }

  /**
   * Puts the visit's touch in the batch (an admission's, with the hit of `rateKey` in window number
   * `window`, when not 0), and answers its decision; null when the hit is over the limit. Within the
   * gap of the session this process knows for the visitor, no attributes are computed (unless
   * `withAttributes`): the session goes on, or Redis asks for them.
   */
  private sent(
    visit: SessionVisit,
    withAttributes: boolean,
    window: number,
    rateKey: string,
    onLimitUnavailable: ((err: unknown) => void) | null,
  ): Promise<SessionDecision | null> {
    const { visitorId, previousVisitorId, ts } = visit;
    const known = this.local.peek(visitorId);
    const goesOn = !withAttributes && known !== undefined && ts - known.lastTs < SESSION_GAP_MS && known.lastTs - ts < SESSION_GAP_MS;
    const attrs = goesOn ? null : visit.start();
    const previous = previousVisitorId === undefined ? '' : previousVisitorId.toString();
    const page = visit.isPageview ? visit.page : '';
    // Without attributes the call starts no session: it needs no candidate id either.
    const id = attrs ? randomId64().toString() : '';
    const attrsJson = attrs ? JSON.stringify(attrs) : '';
    const knownId = known ? known.sessionId.toString() : '';
    const index =
      window !== 0
        ? this.batch.admit(window, rateKey, visitorId.toString(), previous, ts, page, id, attrsJson, knownId)
        : this.batch.touch(visitorId.toString(), previous, ts, page, id, attrsJson, knownId);
    return this.batch.results.then(
      (results) => this.decided(results[index] as TouchReply, visit, attrs, known),
      (err: unknown) => {
        onLimitUnavailable?.(err);
        return this.fellBack(err, visit, attrs);
      },
    );
  }

  private decided(
    [started, id, last, entry, attrsJson]: TouchReply,
    visit: SessionVisit,
    attrs: SessionAttributes | null,
    known: LiveSession | undefined,
  ): SessionDecision | null | Promise<SessionDecision | null> {
    if (started === TOUCH.limited) return null;
    // Redis no longer holds the known session (evicted): a new one starts, with attributes.
    if (started === TOUCH.needsAttributes) return this.sent(visit, true, 0, '', null);
    const sessionAttrs = started === TOUCH.started ? attrs! : attrsJson === '' ? known!.attrs : (JSON.parse(attrsJson!) as SessionAttributes);
    // An id of '' is the known session's.
    const sessionId = id === '' ? known!.sessionId : BigInt(id!);
    // A `last` of '' is the event's instant.
    const session = this.local.remember(visit.visitorId, sessionId, last === '' ? visit.ts : Number(last), entry || null, sessionAttrs);
    return { session, started: started === TOUCH.started };
  }

  private fellBack(err: unknown, visit: SessionVisit, attrs: SessionAttributes | null): SessionDecision {
    this.onUnavailable(err);
    // The attributes already computed for the call are reused (a copy of the visit only when Redis does not answer).
    return this.local.touch(attrs ? { ...visit, start: () => attrs } : visit);
  }
}
