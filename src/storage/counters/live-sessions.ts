// The live-session port: a visitor's open session, shared by every path that collects for it. Its
// implementations are the in-process SessionCache (memory-sessions.ts) and Redis
// (redis-sessions.ts); test/storage/live-sessions.contract.test.ts holds both to one semantics.
import type { MaybePromise } from '../../core/clock.js';
import { DIMENSIONS, isAttributeDimension, storedField, type AttributeDimension, type StoredField } from '../../core/vocabulary.js';

/** A live session's attributes: the keys its first event sets for each AttributeDimension, by stored field. */
export type SessionAttributes = { [D in AttributeDimension as StoredField<D>]: string | null };

/** The fields of SessionAttributes, in the order of DIMENSIONS. */
export const SESSION_ATTRIBUTE_FIELDS: readonly (keyof SessionAttributes)[] = DIMENSIONS.filter(isAttributeDimension).map(storedField);

export interface LiveSession {
  sessionId: bigint;
  lastTs: number;
  entryPage: string | null;
  attrs: SessionAttributes;
}

/**
 * One event as the session store sees it. Enrichment (a collected event's or an imported line's)
 * builds it once per event; every store and admission passes it along as is, without copies.
 */
export interface SessionVisit {
  /** The visitor's id under today's salt. */
  visitorId: bigint;
  /** The visitor's id under yesterday's salt, for an event within the gap after local midnight. */
  previousVisitorId: bigint | undefined;
  /** The event's instant (ms since the epoch). */
  ts: number;
  /** The event's page path. */
  page: string;
  /** Whether the event is a pageview (only a pageview sets a session's entry page). */
  isPageview: boolean;
  /**
   * The session's name when an import line gives one (its `session`, e.g. Umami's visit): an event
   * naming another session than the visitor's open one starts a new session however soon after it,
   * and one naming the open session goes on with it however long since its last event. Collected
   * events name none (null or absent): only an import's own store (SessionCache) is given names.
   */
  session?: string | null;
  /** A new session's attributes, computed only when the event starts one. */
  start: () => SessionAttributes;
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
   * The open session of a visitor (under `visit.visitorId`, or under `visit.previousVisitorId`,
   * yesterday's id, for a session that crosses local midnight: it goes on under `visitorId`), or a
   * new one with the attributes of `visit.start()`.
   */
  touch(visit: SessionVisit): MaybePromise<SessionDecision>;
  /** Lets go of sessions idle for longer than the gap at `now` (where the store does not expire them itself). */
  sweep(now: number): void;
  /** Sessions this process holds open (the in-process store; a shared store does not count them). */
  readonly size?: number;
}
