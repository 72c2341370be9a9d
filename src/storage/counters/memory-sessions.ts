// Live sessions in process: events of one visitor on one site with gaps under 30 minutes. The cache
// maps a visitor to its open session; a session carries the attributes of its first event, which
// every later event of the session is stored with.
import { randomId64 } from '../../core/ids.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import type { LiveSession, LiveSessionStore, SessionAttributes, SessionDecision, SessionVisit } from './live-sessions.js';

/**
 * Heap a live session holds besides its strings: its entry in the cache's Map, the visitor-id key,
 * the session object, its id and its attributes object. bench/session-memory measures 268 bytes
 * with the strings shared; the Map's table grows by doubling, so the share of it varies.
 */
const SESSION_FIXED_BYTES = 300;

/**
 * What the byte bound counts for a session: the fixed part, and its strings as if it held them
 * alone (one byte a character, as V8 keeps Latin-1 text). Values shared with other sessions are
 * counted for each, so the bound overstates the memory rather than understating it.
 */
function sessionBytes(s: LiveSession): number {
  let chars = s.entryPage?.length ?? 0;
  for (const v of Object.values(s.attrs)) chars += v?.length ?? 0;
  return SESSION_FIXED_BYTES + chars;
}

/** Distinct attribute values kept for sharing, and their characters; past either the table starts over. */
const MAX_SHARED_VALUES = 50_000;
const MAX_SHARED_CHARS = 2 * 1024 * 1024;
/** The most the shared-values table holds: its strings, and about 40 bytes an entry. */
export const SHARED_VALUES_BYTES = MAX_SHARED_CHARS + 40 * MAX_SHARED_VALUES;

/**
 * One copy of each attribute value for every session that has it: a country, a browser, a referrer
 * host repeat across visitors, and each lookup or parse makes a new string.
 */
class SharedValues {
  private readonly values = new Map<string, string>();
  private chars = 0;

  share(value: string | null): string | null {
    if (value === null) return null;
    const kept = this.values.get(value);
    if (kept !== undefined) return kept;
    if (this.values.size >= MAX_SHARED_VALUES || this.chars + value.length > MAX_SHARED_CHARS) {
      this.values.clear();
      this.chars = 0;
    }
    // A value longer than the whole table is not kept.
    if (value.length <= MAX_SHARED_CHARS) {
      this.values.set(value, value);
      this.chars += value.length;
    }
    return value;
  }

  attributes(a: SessionAttributes): SessionAttributes {
    return {
      referrer: this.share(a.referrer),
      utmSource: this.share(a.utmSource),
      utmMedium: this.share(a.utmMedium),
      utmCampaign: this.share(a.utmCampaign),
      country: this.share(a.country),
      region: this.share(a.region),
      city: this.share(a.city),
      browser: this.share(a.browser),
      os: this.share(a.os),
      device: this.share(a.device),
    };
  }
}

/**
 * Open sessions by visitor id, least recently seen first. Visitor ids hash the site in, so they
 * key sessions of every site at once (two sites' visitors share an id only as often as two
 * visitors of one site do: one chance in 2^64 a pair).
 */
export class SessionCache implements LiveSessionStore {
  // A Map iterates in insertion order: a session seen again is moved to the end, so the first
  // entry is always the least recently seen, the one evicted when a bound is reached.
  private readonly live = new Map<bigint, LiveSession & { bytes: number }>();
  private readonly shared = new SharedValues();
  private bytes = 0;

  /**
   * Bounded in count and in (estimated) bytes: past either, the least recently seen sessions are cut
   * short. The live cache has its share of SVC_MEMORY_BUDGET_MB (less the shared-values table), an
   * import's cache its number of lines.
   */
  constructor(bounds: { maxBytes?: number; maxSessions?: number }) {
    this.maxBytes = bounds.maxBytes ?? Infinity;
    this.maxSessions = bounds.maxSessions ?? Infinity;
    this.maxSessionBytes = this.maxBytes - SHARED_VALUES_BYTES;
  }

  /** The byte bound (Infinity: none), the shared-values table included. */
  readonly maxBytes: number;
  private readonly maxSessions: number;
  private readonly maxSessionBytes: number;

  get size(): number {
    return this.live.size;
  }

  /** What the byte bound counts: the estimated heap of the open sessions. */
  get estimatedBytes(): number {
    return this.bytes;
  }

  /**
   * Finds the open session of a visitor (under today's visitor id, or under yesterday's for a
   * session that crosses local midnight), or starts one with the attributes `start()` computes.
   * Enrichment runs only for new sessions: later events reuse the first event's values.
   */
  touch({ visitorId, previousVisitorId, ts, page, isPageview, start }: SessionVisit): SessionDecision {
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
        session.entryPage = this.shared.share(page);
        this.bytes += 2 * page.length;
        session.bytes += 2 * page.length;
      }
      this.live.set(visitorId, session);
      this.evict();
      return { session, started: false };
    }
    if (session) this.remove(key, session);
    const fresh = { sessionId: randomId64(), lastTs: ts, entryPage: isPageview ? this.shared.share(page) : null, attrs: this.shared.attributes(start()), bytes: 0 };
    fresh.bytes = sessionBytes(fresh);
    this.bytes += fresh.bytes;
    this.live.set(visitorId, fresh);
    this.evict();
    return { session: fresh, started: true };
  }

  /** The visitor's session as held, without moving it (for a store this cache mirrors). */
  peek(visitorId: bigint): LiveSession | undefined {
    return this.live.get(visitorId);
  }

  /**
   * Holds the session a shared store (Redis) decided, as the visitor's open session: the same
   * session held already takes its latest instant and entry page, another one is replaced. Answers
   * the session as held (its values shared).
   */
  remember(visitorId: bigint, sessionId: bigint, lastTs: number, entryPage: string | null, attrs: SessionAttributes): LiveSession {
    const held = this.live.get(visitorId);
    if (held !== undefined && held.sessionId === sessionId) {
      held.lastTs = lastTs;
      if (held.entryPage !== entryPage) {
        const grown = 2 * ((entryPage?.length ?? 0) - (held.entryPage?.length ?? 0));
        held.entryPage = this.shared.share(entryPage);
        this.bytes += grown;
        held.bytes += grown;
      }
      this.live.delete(visitorId);
      this.live.set(visitorId, held);
      return held;
    }
    if (held !== undefined) this.remove(visitorId, held);
    const fresh = { sessionId, lastTs, entryPage: this.shared.share(entryPage), attrs: this.shared.attributes(attrs), bytes: 0 };
    fresh.bytes = sessionBytes(fresh);
    this.bytes += fresh.bytes;
    this.live.set(visitorId, fresh);
    this.evict();
    return fresh;
  }

  private remove(key: bigint, session: { bytes: number }): void {
    this.live.delete(key);
    this.bytes -= session.bytes;
  }

  private evict(): void {
    while (this.live.size > this.maxSessions || this.bytes > this.maxSessionBytes) {
      const [key, oldest] = this.live.entries().next().value!;
      this.remove(key, oldest);
    }
  }

  /**
   * Drops sessions idle for longer than the gap (they can only end). Events arrive in time order
   * (the server's clock; an import sorts its lines), so the least recently seen sessions are also
   * the longest idle: the sweep stops at the oldest session still open.
   */
  sweep(now: number): void {
    for (const [key, s] of this.live) {
      if (now - s.lastTs < SESSION_GAP_MS) break;
      this.remove(key, s);
    }
  }
}
