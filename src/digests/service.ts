// Digests (docs/accounts.md#email-reports): members choose weekly and monthly reports per site, and
// admins add webhooks that receive them. The worker's `digests` task plans each due period's sends
// (one row per recipient, site, kind and period: the row's key makes a second plan, by another
// worker or after a restart, add nothing), then claims due sends and mails or posts them, marking
// each sent once the SMTP server or the webhook took it. A failed attempt is tried again after 1, 5
// and 25 minutes, 2 and 6 hours, then given up; the site's settings show the last report sent and
// the last error.
import { createHmac } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import type { MaintenanceTask } from '../core/maintenance.js';
import { tokensEqual } from '../core/secrets.js';
import type { MailSender } from '../alerts/email.js';
import type { Site } from '../entities/sites.js';
import type { EventStore } from '../storage/events/types.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import { DIGEST_KINDS, type DigestKind, type DigestKey, type DigestSend, type DigestSiteStatus, type DigestStore, type DigestWebhook } from '../storage/meta/digest-types.js';
import { newHolderId } from '../storage/meta/leases.js';
import type { MetaStore } from '../storage/meta/types.js';
import { deliveryHeaders } from '../alerts/signing.js';
import { isRetryable, sendWebhook, type SenderOptions } from '../alerts/sender.js';
import { digestHtml, digestPayload, digestSubject, digestText, isSlackWebhook, readDigest, slackMessage, type Digest } from './content.js';
import { duePeriod, lastCompletePeriod, type DigestPeriod } from './schedule.js';
import { mailWords } from '../core/messages/server.js';
import type { Language } from '../core/messages/language.js';

/** Waits after each failed attempt; after the last, the send is given up (its error stays shown). */
export const DIGEST_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 25 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;
/** How long a worker holds a claimed send: longer than one SMTP exchange may take (DIGEST_SMTP_TIMEOUT_MS per wait). */
export const DIGEST_CLAIM_MS = 5 * 60_000;
export const DIGEST_SMTP_TIMEOUT_MS = 30_000;

export interface DigestServiceOptions {
  store: DigestStore;
  accounts: AccountStore;
  meta: MetaStore;
  events: EventStore;
  clock: Clock;
  /** SVC_SMTP_URL's sender; without it (or without the public URL) no member's report is planned. */
  mail: MailSender | undefined;
  /** SVC_PUBLIC_URL: the links in a report must reach the service from a mail reader; without it nothing is planned. */
  publicBase: string | undefined;
  /** The key of the unsubscribe links' signatures. */
  signingKey: string;
  /** How webhooks are sent: the alert webhooks' sender (URL policy, DNS, timeout). */
  webhookSender: SenderOptions;
  /** Checks a webhook URL as an alert rule's is. */
  checkWebhookUrl(url: unknown): Promise<string>;
  warn(message: string): void;
}

export interface DigestChoice {
  weekly: boolean;
  monthly: boolean;
}

export class DigestService {
  /** Names this worker in its claims. */
  private readonly holder = newHolderId();

  constructor(private readonly options: DigestServiceOptions) {}

  /** Whether members' reports can be mailed: SMTP and the public URL are both configured. */
  get configured(): boolean {
    return this.options.mail !== undefined && this.options.publicBase !== undefined;
  }

  maintenanceTasks(): MaintenanceTask[] {
    return [{ name: 'digests', everyMs: 60_000, run: (now) => this.run(now) }];
  }

  /** Plans the due periods' sends, then sends what is due. */
  async run(now: number): Promise<void> {
    if (this.options.publicBase === undefined) return;
    await this.plan(now);
    await this.sendDue(now);
  }

  async plan(now: number): Promise<number> {
    let planned = 0;
    for (const siteId of await this.options.store.subscribedSites()) {
      const site = await this.options.meta.getSite(siteId);
      if (!site || site.status !== 'active') continue;
      for (const kind of DIGEST_KINDS) {
        const period = duePeriod(kind, now, site.timezone);
        if (!period) continue;
        const users = this.configured ? await this.options.store.subscribers(site.internalId, site.orgId, kind) : [];
        const hooks = (await this.options.store.webhooks(site.internalId)).filter((hook) => hook[kind]);
        const sends = [...users.map((userId) => ({ userId, webhookId: 0 })), ...hooks.map((hook) => ({ userId: 0, webhookId: hook.id }))];
        planned += await this.options.store.planSends(
          sends.map((recipient) => ({ ...recipient, siteId: site.internalId, kind, periodFrom: period.from, periodTo: period.to })),
          now,
        );
      }
    }
    return planned;
  }

  /**
   * Claims and sends due digests until none is left; answers how many were sent. One send is claimed
   * at a time, as its turn comes, and its claim runs from the time it is made (`now` moved on by the
   * time the earlier sends took): a claim covers one SMTP exchange or webhook post, never the sends
   * queued before it, so it cannot expire while it waits and let another worker send it too.
   */
  async sendDue(now: number): Promise<number> {
    const started = this.options.clock.now();
    let sent = 0;
    for (;;) {
      const at = now + (this.options.clock.now() - started);
      const [send] = await this.options.store.claimDue(this.holder, at, at + DIGEST_CLAIM_MS, 1);
      if (!send) return sent;
      if (await this.deliver(send, at)) sent++;
    }
  }

  private async deliver(send: DigestSend, now: number): Promise<boolean> {
    const site = await this.options.meta.getSite(send.sitePublicId);
    if (!site || site.status !== 'active') return this.giveUp(send, 'the site is gone');
    try {
      const digest = await readDigest({ events: this.options.events, meta: this.options.meta }, site, send.kind, { from: send.periodFrom, to: send.periodTo }, now, this.options.publicBase!);
      const failure = send.webhookId > 0 ? await this.post(send, digest) : await this.mail(send, site, digest);
      if (typeof failure === 'string') return this.giveUp(send, failure);
      if (failure !== undefined) return this.failed(send, failure.message, failure.retry);
    } catch (err) {
      return this.failed(send, err instanceof Error ? err.message : String(err), true);
    }
    return this.options.store.markSent(send, this.holder, this.options.clock.now());
  }

  /** Mails a member's report; answers why it is given up instead when the member may no longer have it. */
  private async mail(send: DigestSend, site: Site, digest: Digest): Promise<string | undefined> {
    const user = await this.options.accounts.getUser(send.userId);
    if (!user || (await this.options.accounts.roleIn(site.orgId, user.id)) === undefined) return 'the member left';
    // An organisation that requires two-factor sign-in shows its figures to no member without it, by mail neither.
    if ((await this.options.accounts.orgsAwaitingTwoFactor(user.id)).includes(site.orgId)) {
      return 'the member has not enabled the two-factor sign-in its organisation requires';
    }
    if (!this.options.mail) throw new Error('SVC_SMTP_URL is not set');
    const unsubscribeUrl = `${this.options.publicBase!}/unsubscribe/${this.unsubscribeToken(send)}`;
    // In the member's language; English for a member who chose none (no browser to ask).
    const words = mailWords(await this.options.accounts.languageOf(user.id));
    await this.options.mail({
      to: [user.email],
      subject: digestSubject(digest, words),
      text: digestText(digest, unsubscribeUrl, words),
      html: digestHtml(digest, unsubscribeUrl, words),
      // One Message-ID per member, site, kind and period: a mail reader shows one, whatever happened.
      messageId: `<digest-${send.userId}-${send.siteId}-${send.kind}-${send.periodFrom}@svc>`,
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return undefined;
  }

  /**
   * Posts a webhook's report, signed as alert webhooks are (svc-signature over the body,
   * svc-delivery-id the same on every attempt), in Slack's format for a Slack URL. A URL the policy
   * refuses is not tried again (but a failed DNS look-up is). A deleted webhook's send is given up,
   * with the reason answered.
   */
  private async post(send: DigestSend, digest: Digest): Promise<string | { message: string; retry: boolean } | undefined> {
    const hook = await this.options.store.webhook(send.webhookId);
    if (!hook) return 'the webhook was deleted';
    const body = isSlackWebhook(hook.url) ? slackMessage(digest) : digestPayload(digest, this.options.clock.now());
    const deliveryId = `digest-${hook.id}-${send.kind}-${send.periodFrom}`;
    const status = await sendWebhook({ url: hook.url, body, headers: () => deliveryHeaders(hook.secret, deliveryId, body, this.options.clock.now()) }, this.options.webhookSender);
    if (status === 'succeeded') return undefined;
    return { message: status, retry: isRetryable(status) };
  }

  private async giveUp(send: DigestSend, reason: string): Promise<false> {
    await this.options.store.markFailed(send, this.holder, this.options.clock.now(), reason, undefined);
    return false;
  }

  private async failed(send: DigestSend, message: string, retry: boolean): Promise<false> {
    const delay = retry ? DIGEST_RETRY_DELAYS_MS[send.attempts] : undefined;
    const now = this.options.clock.now();
    await this.options.store.markFailed(send, this.holder, now, message, delay === undefined ? undefined : now + delay);
    this.options.warn(`digest ${send.kind} ${send.periodFrom} of site ${send.sitePublicId} to ${send.webhookId > 0 ? `webhook ${send.webhookId}` : `user ${send.userId}`} failed: ${message}`);
    return false;
  }

  /**
   * Mails the report of the site's last complete week or month to `email` now (svc digest send, the
   * account page's test report). It is no scheduled send: no row of the plan, no subscription, no
   * unsubscribe link, so the scheduled reports still go out once each.
   */
  async sendNow(site: Site, kind: DigestKind, email: string, language: Language): Promise<{ period: DigestPeriod; sentAt: number }> {
    const { mail, publicBase } = this.options;
    if (!mail || publicBase === undefined) throw apiError('REPORT_NOT_SENT', 'mailOff');
    const now = this.options.clock.now();
    const period = lastCompletePeriod(kind, now, site.timezone);
    const digest = await readDigest({ events: this.options.events, meta: this.options.meta }, site, kind, period, now, publicBase);
    try {
      const words = mailWords(language);
      await mail({ to: [email], subject: digestSubject(digest, words), text: digestText(digest, undefined, words), html: digestHtml(digest, undefined, words) });
    } catch (err) {
      throw apiError('REPORT_NOT_SENT', 'smtp', { cause: err instanceof Error ? err.message : String(err) });
    }
    return { period, sentAt: this.options.clock.now() };
  }

  // --- a site's webhooks ---------------------------------------------------------------------

  async addWebhook(site: Site, input: { url: unknown; secret: string; weekly: boolean; monthly: boolean }): Promise<DigestWebhook> {
    const url = await this.options.checkWebhookUrl(input.url);
    return this.options.store.createWebhook({ siteId: site.internalId, url, secret: input.secret, weekly: input.weekly, monthly: input.monthly }, this.options.clock.now());
  }

  webhooks(site: Site): Promise<DigestWebhook[]> {
    return this.options.store.webhooks(site.internalId);
  }

  async deleteWebhook(site: Site, id: number): Promise<void> {
    if (!(await this.options.store.deleteWebhook(site.internalId, id))) throw apiError('NOT_FOUND', 'digestWebhook');
  }

  // --- members' choices and the unsubscribe link ----------------------------------------------

  async choices(userId: number): Promise<Map<number, DigestChoice>> {
    return new Map((await this.options.store.subscriptionsOf(userId)).map((s) => [s.siteId, { weekly: s.weekly, monthly: s.monthly }]));
  }

  setChoice(userId: number, site: Site, choice: DigestChoice): Promise<void> {
    return this.options.store.setSubscription(userId, site.internalId, choice);
  }

  status(site: Site): Promise<DigestSiteStatus> {
    return this.options.store.siteStatus(site.internalId);
  }

  private signature(payload: string): string {
    return createHmac('sha256', this.options.signingKey).update(`svc digest unsubscribe ${payload}`).digest('base64url');
  }

  /** `<userId>.<siteId>.<kind>.<signature>`: works without signing in, for this member, site and kind only. */
  unsubscribeToken(key: Pick<DigestKey, 'userId' | 'siteId' | 'kind'>): string {
    const payload = `${key.userId}.${key.siteId}.${key.kind}`;
    return `${payload}.${this.signature(payload)}`;
  }

  /** What an unsubscribe token stops, or 404 for a token this service did not sign. */
  private unsubscribeTarget(token: string): { userId: number; siteId: number; kind: DigestKind } {
    const match = /^(\d{1,12})\.(\d{1,12})\.(weekly|monthly)\.([\w-]{43})$/.exec(token);
    if (!match || !tokensEqual(match[4]!, this.signature(`${match[1]}.${match[2]}.${match[3]}`))) throw apiError('NOT_FOUND', 'unsubscribe');
    return { userId: Number(match[1]), siteId: Number(match[2]), kind: match[3] as DigestKind };
  }

  validUnsubscribeToken(token: string): boolean {
    try {
      this.unsubscribeTarget(token);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops one kind of report for the token's member and site (the other kind stays as chosen). */
  async unsubscribe(token: string): Promise<{ kind: DigestKind }> {
    const target = this.unsubscribeTarget(token);
    const current = (await this.options.store.subscriptionsOf(target.userId)).find((s) => s.siteId === target.siteId);
    if (current) {
      await this.options.store.setSubscription(target.userId, target.siteId, { ...current, [target.kind]: false });
    }
    return { kind: target.kind };
  }
}
