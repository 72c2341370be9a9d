// Shared links (docs/accounts.md#shared-links): an admin makes a link that shows one site's
// dashboard, read-only, to whoever holds it, optionally behind a password, until a day, and locked to
// filters. The link's token is answered once and stored as its SHA-256. Opening a link (after its
// password) makes a grant: a random access token the page sends in the `x-share-access` header with
// each read, so the link's own token never travels in an API request's address. Every read checks
// the grant, the link (revoked: deleted; expired) and its locked filters.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { ApiError, apiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import { addDays, startOfLocalDay } from '../core/localtime.js';
import { parseLockedFilters } from '../core/query.js';
import { SEGMENT_FILTERS } from '../core/segments.js';
import { MAX_LINK_FILTERS } from '../core/vocabulary.js';
import type { SharedLink } from '../entities/accounts.js';
import type { Site } from '../entities/sites.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import type { AttemptSubject } from './lockout.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords.js';

/** How long one opening of a link reads; then its page opens it again (asking its password again when it has one). */
export const GRANT_MS = 12 * 3_600_000;
/** Last use is written at most this often, so reads do not each write. */
const TOUCH_EVERY_MS = 60_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const MAX_LOCKED_FILTERS = MAX_LINK_FILTERS + SEGMENT_FILTERS.max;

export interface NewSharedLink {
  password?: unknown;
  /** The last day (`YYYY-MM-DD`, in the site's zone) the link works. */
  expiresOn?: string;
  filters: string[];
  embedDomains: string[];
}

/**
 * Counts a presented secret as a sign-in attempt of a client the opening already counted against its
 * sign-in rate limit (AccountService.admittedCheck): the lockout's reservation, then the check.
 */
export type CountedCheck = (subject: AttemptSubject, check: () => Promise<boolean>, refusal: () => ApiError) => Promise<void>;

export type LinkOpening = { passwordRequired: true } | { access: string; link: SharedLink; grantExpiresAt: number };

export class SharedLinks {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
    private readonly countedCheck: CountedCheck,
    /** Counts an opening against its client's sign-in rate limit (each one writes a grant). */
    private readonly admit: (address: string) => Promise<void>,
  ) {}

  /**
   * A new link of `site`, and its token (answered this once). The filters are checked by the read
   * API's own parser, a `page` pattern by the goals' rules (a filter they refuse is refused here,
   * with its error); the expiry day must not be past.
   */
  async create(site: Site, input: NewSharedLink): Promise<{ link: SharedLink; token: string }> {
    const now = this.clock.now();
    if (input.filters.length > MAX_LOCKED_FILTERS) throw apiError('INVALID_PARAMS', 'sharedLinkFilters', { max: MAX_LOCKED_FILTERS });
    parseLockedFilters(input.filters);
    const expiresAt = input.expiresOn === undefined ? undefined : startOfLocalDay(addDays(input.expiresOn, 1), site.timezone);
    if (expiresAt !== undefined && expiresAt <= now) throw apiError('INVALID_PARAMS', 'sharedLinkExpired');
    const passwordHash = input.password === undefined ? undefined : await hashPassword(checkPasswordPolicy(input.password));
    const token = randomBytes(32).toString('base64url');
    const link = await this.store.createSharedLink(
      { siteId: site.internalId, sitePublicId: site.id, tokenHash: sha256Hex(token), passwordHash, expiresAt, filters: input.filters, embedDomains: input.embedDomains },
      now,
    );
    return { link, token };
  }

  list(site: Site): Promise<SharedLink[]> {
    return this.store.sharedLinks(site.internalId);
  }

  async revoke(site: Site, linkId: number): Promise<void> {
    if (!(await this.store.revokeSharedLink(site.internalId, linkId))) throw apiError('NOT_FOUND', 'sharedLink');
  }

  /** The live link of a token (404 for an unknown, revoked or expired one), for its page. */
  async byToken(token: string): Promise<SharedLink> {
    const link = TOKEN_PATTERN.test(token) ? await this.store.sharedLinkByToken(sha256Hex(token), this.clock.now()) : undefined;
    if (!link) throw apiError('NOT_FOUND', 'sharedLink');
    return link;
  }

  /**
   * Opens a link: counted once against its client's sign-in rate limit, before the link is looked
   * up; with a password, it must come and is checked as a sign-in attempt of the link (10 wrong ones
   * in 15 minutes lock the link, or the client, for 15 minutes); then a grant.
   */
  async open(token: string, password: string | undefined, address: string): Promise<LinkOpening> {
    await this.admit(address);
    const link = await this.byToken(token);
    if (link.passwordHash !== undefined) {
      if (password === undefined) return { passwordRequired: true };
      const hash = link.passwordHash;
      await this.countedCheck({ email: `shared-link:${link.id}`, address }, () => verifyPassword(password, hash), () => apiError('UNAUTHORIZED', 'wrongSharePassword'));
    }
    const now = this.clock.now();
    const access = randomBytes(32).toString('base64url');
    const grantExpiresAt = Math.min(now + GRANT_MS, link.expiresAt ?? Infinity);
    await this.store.grantSharedLink({ id: sha256Hex(access), linkId: link.id, expiresAt: grantExpiresAt }, now);
    return { access, link, grantExpiresAt };
  }

  /** The link a page's access token reads through, or undefined (expired, revoked, unknown). */
  async byAccess(access: string): Promise<SharedLink | undefined> {
    if (!TOKEN_PATTERN.test(access)) return undefined;
    const now = this.clock.now();
    const link = await this.store.sharedLinkByGrant(sha256Hex(access), now);
    if (link && now - (link.lastUsedAt ?? 0) >= TOUCH_EVERY_MS) await this.store.touchSharedLink(link.id, now);
    return link;
  }

  prune(now: number): Promise<number> {
    return this.store.deleteSharedLinkGrantsExpiredBy(now);
  }
}
