// A settlement: the raw days after a site's watermark counted ahead of the reads, up to an instant
// (`cut`), so that a read of those days (today, on a busy site) adds up a few rows per session
// instead of grouping every event by session. docs/api.md, "How answers are computed".
//
// Every measure of a day is a sum over its sessions, or the distinct visitors of its rows: a session
// whose last event came `SESSION_GAP_MS` before the cut has ended for good (a later event starts a
// new session), so its rows (SETTLED_SESSIONS: one per session and day, as session rows) are final.
// A read takes them for the settled sessions and groups the events from `openFrom` (the first event
// of every session still open at the cut) for the others: those whose last event is less than the
// gap before the cut. Goal conversions need no sessions: SETTLED_GOALS holds each goal's
// conversions per day and visitor up to the cut, and a read adds the events from the cut on.
//
// A settlement is exact only while the rows and the events it counted are what it says: a read
// checks both (`settlementCheckStatement`: the events before the cut, the events and conversions
// its rows hold), beside its own statements, and reads raw events alone where they differ (events
// written late with an earlier instant, as a spool drains or an import adds today's; rows replaced
// by a newer settlement while the read ran).
import type { Period } from '../core/period.js';
import type { GoalRef } from './compile.js';

/** How long before a run its cut lies: events reach storage within the write buffer's flush (1 s) and a margin. */
export const SETTLE_LAG_MS = 2 * 60_000;
/**
 * The fewest events before the cut for which a site's raw days are settled: below them a read groups
 * its events in a few milliseconds, and a settlement would cost the site writes every run for nothing.
 */
export const SETTLE_MIN_EVENTS = 10_000;

export interface Settlement {
  /** The instant (ms) up to which the rows count events. */
  readonly cut: number;
  /** The first event of the sessions open at the cut (at most cut − SESSION_GAP_MS): reads group the events from it on. */
  readonly openFrom: number;
  /** The raw days the rows cover (the watermark's next day to the cut's day). */
  readonly days: Period;
  /** The site's events of those days before the cut. */
  readonly events: number;
  /** The events the settled sessions' rows hold. */
  readonly sessionEvents: number;
  /** The conversions the settled goals' rows hold. */
  readonly conversions: number;
  /** The goals counted, as defined at the cut: a goal defined otherwise now is read from raw events. */
  readonly goals: readonly GoalRef[];
}

export function parseSettlement(text: string | null | undefined): Settlement | null {
  return text ? (JSON.parse(text) as Settlement) : null;
}

/** The goals of `goals` that a settlement counted, as they are defined now. */
export function settledGoals(s: Settlement, goals: readonly GoalRef[]): GoalRef[] {
  const counted = new Set(s.goals.map(goalDefinition));
  return goals.filter((g) => counted.has(goalDefinition(g)));
}

/** A goal's identity and everything that decides what it counts. */
function goalDefinition(g: GoalRef): string {
  return JSON.stringify([g.goalId, g.kind, g.pattern, g.props ?? null, g.currency ?? null]);
}
