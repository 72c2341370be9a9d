// A settlement: the raw days after a site's watermark counted ahead of the reads, up to an instant
// (`cut`), so that a read of those days (today, on a busy site) adds up its rows and the last
// minutes' events instead of grouping every event of the day by session. docs/read-path.md,
// "Settlements".
//
// A session whose last event came `SESSION_GAP_MS` before the cut has ended for good (a later event
// starts a new session): the settlement's rows (src/stats/rollups/tables.ts, SETTLED_TABLES) hold
// one row per such session and day, as session rows do, and each visitor's goal conversions before
// the cut. A read adds, from raw events, the sessions still open at the cut (grouping the events
// from `openFrom`, the first event of any of them) and the conversions after it.
//
// A settlement is exact while the events before its cut and its rows are those it counted: beside
// each settled read, both are counted as they stand (`settlementCheckStatement`), and the read made
// again from raw events alone where either differs (an event stored late with an earlier instant, as
// a spool drains or an import adds today's; rows a newer settlement's run removed). A replaced
// settlement's rows stay SETTLED_ROWS_GRACE_MS, so that the reads that began with it find them.
import type { Period } from '../core/period.js';
import type { GoalRef } from '../entities/goals.js';

/** How long before a run its cut lies: events reach storage within the write buffer's flush (1 s) and a margin. */
export const SETTLE_LAG_MS = 2 * 60_000;
/**
 * The fewest events before the cut for which a site's raw days are settled: below them a read groups
 * its events in a few milliseconds, and a settlement would cost the site writes every run for nothing.
 */
export const SETTLE_MIN_EVENTS = 10_000;
/** How long a replaced settlement's rows stay: a read that found it in the rollup state has long finished. */
export const SETTLED_ROWS_GRACE_MS = 5 * 60_000;
/** The column that holds the site's events before a settlement's cut, as they stand. */
export const HELD_EVENTS = 'held_events';
/** The column that holds a settlement's rows, as they stand. */
export const HELD_ROWS = 'held_rows';
/**
 * The most of the events before the cut that the sessions open at it may hold (from `openFrom`) for
 * the settlement to be kept: past it (a session kept open for hours pins `openFrom` early), a settled
 * read would group nearly as many events as a raw one, and add the rows.
 */
export const SETTLE_MAX_OPEN_SHARE = 0.5;

export interface Settlement {
  /** The instant (ms) up to which the rows count events. */
  readonly cut: number;
  /** The first event of the sessions open at the cut (at most cut − SESSION_GAP_MS): reads group the events from it on. */
  readonly openFrom: number;
  /** The raw days the rows cover (the watermark's next day to the cut's day). */
  readonly days: Period;
  /** The site's events of those days before the cut. */
  readonly events: number;
  /** Its rows, in every table of SETTLED_TABLES. */
  readonly rows: number;
  /** The goals counted, as defined at the cut: a goal defined otherwise now is read from raw events. */
  readonly goals: readonly GoalRef[];
}

/** What a site's rollup state keeps of its settlements (JSON): the current one, and the replaced ones whose rows remain. */
export interface Settlements {
  readonly current: Settlement | null;
  /** Each replaced settlement's cut, and when it was replaced. */
  readonly retired: ReadonlyArray<{ readonly cut: number; readonly at: number }>;
}

export function parseSettlements(text: string | null | undefined): Settlements {
  return text ? (JSON.parse(text) as Settlements) : { current: null, retired: [] };
}

/** Whether a settlement's check (one row: its events before the cut and its rows, as they stand) finds what it counted. */
export function settlementHeld(s: Settlement, check: ReadonlyArray<Record<string, unknown>>): boolean {
  const [found] = check;
  return check.length === 1 && Number(found![HELD_EVENTS]) === s.events && Number(found![HELD_ROWS]) === s.rows;
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
