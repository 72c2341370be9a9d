// Live sessions: events of one visitor on one site with gaps under 30 minutes. The cache maps a
// visitor to its open session; a session carries the attributes of its first event, which every
// later event of the session is stored with.
import { LRUCache } from 'lru-cache';
import { randomId64 } from '../core/ids.js';

export const SESSION_GAP_MS = 30 * 60_000;

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

/** Rough heap size of a live session: fixed part plus its strings (UTF-16). */
function sessionBytes(s: LiveSession): number {
  let chars = s.entryPage?.length ?? 0;
  for (const v of Object.values(s.attrs)) chars += v?.length ?? 0;
  return 240 + 2 * chars;
}

export class SessionCache {
  private readonly live: LRUCache<string, LiveSession>;

  constructor(maxSessions = 200_000, maxBytes = 96 * 1024 * 1024) {
    // Bounded in count and in (estimated) bytes: under a flood of distinct visitors with long
    // values the least recently seen sessions are cut short rather than memory running out.
    this.live = new LRUCache({ max: maxSessions, maxSize: maxBytes, sizeCalculation: sessionBytes });
  }

  get size(): number {
    return this.live.size;
  }

  /**
   * Finds the open session of a visitor (under today's visitor id, or under yesterday's for a
   * session that crosses local midnight), or starts one with the attributes `start()` computes.
   * Enrichment runs only for new sessions: later events reuse the first event's values.
   */
  touch(
    site: string,
    visitorId: bigint,
    previousVisitorId: bigint | undefined,
    ts: number,
    page: string,
    isPageview: boolean,
    start: () => SessionAttributes,
  ): SessionDecision {
    const key = `${site}:${visitorId}`;
    let session = this.live.get(key);
    if (!session && previousVisitorId !== undefined) {
      const prevKey = `${site}:${previousVisitorId}`;
      session = this.live.get(prevKey);
      if (session) this.live.delete(prevKey);
    }
    if (session && ts - session.lastTs < SESSION_GAP_MS && session.lastTs - ts < SESSION_GAP_MS) {
      session.lastTs = Math.max(session.lastTs, ts);
      if (session.entryPage === null && isPageview) session.entryPage = page;
      this.live.set(key, session);
      return { session, started: false };
    }
    const fresh: LiveSession = { sessionId: randomId64(), lastTs: ts, entryPage: isPageview ? page : null, attrs: start() };
    this.live.set(key, fresh);
    return { session: fresh, started: true };
  }

  /** Drops sessions idle for longer than the gap (they can only end). */
  sweep(now: number): void {
    for (const [key, s] of this.live.entries()) if (now - s.lastTs >= SESSION_GAP_MS) this.live.delete(key);
  }
}
