// Live sessions: events of one visitor on one site with gaps under 30 minutes. The cache maps a
// visitor to its open session; a session carries the attributes of its first event, which every
// later event of the session is stored with.
import { randomId64 } from '../core/ids.js';
import { SESSION_GAP_MS } from '../core/session-gap.js';

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

/**
 * Open sessions by visitor id, least recently seen first. Visitor ids hash the site in, so they
 * key sessions of every site at once (two sites' visitors share an id only as often as two
 * visitors of one site do: one chance in 2^64 a pair).
 */
export class SessionCache {
  // A Map iterates in insertion order: a session seen again is moved to the end, so the first
  // entry is always the least recently seen, the one evicted when a bound is reached.
  private readonly live = new Map<bigint, LiveSession & { bytes: number }>();
  private bytes = 0;

  // Bounded in count and in (estimated) bytes: under a flood of distinct visitors with long values
  // the least recently seen sessions are cut short rather than memory running out.
  constructor(
    private readonly maxSessions = 200_000,
    private readonly maxBytes = 96 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /**
   * Finds the open session of a visitor (under today's visitor id, or under yesterday's for a
   * session that crosses local midnight), or starts one with the attributes `start()` computes.
   * Enrichment runs only for new sessions: later events reuse the first event's values.
   */
  touch(
    visitorId: bigint,
    previousVisitorId: bigint | undefined,
    ts: number,
    page: string,
    isPageview: boolean,
    start: () => SessionAttributes,
  ): SessionDecision {
    let key = visitorId;
    let session = this.live.get(key);
    if (!session && previousVisitorId !== undefined) {
      session = this.live.get(previousVisitorId);
      if (session) key = previousVisitorId;
    }
    if (session && ts - session.lastTs < SESSION_GAP_MS && session.lastTs - ts < SESSION_GAP_MS) {
      session.lastTs = Math.max(session.lastTs, ts);
      this.live.delete(key);
      if (session.entryPage === null && isPageview) {
        session.entryPage = page;
        this.bytes += 2 * page.length;
        session.bytes += 2 * page.length;
      }
      this.live.set(visitorId, session);
      this.evict();
      return { session, started: false };
    }
    if (session) this.remove(key, session);
    const fresh = { sessionId: randomId64(), lastTs: ts, entryPage: isPageview ? page : null, attrs: start(), bytes: 0 };
    fresh.bytes = sessionBytes(fresh);
    this.bytes += fresh.bytes;
    this.live.set(visitorId, fresh);
    this.evict();
    return { session: fresh, started: true };
  }

  private remove(key: bigint, session: { bytes: number }): void {
    this.live.delete(key);
    this.bytes -= session.bytes;
  }

  private evict(): void {
    while (this.live.size > this.maxSessions || this.bytes > this.maxBytes) {
      const [key, oldest] = this.live.entries().next().value!;
      this.remove(key, oldest);
    }
  }

  /**
   * Drops sessions idle for longer than the gap (they can only end). Events arrive in time order
   * (the server's clock; an import sorts its lines), so the least recently seen sessions are also
   * the longest idle: the sweep stops at the first session still open.
   */
  sweep(now: number): void {
    for (const [key, s] of this.live) {
      if (now - s.lastTs < SESSION_GAP_MS) break;
      this.remove(key, s);
    }
  }
}
