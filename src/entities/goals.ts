// Goals and funnels of a site as stored (the MetaStore stores them: src/storage/meta/types.ts); what
// the APIs answer of them (steps, summaries, histories) is the vocabulary's.
import type { FunnelStep, MatchKind } from '../core/vocabulary.js';

export interface Goal {
  goalId: number;
  siteId: number; // internal
  name: string;
  kind: MatchKind;
  pattern: string;
  /** A revenue goal's currency (event goals only), null for other goals. */
  currency: string | null;
}

/** What a new goal is made of. */
export type GoalDefinition = Pick<Goal, 'name' | 'kind' | 'pattern'> & { currency?: string | null };

export interface FunnelVersion {
  id: number;
  name: string;
  windowMinutes: number;
  version: number; // the version these steps belong to
  currentVersion: number;
  steps: FunnelStep[];
}
