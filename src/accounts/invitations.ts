// Invitations to an organisation: an owner invites an email with a role; the link
// (`/invitations/<token>`) is answered once and, when SMTP is configured, mailed; it works once,
// for 7 days. The store keeps only the token's SHA-256, as sessions do. Nothing here tells whether an
// account has the invited email: the answer to an invitation is the same either way.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import type { Role } from '../core/vocabulary.js';
import type { InvitationView } from '../core/management.js';
import { emailKey, type Invitation } from '../entities/accounts.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import type { MetaStore } from '../storage/meta/types.js';
import type { MailSender } from '../alerts/email.js';
import { fill, type Language } from '../core/messages/language.js';
import { mailWords } from '../core/messages/server.js';

export const INVITATION_VALID_MS = 7 * 24 * 3_600_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What an owner gets back: the link, shown once. */
export interface SentInvitation {
  invitation: Invitation;
  url: string;
  /** Whether the link was also mailed to the invited email. */
  emailed: boolean;
}

const invitationUrl = (base: string, token: string) => `${base}/invitations/${token}`;

/** Control characters (a line break in an organisation's name) never reach a mail header. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

export class Invitations {
  constructor(
    private readonly store: AccountStore,
    private readonly meta: MetaStore,
    private readonly clock: Clock,
    private readonly mail: MailSender | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Invites `email` to the organisation with `role`; a pending invitation of that email is
   * replaced. Refused (409) only for an email that is already a member's, which the owner sees in
   * the members list anyway.
   */
  /**
   * `link.base` starts the link (http.ts publicBase). Only a link from the operator's SVC_PUBLIC_URL
   * is mailed: one built from the request's Host header would let a caller have svc mail a link to a
   * host of its choosing. The mail is in the language of the invited email's account, else in
   * `language` (the inviting request's).
   */
  async create(orgId: number, email: string, role: Role, link: { base: string; fromPublicUrl: boolean }, language: Language): Promise<SentInvitation> {
    const org = await this.meta.getOrg(orgId);
    if (!org) throw apiError('NOT_FOUND', 'organisation');
    if ((await this.store.members(orgId)).some((member) => emailKey(member.email) === emailKey(email))) {
      throw apiError('CONFLICT', 'member');
    }
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const invitation = await this.store.createInvitation({ orgId, email, role, tokenHash: sha256Hex(token), expiresAt: now + INVITATION_VALID_MS }, now);
    const url = invitationUrl(link.base, token);
    return { invitation, url, emailed: link.fromPublicUrl && (await this.send(invitation, org.name, url, language)) };
  }

  private async send(invitation: Invitation, orgName: string, url: string, language: Language): Promise<boolean> {
    if (!this.mail) return false;
    try {
      const invited = await this.store.findUserByEmail(invitation.email);
      const { mail, locale, roles } = mailWords((invited && (await this.store.languageOf(invited.id))) ?? language);
      const expires = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(invitation.expiresAt);
      const org = oneLine(orgName);
      await this.mail({
        to: [invitation.email],
        subject: fill(mail.inviteSubject, { org }),
        text: [fill(mail.inviteBody, { org, role: roles[invitation.role] }), fill(mail.inviteOpen, { expires }), url, mail.inviteIgnore].join('\n\n'),
      });
      return true;
    } catch (err) {
      this.warn(`the invitation mail for organisation ${invitation.orgId} could not be sent: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  list(orgId: number): Promise<Invitation[]> {
    return this.store.invitations(orgId, this.clock.now());
  }

  async revoke(orgId: number, invitationId: number): Promise<void> {
    if (!(await this.store.revokeInvitation(orgId, invitationId))) throw apiError('NOT_FOUND', 'invitation');
  }

  /** The invitation of a link, or 404 when it was used, revoked or expired (or never was). */
  async pending(token: string): Promise<InvitationView & { id: number; orgId: number }> {
    const found = TOKEN_PATTERN.test(token) ? await this.store.invitationByToken(sha256Hex(token), this.clock.now()) : undefined;
    if (!found) throw apiError('NOT_FOUND', 'invitationGone');
    return { id: found.id, orgId: found.orgId, orgName: found.orgName, email: found.email, role: found.role, expiresAt: found.expiresAt };
  }

  /**
   * Makes the signed-in user a member with the invited role. The user's email must be the invited
   * one (403 otherwise, the invitation left pending for its addressee).
   */
  async accept(token: string, user: { id: number; email: string }): Promise<{ orgId: number; role: Role }> {
    const outcome = TOKEN_PATTERN.test(token) ? await this.store.acceptInvitation(sha256Hex(token), user, this.clock.now()) : 'not-found';
    if (outcome === 'not-found') throw apiError('NOT_FOUND', 'invitationGone');
    if (outcome === 'wrong-email') throw apiError('FORBIDDEN', 'otherEmail', { email: user.email });
    return { orgId: outcome.invitation.orgId, role: outcome.role };
  }

  /** Deletes the expired invitations' rows (pending() already refuses them). */
  prune(now: number): Promise<number> {
    return this.store.deleteInvitationsExpiredBy(now);
  }
}
