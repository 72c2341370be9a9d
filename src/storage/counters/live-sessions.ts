// The live-session port: a visitor's open session, shared by every path that collects for it. Its
// implementations are the in-process SessionCache (memory-sessions.ts) and Redis
// (redis-sessions.ts); test/storage/live-sessions.contract.test.ts holds both to one semantics.
import type { MaybePromise } from '../../core/clock.js';

export interface SessionAttributes {
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
}

export interface LiveSession {
  sessionId: bigint;
  lastTs: number;
  entryPage: string | null;
  attrs: SessionAttributes;
}

export interface SessionDecision {
  session: LiveSession;
  started: boolean;
}

/**
 * Open sessions by visitor id. A session goes on while events come less than SESSION_GAP_MS
 * apart (either way in time: an out-of-order event within the gap belongs to it); `lastTs` is the
 * latest instant seen. Its entry page is its first pageview's page; its attributes are those
 * `start()` computed for its first event.
 */
export interface LiveSessionStore {
  /**
   * The open session of a visitor (under `visitorId`, or under `previousVisitorId`, yesterday's id,
   * for a session that crosses local midnight: it goes on under `visitorId`), or a new one with the
   * attributes of `start()`.
   */
  touch(
    visitorId: bigint,
    previousVisitorId: bigint | undefined,
    ts: number,
    page: string,
    isPageview: boolean,
    start: () => SessionAttributes,
  ): MaybePromise<SessionDecision>;
  /** Lets go of sessions idle for longer than the gap at `now` (where the store does not expire them itself). */
  sweep(now: number): void;
  /** Sessions this process holds open (the in-process store; a shared store does not count them). */
  readonly size?: number;
}
