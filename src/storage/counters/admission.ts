// Collection's admission of an event: its rate-limit hit and, when the hit counts, its session
// touch. In process the two are the window's and the session store's own calls, one after the
// other; in Redis (redis-sessions.ts) one call of the turn's script does both, so an event costs one
// round trip, shared with the turn's other events. test/storage/admission.contract.test.ts holds
// both to one semantics.
import { isPromise, type MaybePromise } from '../../core/clock.js';
import type { LiveSessionStore, SessionDecision, SessionVisit } from './live-sessions.js';
import type { RateLimiter } from './rate-limiter.js';

export interface Admission {
  /**
   * Hits the rate limit's `rateKey` at `visit.ts`; over the limit answers null (the hit is not
   * counted and no session is touched), else the visitor's session as LiveSessionStore.touch decides it.
   */
  admit(rateKey: string, visit: SessionVisit): MaybePromise<SessionDecision | null>;
}

/** An admission from a rate limiter and a session store of their own (in process). */
export class SeparateAdmission implements Admission {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly sessions: LiveSessionStore,
  ) {}

  admit(rateKey: string, visit: SessionVisit): MaybePromise<SessionDecision | null> {
    const counted = this.limiter.hit(rateKey, visit.ts);
    if (isPromise(counted)) return counted.then((c) => (c ? this.sessions.touch(visit) : null));
    return counted ? this.sessions.touch(visit) : null;
  }
}
