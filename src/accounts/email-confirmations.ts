// Confirmed emails (docs/accounts.md): svc knows an account's email to be confirmed once a link it
// mailed to that address was followed (or single sign-on signed the account in). A link confirms the
// user's current email, or changes it to a new one: an email change takes effect only then. Links
// are mailed only with SMTP and SVC_PUBLIC_URL (a link built from a request's Host header would let a
// caller have svc mail a link to a host of its choosing); without them only the operator changes an
// email. The store keeps a link's SHA-256 only; one link per user, valid a day, used once.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import type { MailSender } from '../alerts/email.js';
import type { RateLimiter } from '../storage/counters/rate-limiter.js';
import { DuplicateEmail, type AccountStore } from '../storage/meta/account-types.js';

export const EMAIL_CONFIRMATION_VALID_MS = 24 * 3_600_000;
/** Links a user may have mailed in an hour (changes and confirmations together): each goes to an address the user typed. */
export const CONFIRMATION_MAILS_PER_HOUR = 5;
/** Where a mailed link leads: a page with one button (a mail scanner that follows links confirms nothing). */
export const EMAIL_CONFIRMATION_PATH = '/account/email/confirm';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What following a link did: the email confirmed, or changed to the link's (and confirmed). */
export type EmailConfirmation = { outcome: 'confirmed' | 'changed'; email: string };

export class EmailConfirmations {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
    private readonly mail: MailSender | undefined,
    /** SVC_PUBLIC_URL without its trailing slash. */
    private readonly publicUrl: string | undefined,
    /** Counts each user's mails (CONFIRMATION_MAILS_PER_HOUR). */
    private readonly limiter: RateLimiter,
  ) {}

  /** Whether links can be mailed (SMTP and SVC_PUBLIC_URL). */
  get available(): boolean {
    return this.mail !== undefined && this.publicUrl !== undefined;
  }

  /** Mails the user a link that confirms `email` (its current one, or the new one it asked for); the earlier link ends. */
  async send(userId: number, email: string): Promise<void> {
    if (!this.mail || this.publicUrl === undefined) throw apiError('FORBIDDEN', 'emailByOperator');
    if (!(await this.limiter.hit(String(userId), this.clock.now()))) {
      throw apiError('RATE_LIMITED', 'emailConfirmations', { perHour: CONFIRMATION_MAILS_PER_HOUR }, { 'retry-after': '3600' });
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.clock.now() + EMAIL_CONFIRMATION_VALID_MS;
    await this.store.createEmailConfirmation({ tokenHash: sha256Hex(token), userId, email, expiresAt });
    try {
      await this.mail({
        to: [email],
        subject: 'Confirm your email on svc',
        text: [
          `Someone asked svc to use ${email} as the email of their account.`,
          `If it was you, open this link and press Confirm (it works once, until ${new Date(expiresAt).toISOString()}):`,
          `${this.publicUrl}${EMAIL_CONFIRMATION_PATH}/${token}`,
          'If it was not you, ignore this mail: nothing changes.',
        ].join('\n\n'),
      });
    } catch (err) {
      throw apiError('MAIL_NOT_SENT', 'confirmation', { cause: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Whether a token has the shape of one (a page need not look others up). */
  wellFormed(token: string): boolean {
    return TOKEN_PATTERN.test(token);
  }

  /** Follows a link: 404 when it was used, replaced or expired; 409 when another account took the new email meanwhile. */
  async confirm(token: string): Promise<EmailConfirmation> {
    const link = this.wellFormed(token) ? await this.store.takeEmailConfirmation(sha256Hex(token), this.clock.now()) : undefined;
    if (!link) throw apiError('NOT_FOUND', 'emailConfirmation');
    let outcome: 'confirmed' | 'changed' | 'not-found';
    try {
      outcome = await this.store.confirmEmail(link.userId, link.email);
    } catch (err) {
      if (err instanceof DuplicateEmail) throw apiError('CONFLICT', 'email');
      throw err;
    }
    if (outcome === 'not-found') throw apiError('NOT_FOUND', 'emailConfirmation');
    return { outcome, email: link.email };
  }

  prune(now: number): Promise<number> {
    return this.store.deleteEmailConfirmationsExpiredBy(now);
  }
}
