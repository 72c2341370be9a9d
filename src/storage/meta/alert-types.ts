// The AlertStore port: alert rules, their webhook deliveries and the attempts of each (the records
// are src/entities/alerts.ts).
import type {
  AlertRule,
  AttemptOutcome,
  ClaimedDelivery,
  DueCandidate,
  EpisodeUpdate,
  GoalDefinition,
  NewDelivery,
  NewRule,
  RulePatch,
  RuleWithSite,
} from '../../entities/alerts.js';
import type { Delivery } from '../../core/management.js';

export interface AlertStore {
  createRule(rule: NewRule, now: number): Promise<AlertRule>;
  getRule(id: number): Promise<AlertRule | undefined>;
  listRules(siteId: number): Promise<AlertRule[]>;
  /** Rules of active sites, with their site. */
  listRulesForEvaluation(): Promise<RuleWithSite[]>;
  getRuleWithSite(id: number): Promise<RuleWithSite | undefined>;
  /** A changed condition starts a new episode: the rule re-arms. */
  updateRule(id: number, patch: RulePatch, now: number): Promise<AlertRule | undefined>;
  /** Deletes the rule with its deliveries (pending ones are abandoned with the secret). */
  deleteRule(id: number): Promise<boolean>;

  /** Episode changes and the deliveries of rules that fired, in one transaction. */
  recordEvaluation(updates: readonly EpisodeUpdate[], deliveries: readonly NewDelivery[], now: number): Promise<void>;
  createDelivery(delivery: NewDelivery, now: number): Promise<void>;

  /** Due deliveries whose claim is absent or expired, oldest due first. */
  dueCandidates(now: number, limit: number): Promise<DueCandidate[]>;
  /**
   * Claims for `holder` until `until` the given deliveries that are still pending and unclaimed
   * (or whose claim expired) at `now`; returns those it now owns. Of concurrent claimers, in any
   * process, each delivery goes to one.
   */
  claim(seqs: readonly number[], holder: string, now: number, until: number): Promise<ClaimedDelivery[]>;
  /** Extends the holder's claims on the given deliveries; returns how many it still had. */
  renewClaims(seqs: readonly number[], holder: string, until: number): Promise<number>;
  /**
   * Records attempt number `attempt` and either schedules the next or closes the delivery, if
   * `holder` still has its claim; false when it does not (the rule was deleted, or the claim
   * expired and another sender took it).
   */
  recordAttempt(seq: number, holder: string, attempt: number, at: number, status: string, outcome: AttemptOutcome): Promise<boolean>;
  nextDueAt(): Promise<number | undefined>;
  history(ruleId: number): Promise<Delivery[]>;
  /** Deletes closed deliveries created before `before`, with their attempts; returns how many. */
  pruneHistory(before: number): Promise<number>;
  /** Definitions of the given goals (rules refer to goals by id). */
  goals(goalIds: readonly number[]): Promise<Map<number, GoalDefinition>>;
}
