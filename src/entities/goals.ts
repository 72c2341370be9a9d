// Goals and funnels of a site as stored (the MetaStore stores them: src/storage/meta/types.ts); what
// the APIs answer of them (steps, summaries, histories) is the vocabulary's.
import type { Matcher } from '../core/patterns.js';
import type { FunnelStep, GoalProps, MatchKind } from '../core/vocabulary.js';

export interface Goal {
  goalId: number;
  siteId: number; // internal
  name: string;
  kind: MatchKind;
  pattern: string;
  /** The property values an event goal also requires; null when none. */
  props: GoalProps | null;
  /** A revenue goal's currency (event goals only), null for other goals. */
  currency: string | null;
}

/** What the SQL builders need of a goal: its matcher, its id, its props and currency. */
export interface GoalRef extends Matcher {
  goalId: number;
  /** The property values an event goal also requires (absent or null: none). */
  props?: GoalProps | null | undefined;
  /** A revenue goal's currency (absent in definitions kept before revenue goals existed: none). */
  currency?: string | null;
}

/** What creating a goal takes. */
export type NewGoal = Pick<Goal, 'name' | 'kind' | 'pattern'> & { props?: GoalProps | null; currency?: string | null };

/** A goal's props as stored: JSON with its keys sorted, '' when none (so that equal goals have equal text). */
export function storedGoalProps(props: GoalProps | null): string {
  if (props === null || Object.keys(props).length === 0) return '';
  return JSON.stringify(Object.fromEntries(Object.keys(props).sort().map((key) => [key, props[key]])));
}

export function goalPropsOf(stored: string): GoalProps | null {
  return stored === '' ? null : (JSON.parse(stored) as GoalProps);
}

/** A goal's part of an answer: its props where it has any (a goal without any answers as it always has). */
export function goalPropsField(props: GoalProps | null): { props?: GoalProps } {
  return props ? { props } : {};
}

export interface FunnelVersion {
  id: number;
  name: string;
  windowMinutes: number;
  version: number; // the version these steps belong to
  currentVersion: number;
  steps: FunnelStep[];
}
