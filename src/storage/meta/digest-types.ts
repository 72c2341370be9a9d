// The DigestStore port: members' digest choices and the digest sends (migration 012_digests).

export type DigestKind = 'weekly' | 'monthly';
export const DIGEST_KINDS: readonly DigestKind[] = ['weekly', 'monthly'];

/** One digest: a recipient (a member, or a webhook), a site (internal id), a kind and its period of site-local days. */
export interface DigestKey {
  /** The member it is mailed to; 0 for a webhook's. */
  userId: number;
  /** The webhook it is posted to; 0 for a member's. */
  webhookId: number;
  siteId: number;
  kind: DigestKind;
  periodFrom: string;
}

/** A claimed send: what its delivery needs. */
export interface DigestSend extends DigestKey {
  /** The site's public id. */
  sitePublicId: string;
  periodTo: string;
  /** Attempts made before this one (its retry delay if it fails). */
  attempts: number;
}

/** What a site's settings show of its digests. */
export interface DigestSiteStatus {
  lastSentAt: number | null;
  lastError: { at: number; message: string } | null;
  pending: number;
}

/** A site's webhook that receives its reports. */
export interface DigestWebhook {
  id: number;
  siteId: number;
  url: string;
  secret: string;
  weekly: boolean;
  monthly: boolean;
  createdAt: number;
}

export interface DigestStore {
  createWebhook(webhook: Omit<DigestWebhook, 'id' | 'createdAt'>, now: number): Promise<DigestWebhook>;
  webhooks(siteId: number): Promise<DigestWebhook[]>;
  webhook(id: number): Promise<DigestWebhook | undefined>;
  /** Deletes the webhook; its planned sends find no webhook and end. */
  deleteWebhook(siteId: number, id: number): Promise<boolean>;
  /** The member's choice for a site; both false deletes it. */
  setSubscription(userId: number, siteId: number, choice: { weekly: boolean; monthly: boolean }): Promise<void>;
  subscriptionsOf(userId: number): Promise<Array<{ siteId: number; weekly: boolean; monthly: boolean }>>;
  /** The users who chose `kind` for the site and are still members of its organisation. */
  subscribers(siteId: number, orgId: number, kind: DigestKind): Promise<number[]>;
  /** The sites (public ids) with at least one subscription or webhook. */
  subscribedSites(): Promise<string[]>;
  /** Adds the sends not planned yet (a planned one, whatever its state, stays as it is); answers how many were added. */
  planSends(sends: Array<DigestKey & { periodTo: string }>, now: number): Promise<number>;
  /**
   * Claims up to `limit` pending sends due at `now` whose claim is free or expired, for `holder`
   * until `claimedUntil`. Each row is taken by one conditional update: of two workers claiming at
   * once, one gets each row.
   */
  claimDue(holder: string, now: number, claimedUntil: number, limit: number): Promise<DigestSend[]>;
  /** Marks a send sent, if `holder` still holds it. */
  markSent(key: DigestKey, holder: string, now: number): Promise<boolean>;
  /** Records a failed attempt: pending again at `retryAt`, or failed for good without one. */
  markFailed(key: DigestKey, holder: string, now: number, error: string, retryAt: number | undefined): Promise<void>;
  siteStatus(siteId: number): Promise<DigestSiteStatus>;
}
