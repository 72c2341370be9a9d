// AlertStore: rules, deliveries and attempts in the MetaStore database (migrations 002_alerts and
// 003_leases), through the same Kysely handle as the MetaStore so SQLite and PostgreSQL share one
// implementation. Deliveries are claimed by one sender at a time with an expiring claim, so any
// number of worker processes may send from one queue.
import type { Kysely, Selectable } from 'kysely';
import type { AlertDatabase, AlertRulesTable } from './alert-schema.js';
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
import type { AlertStore } from './alert-types.js';
import { goalPropsOf } from '../../entities/goals.js';
import { metaDialectOf, type MetaDialect } from './dialect.js';
import type { MetaDatabase } from './schema.js';
import { boundedInsert } from './kysely/serialized-write.js';
import { ALERT_RULES_PER_SITE_MAX } from '../../core/vocabulary.js';

/** Deliveries deleted per transaction by pruneHistory. */
const PRUNE_BATCH = 500;

function toRule(row: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: row.id,
    siteId: row.site_id,
    type: row.type,
    threshold: Number(row.threshold),
    goalId: row.goal_id,
    url: row.url,
    secret: row.secret,
    emails: JSON.parse(row.emails) as string[],
    inEpisode: row.in_episode === 1,
    lastFiredDay: row.last_fired_day,
  };
}

export class KyselyAlertStore implements AlertStore {
  private readonly db: Kysely<AlertDatabase>;
  private readonly dialect: MetaDialect;

  constructor(metaDb: Kysely<MetaDatabase>) {
    // Same database, wider table set: migration 002_alerts added these tables.
    this.db = metaDb as unknown as Kysely<AlertDatabase>;
    this.dialect = metaDialectOf(metaDb);
  }

  async createRule(rule: NewRule, now: number): Promise<AlertRule> {
    const row = await boundedInsert(this.db, 'alertRules', rule.siteId, ALERT_RULES_PER_SITE_MAX, (trx) => trx
      .insertInto('alert_rules')
      .values({
        site_id: rule.siteId,
        type: rule.type,
        threshold: rule.threshold,
        goal_id: rule.goalId,
        url: rule.url,
        secret: rule.secret,
        emails: JSON.stringify(rule.emails),
        in_episode: 0,
        last_fired_day: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow());
    return toRule(row);
  }

  async getRule(id: number): Promise<AlertRule | undefined> {
    const row = await this.db.selectFrom('alert_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRule(row);
  }

  async listRules(siteId: number): Promise<AlertRule[]> {
    const rows = await this.db.selectFrom('alert_rules').selectAll().where('site_id', '=', siteId).orderBy('id').execute();
    return rows.map(toRule);
  }

  private rulesWithSites() {
    return this.db
      .selectFrom('alert_rules')
      .innerJoin('sites', 'sites.id', 'alert_rules.site_id')
      .selectAll('alert_rules')
      .select(['sites.public_id', 'sites.org_id', 'sites.domain', 'sites.timezone', 'sites.created_at as site_created_at']);
  }

  private static toRuleWithSite(row: Selectable<AlertRulesTable> & { public_id: string; org_id: number; domain: string; timezone: string; site_created_at: number }): RuleWithSite {
    return {
      ...toRule(row),
      sitePublicId: row.public_id,
      siteOrgId: Number(row.org_id),
      siteDomain: row.domain,
      siteTimezone: row.timezone,
      siteCreatedAt: Number(row.site_created_at),
    };
  }

  async listRulesForEvaluation(): Promise<RuleWithSite[]> {
    const rows = await this.rulesWithSites().where('sites.status', '=', 'active').orderBy('alert_rules.id').execute();
    return rows.map(KyselyAlertStore.toRuleWithSite);
  }

  async getRuleWithSite(id: number): Promise<RuleWithSite | undefined> {
    const row = await this.rulesWithSites().where('alert_rules.id', '=', id).executeTakeFirst();
    return row && KyselyAlertStore.toRuleWithSite(row);
  }

  async updateRule(id: number, patch: RulePatch, now: number): Promise<AlertRule | undefined> {
    const values: Partial<Selectable<AlertRulesTable>> = { updated_at: now, in_episode: 0 };
    if (patch.threshold !== undefined) values.threshold = patch.threshold;
    if (patch.goalId !== undefined) values.goal_id = patch.goalId;
    if (patch.url !== undefined) values.url = patch.url;
    if (patch.secret !== undefined) values.secret = patch.secret;
    if (patch.emails !== undefined) values.emails = JSON.stringify(patch.emails);
    const row = await this.db.updateTable('alert_rules').set(values).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toRule(row);
  }

  async deleteRule(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deliveries = trx.selectFrom('webhook_deliveries').select('seq').where('rule_id', '=', id);
      await trx.deleteFrom('webhook_attempts').where('delivery_seq', 'in', deliveries).execute();
      await trx.deleteFrom('webhook_deliveries').where('rule_id', '=', id).execute();
      const result = await trx.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async recordEvaluation(updates: readonly EpisodeUpdate[], deliveries: readonly NewDelivery[], now: number): Promise<void> {
    if (updates.length === 0 && deliveries.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const u of updates) {
        await trx
          .updateTable('alert_rules')
          .set({ in_episode: u.inEpisode ? 1 : 0, last_fired_day: u.lastFiredDay })
          .where('id', '=', u.ruleId)
          .execute();
      }
      for (const d of deliveries) await trx.insertInto('webhook_deliveries').values(this.deliveryRow(d, now)).execute();
    });
  }

  async createDelivery(delivery: NewDelivery, now: number): Promise<void> {
    await this.db.insertInto('webhook_deliveries').values(this.deliveryRow(delivery, now)).execute();
  }

  private deliveryRow(d: NewDelivery, now: number) {
    return {
      id: d.id,
      rule_id: d.ruleId,
      test: d.test ? 1 : 0,
      body: d.body,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: null,
      claimed_by: null,
      created_at: now,
    };
  }

  async dueCandidates(now: number, limit: number): Promise<DueCandidate[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('alert_rules', 'alert_rules.id', 'webhook_deliveries.rule_id')
      .select(['webhook_deliveries.seq', 'alert_rules.url'])
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<=', now)]))
      .orderBy('webhook_deliveries.next_attempt_at')
      .orderBy('webhook_deliveries.seq')
      .limit(limit)
      .execute();
  }

  async claim(seqs: readonly number[], holder: string, now: number, until: number): Promise<ClaimedDelivery[]> {
    if (seqs.length === 0) return [];
    const claimable = this.db
      .selectFrom('webhook_deliveries')
      .select('seq')
      .where('seq', 'in', seqs)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]));
    // PostgreSQL: the claimable rows are locked as they are read (the condition checked on their
    // latest version), skipping those another sender is claiming right now rather than waiting
    // for it. SQLite runs one writer at a time, so the update's own condition makes it atomic.
    const claimed = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: until, claimed_by: holder })
      .where('seq', 'in', this.dialect === 'postgres' ? claimable.forUpdate().skipLocked() : claimable)
      .returning(['seq'])
      .execute();
    if (claimed.length === 0) return [];
    return this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('alert_rules', 'alert_rules.id', 'webhook_deliveries.rule_id')
      .select([
        'webhook_deliveries.seq',
        'webhook_deliveries.id',
        'webhook_deliveries.rule_id as ruleId',
        'webhook_deliveries.body',
        'webhook_deliveries.attempts',
        'alert_rules.url',
        'alert_rules.secret',
      ])
      .where(
        'webhook_deliveries.seq',
        'in',
        claimed.map((r) => r.seq),
      )
      .orderBy('webhook_deliveries.seq')
      .execute();
  }

  async renewClaims(seqs: readonly number[], holder: string, until: number): Promise<number> {
    if (seqs.length === 0) return 0;
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: until })
      .where('seq', 'in', seqs)
      .where('claimed_by', '=', holder)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async recordAttempt(seq: number, holder: string, attempt: number, at: number, status: string, outcome: AttemptOutcome): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Releasing the claim is the first write: of a sender whose claim was taken over and the one
      // that took it, only the holder records (a deleted rule took the delivery with it).
      const released = await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attempt,
          lease_until: null,
          claimed_by: null,
          status: outcome.next === 'retry' ? 'pending' : status,
          next_attempt_at: outcome.next === 'retry' ? outcome.at : null,
        })
        .where('seq', '=', seq)
        .where('claimed_by', '=', holder)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) === 0) return false;
      await trx.insertInto('webhook_attempts').values({ delivery_seq: seq, attempt, at, status }).execute();
      return true;
    });
  }

  async pruneHistory(before: number): Promise<number> {
    let deleted = 0;
    // In batches, each its own transaction: a first run on an old install does not hold the
    // database for one long stretch. The batch's seqs are read once, so attempts and deliveries
    // are deleted for the same rows even if a delivery closes meanwhile.
    for (;;) {
      const batch = await this.db.transaction().execute(async (trx) => {
        // A pending delivery is kept whatever its age: it is still owed to its receiver.
        const rows = await trx
          .selectFrom('webhook_deliveries')
          .select('seq')
          .where('created_at', '<', before)
          .where('status', '!=', 'pending')
          .orderBy('seq')
          .limit(PRUNE_BATCH)
          .execute();
        const seqs = rows.map((r) => r.seq);
        if (seqs.length === 0) return 0;
        await trx.deleteFrom('webhook_attempts').where('delivery_seq', 'in', seqs).execute();
        await trx.deleteFrom('webhook_deliveries').where('seq', 'in', seqs).execute();
        return seqs.length;
      });
      deleted += batch;
      if (batch < PRUNE_BATCH) return deleted;
    }
  }

  async nextDueAt(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }

  async history(ruleId: number): Promise<Delivery[]> {
    const deliveries = await this.db
      .selectFrom('webhook_deliveries')
      .select(['seq', 'id', 'created_at', 'test', 'status'])
      .where('rule_id', '=', ruleId)
      .orderBy('seq', 'desc')
      .execute();
    if (deliveries.length === 0) return [];
    const attempts = await this.db
      .selectFrom('webhook_attempts')
      .select(['delivery_seq', 'at', 'status'])
      .where(
        'delivery_seq',
        'in',
        deliveries.map((d) => d.seq),
      )
      .orderBy('delivery_seq')
      .orderBy('attempt')
      .execute();
    const bySeq = new Map<number, Array<{ at: number; status: string }>>();
    for (const a of attempts) {
      const list = bySeq.get(a.delivery_seq) ?? [];
      list.push({ at: Number(a.at), status: a.status });
      bySeq.set(a.delivery_seq, list);
    }
    return deliveries.map((d) => ({
      id: d.id,
      createdAt: Number(d.created_at),
      test: d.test === 1,
      status: d.status,
      attempts: bySeq.get(d.seq) ?? [],
    }));
  }

  async goals(goalIds: readonly number[]): Promise<Map<number, GoalDefinition>> {
    if (goalIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('goals').select(['id', 'site_id', 'kind', 'pattern', 'props']).where('id', 'in', goalIds).execute();
    return new Map(rows.map((r) => [r.id, { goalId: r.id, siteId: r.site_id, kind: r.kind, pattern: r.pattern, props: goalPropsOf(r.props) }]));
  }
}
