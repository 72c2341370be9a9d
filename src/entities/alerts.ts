// Alert rules, their webhook deliveries and the attempts of each (the AlertStore stores them:
// src/storage/meta/alert-types.ts).
import type { GoalProps, RuleType } from '../core/vocabulary.js';

export interface AlertRule {
  id: number;
  siteId: number; // internal site id
  type: RuleType;
  threshold: number;
  goalId: number | null;
  url: string;
  secret: string;
  emails: string[];
  inEpisode: boolean;
  lastFiredDay: string | null;
}

/** A rule with what evaluation needs of its site. */
export interface RuleWithSite extends AlertRule {
  sitePublicId: string;
  /** The organisation of the site. */
  siteOrgId: number;
  siteDomain: string;
  siteTimezone: string;
  siteCreatedAt: number;
}

export type NewRule = Pick<AlertRule, 'siteId' | 'type' | 'threshold' | 'goalId' | 'url' | 'secret' | 'emails'>;
export type RulePatch = Partial<Pick<AlertRule, 'threshold' | 'goalId' | 'url' | 'secret' | 'emails'>>;

export interface NewDelivery {
  id: string;
  ruleId: number;
  test: boolean;
  body: string;
}

export interface EpisodeUpdate {
  ruleId: number;
  inEpisode: boolean;
  lastFiredDay: string | null;
}

/** A delivery claimed by one sender for one attempt. */
export interface ClaimedDelivery {
  seq: number;
  id: string;
  ruleId: number;
  body: string;
  attempts: number; // attempts already made
  url: string;
  secret: string;
}

export interface DueCandidate {
  seq: number;
  url: string;
}

export type AttemptOutcome = { next: 'retry'; at: number } | { next: 'done' };

export interface GoalDefinition {
  goalId: number;
  siteId: number; // internal
  kind: 'page' | 'event';
  pattern: string;
  /** The property values an event goal requires; absent or null when none. */
  props?: GoalProps | null;
}
