// Live sessions in process: events of one visitor on one site with gaps under 30 minutes. The cache
// maps a visitor to its open session; a session carries the attributes of its first event, which
// every later event of the session is stored with. An import's events may name their sessions
// (another tool's visits): those are held apart, by visitor and name.
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

/** The share of a bound the cache frees once it passed it (nothing more than the excess under 64 sessions): the least recently seen end in one batch. */
const EVICTED_SHARE = 1 / 64;

/** A session as the cache holds it, with its estimated bytes. */
type HeldSession = LiveSession & { bytes: number };

/**
 * How long a named session is held since its last event. A visitor's id lasts a site-local day (25
 * hours at most, on a clock change) and a session crosses midnight only within the gap: past this,
 * no event can go on with it. Unnamed sessions are held for the gap.
 */
export const NAMED_SESSION_HOLD_MS = 25 * 3_600_000 + SESSION_GAP_MS;

const withinGap = (session: HeldSession, ts: number) => ts - session.lastTs < SESSION_GAP_MS && session.lastTs - ts < SESSION_GAP_MS;
const always = () => true;

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
 * Open sessions by visitor id, least recently seen first; named sessions by visitor id and name.
 * Visitor ids hash the site in, so they key sessions of every site at once (two sites' visitors
 * share an id only as often as two visitors of one site do: one chance in 2^64 a pair).
 */
export class SessionCache implements LiveSessionStore {
  // A Map iterates in insertion order: a session seen again is moved to the end, so the first
  // entry is always the least recently seen, the one evicted when a bound is reached.
  private readonly live = new Map<bigint, HeldSession>();
  /** Named sessions (SessionVisit.session), by `<visitor id> <name>`: a visitor may have several open. */
  private readonly named = new Map<string, HeldSession>();
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
    return this.live.size + this.named.size;
  }

  /** What the byte bound counts: the estimated heap of the open sessions. */
  get estimatedBytes(): number {
    return this.bytes;
  }

  /**
   * Finds the open session of a visitor (under today's visitor id, or under yesterday's for a
   * session that crosses local midnight), or starts one with the attributes `start()` computes.
   * Enrichment runs only for new sessions: later events reuse the first event's values. A named
   * event finds the visitor's session of that name, whatever the time since its last event.
   */
  touch(visit: SessionVisit): SessionDecision {
    const name = visit.session;
    if (name === undefined || name === null) return this.touchIn(this.live, visit.visitorId, visit.previousVisitorId, visit, withinGap);
    const previous = visit.previousVisitorId === undefined ? undefined : `${visit.previousVisitorId} ${name}`;
    return this.touchIn(this.named, `${visit.visitorId} ${name}`, previous, visit, always);
  }

  /** The session under `key` (or `previousKey`) if `goesOn` with it, else a new one under `key`. */
  private touchIn<K>(map: Map<K, HeldSession>, key: K, previousKey: K | undefined, visit: SessionVisit, goesOn: (session: HeldSession, ts: number) => boolean): SessionDecision {
    const { ts, page, isPageview, start } = visit;
    let heldAt = key;
    let session = map.get(key);
    if (!session && previousKey !== undefined) {
      session = map.get(previousKey);
      if (session) heldAt = previousKey;
    }
    if (session && goesOn(session, ts)) {
      session.lastTs = Math.max(session.lastTs, ts);
      map.delete(heldAt);
      if (session.entryPage === null && isPageview) {
        session.entryPage = this.shared.share(page);
        this.bytes += 2 * page.length;
        session.bytes += 2 * page.length;
      }
      map.set(key, session);
      this.evict();
      return { session, started: false };
    }
    if (session) this.remove(map, heldAt, session);
    const fresh = { sessionId: randomId64(), lastTs: ts, entryPage: isPageview ? this.shared.share(page) : null, attrs: this.shared.attributes(start()), bytes: 0 };
    // A named session's key holds its name: counted as one of its strings.
    fresh.bytes = sessionBytes(fresh) + (typeof key === 'string' ? key.length : 0);
    this.bytes += fresh.bytes;
    map.set(key, fresh);
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
    if (held !== undefined) this.remove(this.live, visitorId, held);
    const fresh = { sessionId, lastTs, entryPage: this.shared.share(entryPage), attrs: this.shared.attributes(attrs), bytes: 0 };
    fresh.bytes = sessionBytes(fresh);
    this.bytes += fresh.bytes;
    this.live.set(visitorId, fresh);
    this.evict();
    return fresh;
  }

  private remove<K>(map: Map<K, HeldSession>, key: K, session: { bytes: number }): void {
    map.delete(key);
    this.bytes -= session.bytes;
  }

  /** Past a bound, the least recently seen session of either map goes. */
  /**
   * Past a bound, ends the least recently seen sessions until EVICTED_SHARE of it is free, in one walk of each
   * map: a Map keeps the holes of deleted entries at its front until it is rebuilt, so finding the
   * first entry anew for each eviction took time in the number of holes (400 000 one-event sessions
   * through a bound of 120 000 took 85 s; in batches, under 2 s).
   */
  private evict(): void {
    if (this.size <= this.maxSessions && this.bytes <= this.maxSessionBytes) return;
    const freed = (bound: number) => (Number.isFinite(bound) ? bound - Math.floor(bound * EVICTED_SHARE) : bound);
    const sessions = freed(this.maxSessions);
    const bytes = freed(this.maxSessionBytes);
    const open = this.live.entries();
    const named = this.named.entries();
    let nextOpen = open.next();
    let nextNamed = named.next();
    while (this.size > sessions || this.bytes > bytes) {
      if (!nextOpen.done && (nextNamed.done || nextOpen.value[1].lastTs <= nextNamed.value[1].lastTs)) {
        this.remove(this.live, nextOpen.value[0], nextOpen.value[1]);
        nextOpen = open.next();
      } else if (!nextNamed.done) {
        this.remove(this.named, nextNamed.value[0], nextNamed.value[1]);
        nextNamed = named.next();
      } else return;
    }
  }

  /**
   * Drops sessions idle for longer than the gap, named ones for longer than NAMED_SESSION_HOLD_MS
   * (they can only end). Events arrive in time order (the server's clock; an import sorts its
   * lines), so the least recently seen sessions are also the longest idle: each map's sweep stops
   * at its oldest session still held.
   */
  sweep(now: number): void {
    this.sweepIn(this.live, now, SESSION_GAP_MS);
    this.sweepIn(this.named, now, NAMED_SESSION_HOLD_MS);
  }

  private sweepIn<K>(map: Map<K, HeldSession>, now: number, hold: number): void {
    for (const [key, s] of map) {
      if (now - s.lastTs < hold) break;
      this.remove(map, key, s);
    }
  }
}
