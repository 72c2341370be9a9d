// Which days the goal and funnel rollups cover for each goal and funnel version, and the session
// rows and session paths for the site (docs/read-path.md, "New goals and funnel versions"). Later runs count a definition added after its site's first rollup for
// the days after the watermark; the rollup job (./backfill.ts) backfills the rolled-up days whose raw
// events the site still keeps, a bounded number of days per run; rolled-up days older than those
// cannot be recounted. The bookkeeping is part of the site's rollup state (`definitions`, JSON);
// the read side asks `countedSince`.
import { addDays } from '../../core/localtime.js';
import { funnelKey, goalKey } from '../../core/answer-headers.js';
import type { Matcher } from '../../core/patterns.js';
import type { RollupState } from '../../storage/meta/types.js';
import type { GoalRef } from '../../entities/goals.js';
import { rawWindowStart } from '../windows.js';
import type { Dimension } from '../../core/vocabulary.js';
import { CARRIED_DIMENSIONS, SESSION_DIMENSIONS } from './tables.js';

export interface FunnelRef {
  id: number;
  version: number;
  windowMinutes: number;
  steps: Matcher[];
}

/**
 * The goals and funnel versions of a site, which goal_daily and funnel_daily are computed for, and
 * the keys session rows and session paths are computed with (`sessionRows`, `sessionPaths`:
 * SESSION_ROWS_KEY and SESSION_PATHS_KEY, `true` for the first key set). Rollups computed before
 * them, or with another key set, are backfilled as a new definition's.
 */
export interface Definitions {
  goals: GoalRef[];
  funnels: FunnelRef[];
  sessionRows?: true | string;
  sessionPaths?: true | string;
  /** The key goal rows are computed with (GOAL_ROWS_KEY); absent in bookkeeping written before goal rows existed. */
  goalRows?: string;
}

/** The rolled-up days still to recount for definitions added after them; the latest days go first (`to` moves back). */
export interface Backfill {
  from: string;
  to: string;
  /** The definitions (`goalKey`, `funnelKey`) whose figures wait for it. */
  keys: string[];
}

/** What a site's goal and funnel rollups were computed for, kept as its rollup state's `definitions`. */
export interface ComputedDefinitions extends Definitions {
  backfill?: Backfill;
  /**
   * Per definition added after rolled-up days holding data: the first day it covers once
   * backfilled (the earliest raw day kept when the job first saw it), earlier rolled-up days
   * lacking it for good.
   */
  since?: Record<string, string>;
}

/**
 * The session-scoped dimensions session rows and paths were first written with, whose bookkeeping
 * says `true`: each dimension added since joins the key (`session-rows+<dimension>`), so that rows
 * written without its column are rewritten from raw events over the days those keep, and read from
 * raw events until they are (a column gained in place reads '0' or '', never `(none)`).
 */
const FIRST_SESSION_KEYS: readonly Dimension[] = ['entry', 'exit', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'region', 'city', 'browser', 'os', 'device'];
const keyOf = (table: string, dimensions: readonly Dimension[]) => [table, ...dimensions.filter((d) => !FIRST_SESSION_KEYS.includes(d))].join('+');

export const SESSION_ROWS_KEY = keyOf('session-rows', SESSION_DIMENSIONS);
export const SESSION_PATHS_KEY = keyOf('session-paths', CARRIED_DIMENSIONS);
export const GOAL_ROWS_KEY = keyOf('goal-rows', CARRIED_DIMENSIONS);
const keyAsKept = (kept: true | string, first: string) => (kept === true ? first : kept);

export function definitionKeys(defs: Definitions): string[] {
  return [
    ...defs.goals.map((g) => goalKey(g.goalId)),
    ...defs.funnels.map((f) => funnelKey(f.id, f.version)),
    ...(defs.sessionRows ? [keyAsKept(defs.sessionRows, 'session-rows')] : []),
    ...(defs.sessionPaths ? [keyAsKept(defs.sessionPaths, 'session-paths')] : []),
    ...(defs.goalRows ? [defs.goalRows] : []),
  ];
}

export function parseComputed(definitions: string): ComputedDefinitions {
  return JSON.parse(definitions) as ComputedDefinitions;
}

/**
 * The first day from which a definition's figures are complete, or null when they cover every day
 * of the site's data. A definition the job has not seen yet lacks every rolled-up day; one being
 * backfilled lacks the days still to recount.
 */
export function countedSince(state: RollupState | undefined, key: string): string | null {
  if (!state || state.watermark === null) return null;
  const computed = parseComputed(state.definitions);
  return pendingFrom(state.watermark, computed, key) ?? computed.since?.[key] ?? null;
}

/**
 * The first rolled-up day from which a definition's rollups (or the session rows) are written up
 * to the watermark, or null when every rolled-up day's are: days before it wait for the backfill,
 * or for the job's next run if it has not seen the definition yet. Days lost for good, which hold
 * no raw events either, do not count.
 */
export function writtenFrom(state: RollupState | undefined, key: string): string | null {
  if (!state || state.watermark === null) return null;
  return pendingFrom(state.watermark, parseComputed(state.definitions), key);
}

/**
 * The first rolled-up day from which goal rows are written for each of the goals, or null when
 * every rolled-up day's are: the goal rows' own backfill (a site rolled up before they existed), or
 * a goal's (one the job has not seen yet lacks every rolled-up day), leaves the days before it to
 * raw events.
 */
export function goalRowsWrittenFrom(state: RollupState | undefined, goalIds: readonly number[]): string | null {
  const from = [GOAL_ROWS_KEY, ...goalIds.map(goalKey)].map((key) => writtenFrom(state, key)).filter((day) => day !== null).sort();
  return from.at(-1) ?? null;
}

/** The first rolled-up day a definition still lacks (`writtenFrom`), from the parsed bookkeeping. */
function pendingFrom(watermark: string, computed: ComputedDefinitions, key: string): string | null {
  if (!definitionKeys(computed).includes(key)) return addDays(watermark, 1);
  if (computed.backfill?.keys.includes(key)) return addDays(computed.backfill.to, 1);
  return null;
}

/**
 * The first day whose raw events the retention task keeps: the raw window's (`rawDays`), earlier
 * while days after the watermark wait to be rolled up or rolled-up days wait for a backfill of new
 * goals or funnel versions. Null before the first rollup (nothing is cut).
 */
export function rawCut(state: RollupState | undefined, today: string, rawDays: number): string | null {
  if (!state?.watermark) return null;
  const backfillFrom = parseComputed(state.definitions).backfill?.from;
  return [addDays(state.watermark, 1), rawWindowStart(today, rawDays), ...(backfillFrom ? [backfillFrom] : [])].sort()[0]!;
}
