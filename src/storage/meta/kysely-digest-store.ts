// DigestStore over the MetaStore's Kysely handle (migration 012_digests): SQLite and PostgreSQL share
// it. Claims are conditional updates of one row each, so any number of workers share the sends.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { MetaDatabase } from './schema.js';
import type { AccountDatabase } from './account-schema.js';
import { REPORT_WEBHOOKS_PER_SITE_MAX } from '../../core/vocabulary.js';
import { boundedInsert } from './kysely/serialized-write.js';
import type { DigestKey, DigestKind, DigestSend, DigestSiteStatus, DigestStore, DigestWebhook } from './digest-types.js';

interface DigestSubscriptionsTable {
  user_id: number;
  site_id: number;
  weekly: number;
  monthly: number;
}

interface DigestWebhooksTable {
  id: Generated<number>;
  site_id: number;
  url: string;
  secret: string;
  weekly: number;
  monthly: number;
  created_at: number;
}

interface DigestSendsTable {
  user_id: number;
  webhook_id: number;
  site_id: number;
  kind: DigestKind;
  period_from: string;
  period_to: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: number;
  claimed_by: string | null;
  claimed_until: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  sent_at: number | null;
  created_at: number;
}

interface DigestDatabase extends AccountDatabase {
  digest_subscriptions: DigestSubscriptionsTable;
  digest_sends: DigestSendsTable;
  digest_webhooks: DigestWebhooksTable;
}

const toWebhook = (row: Selectable<DigestWebhooksTable>): DigestWebhook => ({
  id: row.id,
  siteId: row.site_id,
  url: row.url,
  secret: row.secret,
  weekly: row.weekly === 1,
  monthly: row.monthly === 1,
  createdAt: Number(row.created_at),
});

const toSend = (row: Selectable<DigestSendsTable> & { site_public_id: string }): DigestSend => ({
  userId: row.user_id,
  webhookId: row.webhook_id,
  sitePublicId: row.site_public_id,
  siteId: row.site_id,
  kind: row.kind,
  periodFrom: row.period_from,
  periodTo: row.period_to,
  attempts: row.attempts,
});

export class KyselyDigestStore implements DigestStore {
  private readonly db: Kysely<DigestDatabase>;

  constructor(db: Kysely<MetaDatabase>) {
    this.db = db as unknown as Kysely<DigestDatabase>;
  }

  private byKey(key: DigestKey) {
    return this.db
      .updateTable('digest_sends')
      .where('user_id', '=', key.userId)
      .where('webhook_id', '=', key.webhookId)
      .where('site_id', '=', key.siteId)
      .where('kind', '=', key.kind)
      .where('period_from', '=', key.periodFrom);
  }

  async createWebhook(webhook: Omit<DigestWebhook, 'id' | 'createdAt'>, now: number): Promise<DigestWebhook> {
    const row = await boundedInsert(this.db, 'reportWebhooks', webhook.siteId, REPORT_WEBHOOKS_PER_SITE_MAX, (trx) =>
      trx
        .insertInto('digest_webhooks')
        .values({ site_id: webhook.siteId, url: webhook.url, secret: webhook.secret, weekly: webhook.weekly ? 1 : 0, monthly: webhook.monthly ? 1 : 0, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toWebhook(row);
  }

  async webhooks(siteId: number): Promise<DigestWebhook[]> {
    return (await this.db.selectFrom('digest_webhooks').selectAll().where('site_id', '=', siteId).orderBy('id').execute()).map(toWebhook);
  }

  async webhook(id: number): Promise<DigestWebhook | undefined> {
    const row = await this.db.selectFrom('digest_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toWebhook(row);
  }

  async deleteWebhook(siteId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('digest_webhooks').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setSubscription(userId: number, siteId: number, choice: { weekly: boolean; monthly: boolean }): Promise<void> {
    if (!choice.weekly && !choice.monthly) {
      await this.db.deleteFrom('digest_subscriptions').where('user_id', '=', userId).where('site_id', '=', siteId).execute();
      return;
    }
    const values = { weekly: choice.weekly ? 1 : 0, monthly: choice.monthly ? 1 : 0 };
    await this.db
      .insertInto('digest_subscriptions')
      .values({ user_id: userId, site_id: siteId, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'site_id']).doUpdateSet(values))
      .execute();
  }

  async subscriptionsOf(userId: number): Promise<Array<{ siteId: number; weekly: boolean; monthly: boolean }>> {
    const rows = await this.db.selectFrom('digest_subscriptions').selectAll().where('user_id', '=', userId).orderBy('site_id').execute();
    return rows.map((r) => ({ siteId: r.site_id, weekly: r.weekly === 1, monthly: r.monthly === 1 }));
  }

  async subscribers(siteId: number, orgId: number, kind: DigestKind): Promise<number[]> {
    const rows = await this.db
      .selectFrom('digest_subscriptions')
      .innerJoin('memberships', (join) => join.onRef('memberships.user_id', '=', 'digest_subscriptions.user_id').on('memberships.org_id', '=', orgId))
      .select('digest_subscriptions.user_id')
      .where('digest_subscriptions.site_id', '=', siteId)
      .where(`digest_subscriptions.${kind}`, '=', 1)
      .orderBy('digest_subscriptions.user_id')
      .execute();
    return rows.map((r) => r.user_id);
  }

  async subscribedSites(): Promise<string[]> {
    const members = this.db.selectFrom('digest_subscriptions').select('site_id');
    const hooks = this.db.selectFrom('digest_webhooks').select('site_id');
    const rows = await this.db
      .selectFrom('sites')
      .select('public_id')
      .where((eb) => eb.or([eb('id', 'in', members), eb('id', 'in', hooks)]))
      .orderBy('public_id')
      .execute();
    return rows.map((r) => r.public_id);
  }

  /** Sends with their site's public id. */
  private selectSends() {
    return this.db.selectFrom('digest_sends').innerJoin('sites', 'sites.id', 'digest_sends.site_id').selectAll('digest_sends').select('sites.public_id as site_public_id');
  }

  async planSends(sends: Array<DigestKey & { periodTo: string }>, now: number): Promise<number> {
    if (sends.length === 0) return 0;
    const result = await this.db
      .insertInto('digest_sends')
      .values(
        sends.map((s) => ({
          user_id: s.userId,
          webhook_id: s.webhookId,
          site_id: s.siteId,
          kind: s.kind,
          period_from: s.periodFrom,
          period_to: s.periodTo,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: now,
          claimed_by: null,
          claimed_until: null,
          last_error: null,
          last_attempt_at: null,
          sent_at: null,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'webhook_id', 'site_id', 'kind', 'period_from']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  async claimDue(holder: string, now: number, claimedUntil: number, limit: number): Promise<DigestSend[]> {
    const due = await this.selectSends()
      .where('digest_sends.status', '=', 'pending')
      .where('digest_sends.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('digest_sends.claimed_until', 'is', null), eb('digest_sends.claimed_until', '<', now)]))
      .orderBy('digest_sends.next_attempt_at')
      .limit(limit)
      .execute();
    const claimed: DigestSend[] = [];
    for (const row of due) {
      const send = toSend(row);
      const result = await this.byKey(send)
        .set({ claimed_by: holder, claimed_until: claimedUntil })
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push(send);
    }
    return claimed;
  }

  async markSent(key: DigestKey, holder: string, now: number): Promise<boolean> {
    const result = await this.byKey(key)
      .set((eb) => ({ status: 'sent' as const, sent_at: now, last_attempt_at: now, last_error: null, attempts: eb('attempts', '+', 1), claimed_by: null, claimed_until: null }))
      .where('claimed_by', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markFailed(key: DigestKey, holder: string, now: number, error: string, retryAt: number | undefined): Promise<void> {
    await this.byKey(key)
      .set((eb) => ({
        status: retryAt === undefined ? ('failed' as const) : ('pending' as const),
        next_attempt_at: retryAt ?? now,
        last_error: error.slice(0, 500),
        last_attempt_at: now,
        attempts: eb('attempts', '+', 1),
        claimed_by: null,
        claimed_until: null,
      }))
      .where('claimed_by', '=', holder)
      .execute();
  }

  async siteStatus(siteId: number): Promise<DigestSiteStatus> {
    const sent = await this.db
      .selectFrom('digest_sends')
      .select((eb) => eb.fn.max('sent_at').as('at'))
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    const failed = await this.db
      .selectFrom('digest_sends')
      .select(['last_error', 'last_attempt_at'])
      .where('site_id', '=', siteId)
      .where('last_error', 'is not', null)
      .orderBy('last_attempt_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const pending = await this.db
      .selectFrom('digest_sends')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', siteId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const lastSentAt = sent?.at === null || sent?.at === undefined ? null : Number(sent.at);
    const lastError = failed && failed.last_attempt_at !== null ? { at: Number(failed.last_attempt_at), message: failed.last_error! } : null;
    return { lastSentAt, lastError: lastError && (lastSentAt === null || lastError.at >= lastSentAt) ? lastError : null, pending: Number(pending.n) };
  }
}
