// AlertService: what the admin API, the CLI and the worker use. Rules are validated here, fired by
// the per-minute evaluation, and delivered by the durable queue (DeliveryEngine) and, when
// configured, by mail. The two channels share nothing but the payload.
import { randomUUID } from 'node:crypto';
import { DEFAULT_ALERT_HISTORY_DAYS } from '../config.js';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { localDay } from '../core/localtime.js';
import type { MaintenanceTask } from '../core/maintenance.js';
import type { PrometheusRegistry } from '../core/prometheus.js';
import { StatementTimeout, type EventStore } from '../storage/events/types.js';
import type { Site } from '../entities/sites.js';
import type { MetaStore } from '../storage/meta/types.js';
import type { SenderOptions } from './sender.js';
import { DeliveryEngine, WEBHOOK_TIMEOUT_MS } from './delivery-engine.js';
import { alertMail, type MailSender } from './email.js';
import { alertPayload, type AlertPayload } from './payload.js';
import { conditionHolds, decide, ruleValues } from './rules.js';
import { isRuleType, RULE_TYPES, type RuleType } from '../core/vocabulary.js';
import type { AlertRule, EpisodeUpdate, NewDelivery, RulePatch, RuleWithSite } from '../entities/alerts.js';
import type { Delivery, ManagedAlertRule } from '../core/management.js';
import type { AlertStore } from '../storage/meta/alert-types.js';
import type { RateLimiter } from '../storage/counters/rate-limiter.js';
import { checkUrlAtConfiguration, resolverWithTimeout, systemResolver, type Resolver, type UrlPolicy } from './url-safety.js';

export const EVALUATION_INTERVAL_MS = 60_000;
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 256;
const MAX_EMAILS = 10;
const MAX_THRESHOLD = 1e9;
const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;
/** Resolution at configuration only screens names; the send-time check is the binding one. */
const CONFIGURATION_DNS_TIMEOUT_MS = 3_000;
/** The alert mails (each to at most `MAX_EMAILS` addresses) an organisation's rules send an hour, test sends included. */
export const ALERT_MAILS_PER_HOUR = 30;

export interface AlertServiceOptions {
  meta: MetaStore;
  store: AlertStore;
  events: EventStore;
  clock: Clock;
  policy: UrlPolicy;
  resolve?: Resolver;
  /** Extra trusted CA for receivers (tests); production uses Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
  timeoutMs?: number;
  mail?: MailSender;
  /** Counts each organisation's alert mails, keyed by its id: `ALERT_MAILS_PER_HOUR` an hour. */
  mailLimit: RateLimiter;
  maxConcurrent?: number;
  maxPerHost?: number;
  pollMs?: number;
  /** Days a closed delivery stays in its rule's history (SVC_ALERT_HISTORY_DAYS). */
  historyDays?: number;
  metrics?: PrometheusRegistry;
  warn?: (message: string) => void;
  /** How long counting one site's goals may run (GOAL_COUNT_DEADLINE_MS). */
  goalCountDeadlineMs?: number;
}

export interface EvaluationResult {
  evaluated: number;
  fired: number[];
}

function view(rule: AlertRule): ManagedAlertRule {
  return { id: rule.id, type: rule.type, threshold: rule.threshold, url: rule.url, goalId: rule.goalId, emails: rule.emails };
}

function readThreshold(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_THRESHOLD) {
    throw apiError('INVALID_PARAMS', 'threshold', { max: MAX_THRESHOLD });
  }
  return value;
}

function readSecret(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SECRET_LENGTH) {
    throw apiError('INVALID_PARAMS', 'stringLength', { name: 'secret', max: MAX_SECRET_LENGTH });
  }
  return value;
}

function readEmails(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_EMAILS || !value.every((e) => typeof e === 'string' && e.length <= 254 && EMAIL.test(e))) {
    throw apiError('INVALID_PARAMS', 'emails', { max: MAX_EMAILS });
  }
  return value as string[];
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiError('INVALID_PARAMS', 'notObject');
  return body as Record<string, unknown>;
}

export class AlertService {
  readonly engine: DeliveryEngine;
  /** How the engine sends one webhook (URL policy, DNS, timeout, CAs): digests by webhook send the same way. */
  readonly sender: SenderOptions;
  private readonly resolve: Resolver;
  private readonly pendingMail = new Set<Promise<void>>();
  private evaluation: Promise<unknown> = Promise.resolve();
  private readonly mailTotal;
  private readonly prunedTotal;

  constructor(private readonly options: AlertServiceOptions) {
    const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.resolve = options.resolve ?? systemResolver;
    this.sender = { policy: options.policy, resolve: resolverWithTimeout(this.resolve, timeoutMs), timeoutMs, ca: options.ca };
    this.engine = new DeliveryEngine({
      store: options.store,
      clock: options.clock,
      sender: this.sender,
      maxConcurrent: options.maxConcurrent,
      maxPerHost: options.maxPerHost,
      pollMs: options.pollMs,
      metrics: options.metrics,
      warn: options.warn,
    });
    this.mailTotal = options.metrics?.counter('svc_alert_mails_total', 'Alert mails by outcome (sent, failed, limited: past the organisation\'s mails of the hour)', { labelled: true });
    this.prunedTotal = options.metrics?.counter('svc_alert_deliveries_pruned_total', 'Finished webhook deliveries deleted from history after SVC_ALERT_HISTORY_DAYS');
  }

  /**
   * Worker maintenance tasks: `alerts` evaluates every rule once a minute; `alert-history` deletes
   * closed deliveries older than the history's retention, hourly.
   */
  maintenanceTasks(): MaintenanceTask[] {
    return [
      { name: 'alerts', everyMs: EVALUATION_INTERVAL_MS, run: async (now) => void (await this.evaluate(now)) },
      { name: 'alert-history', everyMs: 60 * 60_000, run: (now) => this.pruneHistory(now) },
    ];
  }

  /** Deletes finished deliveries older than the history's retention, counted in svc_alert_deliveries_pruned_total. */
  private async pruneHistory(now: number): Promise<void> {
    const deleted = await this.options.store.pruneHistory(now - (this.options.historyDays ?? DEFAULT_ALERT_HISTORY_DAYS) * 86_400_000);
    this.prunedTotal?.inc({}, deleted);
  }

  start(): void {
    this.engine.start();
  }

  /** Finishes in-flight webhook attempts and mails; takes no new work. */
  async drain(): Promise<void> {
    await this.engine.drain();
    await Promise.allSettled([...this.pendingMail]);
  }

  // --- configuration -------------------------------------------------------------------------

  private async site(publicId: string): Promise<Site> {
    const site = await this.options.meta.getSite(publicId);
    if (!site) throw apiError('NOT_FOUND', 'site');
    return site;
  }

  private async rule(ruleId: number): Promise<RuleWithSite> {
    const rule = await this.options.store.getRuleWithSite(ruleId);
    if (!rule) throw apiError('NOT_FOUND', 'alertRule');
    return rule;
  }

  /** The organisation a rule belongs to (through its site); 404 for an unknown rule. */
  async orgOfRule(ruleId: number): Promise<number> {
    return (await this.rule(ruleId)).siteOrgId;
  }

  /** A webhook URL checked as a rule's is (scheme, host, port, addresses after DNS); INVALID_WEBHOOK_URL says why not. */
  async readUrl(value: unknown): Promise<string> {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) {
      throw apiError('INVALID_PARAMS', 'stringLength', { name: 'url', max: MAX_URL_LENGTH });
    }
    const resolve = resolverWithTimeout(this.resolve, CONFIGURATION_DNS_TIMEOUT_MS);
    const reason = await checkUrlAtConfiguration(value, this.options.policy, resolve);
    if (reason) throw apiError('INVALID_WEBHOOK_URL', 'rejected', { reason });
    return value;
  }

  private async readGoalId(type: RuleType, value: unknown, siteInternalId: number): Promise<number | null> {
    if (type !== 'goal') {
      if (value !== undefined && value !== null) throw apiError('INVALID_PARAMS', 'goalIdOfOtherRule');
      return null;
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw apiError('INVALID_PARAMS', 'goalIdMissing');
    const goal = (await this.options.store.goals([value])).get(value);
    if (!goal || goal.siteId !== siteInternalId) throw apiError('INVALID_PARAMS', 'foreignGoal', { goalId: value });
    return value;
  }

  async createRule(sitePublicId: string, body: unknown): Promise<ManagedAlertRule> {
    const site = await this.site(sitePublicId);
    const input = asObject(body);
    const ruleType = input.type;
    if (!isRuleType(ruleType)) throw apiError('INVALID_PARAMS', 'oneOf', { name: 'type', values: RULE_TYPES.join(', ') });
    const threshold = readThreshold(input.threshold);
    const secret = readSecret(input.secret);
    const emails = readEmails(input.emails);
    const goalId = await this.readGoalId(ruleType, input.goalId, site.internalId);
    const url = await this.readUrl(input.url);
    const rule = await this.options.store.createRule({ siteId: site.internalId, type: ruleType, threshold, goalId, url, secret, emails }, this.options.clock.now());
    return view(rule);
  }

  async listRules(sitePublicId: string): Promise<ManagedAlertRule[]> {
    const site = await this.site(sitePublicId);
    return (await this.options.store.listRules(site.internalId)).map(view);
  }

  async updateRule(ruleId: number, body: unknown): Promise<ManagedAlertRule> {
    const rule = await this.rule(ruleId);
    const input = asObject(body);
    if (input.type !== undefined && input.type !== rule.type) throw apiError('INVALID_PARAMS', 'ruleType');
    const patch: RulePatch = {};
    if (input.threshold !== undefined) patch.threshold = readThreshold(input.threshold);
    if (input.secret !== undefined) patch.secret = readSecret(input.secret);
    if (input.emails !== undefined) patch.emails = readEmails(input.emails);
    if (input.goalId !== undefined) patch.goalId = await this.readGoalId(rule.type, input.goalId, rule.siteId);
    if (input.url !== undefined) patch.url = await this.readUrl(input.url);
    const updated = await this.options.store.updateRule(rule.id, patch, this.options.clock.now());
    if (!updated) throw apiError('NOT_FOUND', 'alertRule');
    return view(updated);
  }

  async deleteRule(ruleId: number): Promise<void> {
    const deleted = await this.options.store.deleteRule(ruleId);
    if (!deleted) throw apiError('NOT_FOUND', 'alertRule');
  }

  async history(ruleId: number): Promise<Delivery[]> {
    const rule = await this.rule(ruleId);
    return this.options.store.history(rule.id);
  }

  // --- firing --------------------------------------------------------------------------------

  /**
   * Queues a test send: the rule's current value and threshold, `"test": true`, same path. A rule
   * that mails is refused (429) once its organisation has sent its alert mails of the hour.
   */
  async sendTest(ruleId: number): Promise<{ deliveryId: string }> {
    const rule = await this.rule(ruleId);
    const mails = this.options.mail !== undefined && rule.emails.length > 0;
    if (mails && !(await this.mayMail(rule))) throw apiError('RATE_LIMITED', 'alertMails', { perHour: ALERT_MAILS_PER_HOUR }, { 'retry-after': '3600' });
    const now = this.options.clock.now();
    const value = (await this.valuesOf([rule], now)).get(rule.id) ?? 0;
    if (value instanceof StatementTimeout) throw apiError('QUERY_TIMEOUT', 'goalCount', { seconds: value.deadlineMs / 1000 });
    if (value instanceof Error) throw value;
    const payload = alertPayload(rule, rule.siteDomain, value, now, true);
    const delivery = this.newDelivery(rule.id, payload);
    await this.options.store.createDelivery(delivery, now);
    this.engine.wake();
    this.mail(rule, payload, mails);
    return { deliveryId: delivery.id };
  }

  /** Runs one evaluation of every rule at `now`; evaluations never overlap. */
  evaluate(now: number): Promise<EvaluationResult> {
    const run = this.evaluation.then(() => this.evaluateOnce(now));
    this.evaluation = run.catch(() => undefined);
    return run;
  }

  private async evaluateOnce(now: number): Promise<EvaluationResult> {
    const rules = await this.options.store.listRulesForEvaluation();
    const values = await this.valuesOf(rules, now);
    const updates: EpisodeUpdate[] = [];
    const deliveries: NewDelivery[] = [];
    const mails: Array<[RuleWithSite, AlertPayload]> = [];
    for (const rule of rules) {
      const value = values.get(rule.id);
      if (value === undefined) continue;
      if (value instanceof StatementTimeout) {
        this.options.warn?.(`alert rule ${rule.id} skipped: ${value.message} while counting its goal (a page pattern with many wildcards over many long pages)`);
        continue;
      }
      if (value instanceof Error) {
        this.options.warn?.(`alert rule ${rule.id} skipped: counting its site's goals failed: ${value.message}`);
        continue;
      }
      const state = { inEpisode: rule.inEpisode, lastFiredDay: rule.lastFiredDay };
      const decision = decide(rule.type, conditionHolds(rule.type, value, rule.threshold), state, localDay(now, rule.siteTimezone));
      if (decision.next.inEpisode !== state.inEpisode || decision.next.lastFiredDay !== state.lastFiredDay) {
        updates.push({ ruleId: rule.id, ...decision.next });
      }
      if (decision.fire) {
        const payload = alertPayload(rule, rule.siteDomain, value, now, false);
        deliveries.push(this.newDelivery(rule.id, payload));
        mails.push([rule, payload]);
      }
    }
    // Episode state and deliveries commit together: a crash can neither lose nor repeat a firing.
    await this.options.store.recordEvaluation(updates, deliveries, now);
    if (deliveries.length > 0) this.engine.wake();
    for (const [rule, payload] of mails) this.mail(rule, payload);
    return { evaluated: rules.length, fired: deliveries.map((d) => d.ruleId) };
  }

  private async valuesOf(rules: readonly RuleWithSite[], now: number): Promise<Map<number, number | Error>> {
    const goalIds = rules.flatMap((r) => (r.type === 'goal' && r.goalId !== null ? [r.goalId] : []));
    const goals = await this.options.store.goals(goalIds);
    return ruleValues(this.options.events, rules, goals, now, this.options.goalCountDeadlineMs);
  }

  private newDelivery(ruleId: number, payload: AlertPayload): NewDelivery {
    return { id: randomUUID(), ruleId, test: payload.test === true, body: JSON.stringify(payload) };
  }

  /** Whether `rule`'s organisation may send one more alert mail this hour; counted when it may. */
  private async mayMail(rule: RuleWithSite): Promise<boolean> {
    return this.options.mailLimit.hit(String(rule.siteOrgId), this.options.clock.now());
  }

  /** Mails `payload` to the rule's addresses, unless its organisation has sent its mails of the hour (`counted`: already counted). */
  private mail(rule: RuleWithSite, payload: AlertPayload, counted = false): void {
    const send = this.options.mail;
    if (!send || rule.emails.length === 0) return;
    const pending = (counted ? Promise.resolve(true) : this.mayMail(rule))
      .then(async (may) => {
        if (!may) {
          this.mailTotal?.inc({ outcome: 'limited' });
          this.options.warn?.(`alert mail for rule ${rule.id} not sent: its organisation sent ${ALERT_MAILS_PER_HOUR} alert mails within the hour`);
          return;
        }
        await send({ to: rule.emails, ...alertMail(payload) });
        this.mailTotal?.inc({ outcome: 'sent' });
      })
      .catch((err: unknown) => {
        this.mailTotal?.inc({ outcome: 'failed' });
        this.options.warn?.(`alert mail for rule ${rule.id}: ${String(err)}`);
      })
      .finally(() => this.pendingMail.delete(pending));
    this.pendingMail.add(pending);
  }
}
