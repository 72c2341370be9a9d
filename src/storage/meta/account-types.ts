// The AccountStore port: users, memberships, invitations, sessions, sign-in attempts and locks (the
// records are src/entities/accounts.ts).
import { ERRORS } from '../../core/errors.js';
import type { Member, Membership, User } from '../../core/management.js';
import type { Role } from '../../core/vocabulary.js';
import type { Language } from '../../core/messages/language.js';
import type {
  AttemptKey,
  Invitation,
  InvitationAcceptance,
  MembershipChange,
  OrgSignIn,
  Reservation,
  SessionRecord,
  SharedLink,
  SsoFlow,
  SsoFlowBounds,
  SsoFlowStart,
  TwoFactorRecord,
} from '../../entities/accounts.js';

export class DuplicateEmail extends Error {
  constructor() {
    super(ERRORS.CONFLICT.messages.email);
  }
}

/**
 * The AccountStore port: dashboard accounts in the metadata database. One Kysely implementation
 * (kysely-account-store.ts, composing ./kysely/) serves SQLite and PostgreSQL, over the MetaStore's handle.
 */
export interface AccountStore {
  // users
  /** Throws DuplicateEmail when the email (in any letter case) exists. */
  createUser(user: { email: string; name: string; passwordHash: string; emailConfirmed?: boolean }, now: number): Promise<User>;
  listUsers(): Promise<User[]>;
  hasUsers(): Promise<boolean>;
  getUser(id: number): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<(User & { passwordHash: string; emailConfirmed: boolean }) | undefined>;
  /** Whether svc knows the user's email confirmed (a mailed link followed, or single sign-on). */
  emailConfirmed(id: number): Promise<boolean>;
  /** The language the user chose for the dashboard and its mails; null while none is (or the stored one is unknown). */
  languageOf(id: number): Promise<Language | null>;
  /** Keeps the user's language (null: none chosen); false when there is no such user. */
  setLanguage(id: number, language: Language | null): Promise<boolean>;
  /** Deletes the user with its memberships and sessions; false when there was none. */
  deleteUser(id: number): Promise<boolean>;
  /** Sets the password hash and ends every session of the user. */
  setPasswordHash(id: number, passwordHash: string): Promise<boolean>;
  /**
   * Replaces the hash `expected` with `next` (the same password hashed with other parameters); the
   * sessions stay. False when the hash is no longer `expected` (the password changed meanwhile).
   */
  replacePasswordHash(id: number, expected: string, next: string): Promise<boolean>;

  /**
   * Changes the email (confirmed as given) and ends every session and confirmation link of the user;
   * throws DuplicateEmail when another user has it.
   */
  setEmail(id: number, email: string, confirmed: boolean): Promise<boolean>;
  /** Stores a mailed link that confirms `email` for the user, replacing the user's earlier one. */
  createEmailConfirmation(link: { tokenHash: string; userId: number; email: string; expiresAt: number }): Promise<void>;
  /** The link of a token hash, deleted (used once); undefined when unknown or expired. */
  takeEmailConfirmation(tokenHash: string, now: number): Promise<{ userId: number; email: string } | undefined>;
  /**
   * Marks the user's email confirmed when it is `email`, else changes it to `email`, confirmed (as
   * setEmail: DuplicateEmail when another user has it).
   */
  confirmEmail(id: number, email: string): Promise<'confirmed' | 'changed' | 'not-found'>;
  deleteEmailConfirmationsExpiredBy(now: number): Promise<number>;
  /**
   * Deletes the user (as deleteUser) unless it is the last owner of an organisation, checked and
   * done in one serialized write transaction (on PostgreSQL the user's owned organisations' rows
   * locked first, as changeMembership locks them), so two last owners cannot both leave.
   */
  deleteUserUnlessLastOwner(id: number): Promise<'deleted' | 'last-owner' | 'not-found'>;

  // two-factor sign-in
  twoFactorOf(userId: number): Promise<TwoFactorRecord | undefined>;
  /** Stores a new secret awaiting its first code; false (nothing changed) when two-factor sign-in is enabled. */
  beginTwoFactor(userId: number, secret: string): Promise<boolean>;
  /**
   * Enables the pending secret (its code of `step` used) and replaces the recovery codes with
   * `codeHashes`, in one transaction; false when no secret was pending.
   */
  enableTwoFactor(userId: number, step: number, codeHashes: string[], now: number): Promise<boolean>;
  /** Records `step` as used, only if it is after the last one used: false when another request used it (or a later one) first. */
  useTotpStep(userId: number, step: number): Promise<boolean>;
  /** Deletes an unused recovery code: false when there was none (never issued, or used already). */
  useRecoveryCode(userId: number, codeHash: string): Promise<boolean>;
  /** Removes the secret and the recovery codes; false when there were none. */
  deleteTwoFactor(userId: number): Promise<boolean>;
  setOrgTwoFactor(orgId: number, required: boolean, now: number): Promise<void>;
  orgRequiresTwoFactor(orgId: number): Promise<boolean>;
  /** The organisations of the user's memberships that require two-factor sign-in, when the user has not enabled it. */
  orgsAwaitingTwoFactor(userId: number): Promise<number[]>;

  // shared links
  createSharedLink(link: Omit<SharedLink, 'id' | 'createdAt' | 'lastUsedAt'> & { tokenHash: string }, now: number): Promise<SharedLink>;
  sharedLinks(siteId: number): Promise<SharedLink[]>;
  /** The link of a token hash, if it has not expired at `now`. */
  sharedLinkByToken(tokenHash: string, now: number): Promise<SharedLink | undefined>;
  /** Deletes the link and its grants; false when the site has no such link. */
  revokeSharedLink(siteId: number, linkId: number): Promise<boolean>;
  /** Records an opening of the link: a grant until `expiresAt`, and the link's last use. */
  grantSharedLink(grant: { id: string; linkId: number; expiresAt: number }, now: number): Promise<void>;
  /** The link of a live grant (neither the grant nor the link expired at `now`, the link not revoked). */
  sharedLinkByGrant(grantId: string, now: number): Promise<SharedLink | undefined>;
  touchSharedLink(linkId: number, now: number): Promise<void>;
  deleteSharedLinkGrantsExpiredBy(now: number): Promise<number>;

  // memberships
  setMembership(orgId: number, userId: number, role: Role, now: number): Promise<void>;
  /**
   * Gives the user `role` in the organisation (`null`: removes the membership), unless that leaves
   * the organisation without an owner. The owner check and the write are one serialized write
   * transaction, on PostgreSQL with the organisation's row locked first, so two owners demoting each
   * other at once leave one owner: the second sees the first's change.
   */
  changeMembership(orgId: number, userId: number, role: Role | null, now: number): Promise<MembershipChange>;
  roleIn(orgId: number, userId: number): Promise<Role | undefined>;
  membershipsOf(userId: number): Promise<Membership[]>;
  members(orgId: number): Promise<Member[]>;

  // invitations
  /**
   * A pending invitation; one already pending for the same organisation and email is replaced in
   * place (its id stays, its link dies). One upsert, so invitations of one email sent at once all
   * succeed and the last one written holds.
   */
  createInvitation(invitation: { orgId: number; email: string; role: Role; tokenHash: string; expiresAt: number }, now: number): Promise<Invitation>;
  /** The organisation's invitations still valid at `now`, oldest first. */
  invitations(orgId: number, now: number): Promise<Invitation[]>;
  /** The invitation of a link's token hash, with its organisation's name, if valid at `now`. */
  invitationByToken(tokenHash: string, now: number): Promise<(Invitation & { orgName: string }) | undefined>;
  revokeInvitation(orgId: number, invitationId: number): Promise<boolean>;
  /**
   * Uses the invitation of a link for a user whose email is the invited one: deletes it and gives the
   * invited role (a membership already at least as high is kept), in one serialized write
   * transaction. Of two acceptances at once, the one that deletes the row wins; the other finds
   * nothing, as does one whose link was replaced meanwhile (the delete is by id and token).
   */
  acceptInvitation(tokenHash: string, user: { id: number; email: string }, now: number): Promise<InvitationAcceptance>;
  deleteInvitationsExpiredBy(now: number): Promise<number>;

  // single sign-on
  /**
   * Stores a flow under way, unless `max.total` unexpired flows are stored (`full`) or
   * `max.perNetwork` of its client network (`network-full`); expired ones are deleted first. The
   * counts and the insert are one serialized write, so the bounds hold across processes.
   */
  createSsoFlow(flow: SsoFlow & { stateHash: string; network: string }, now: number, max: SsoFlowBounds): Promise<SsoFlowStart>;
  /** Deletes the flow of a state hash and answers it, if it had not expired at `now`: a state is used once. */
  takeSsoFlow(stateHash: string, now: number): Promise<SsoFlow | undefined>;
  deleteSsoFlowsExpiredBy(now: number): Promise<number>;
  orgSignIn(orgId: number): Promise<OrgSignIn>;
  /** Replaces the organisation's sign-in settings (its domains included), in one transaction. */
  setOrgSignIn(orgId: number, settings: OrgSignIn, now: number): Promise<void>;
  /** The organisations whose `Sign-in domains` list `domain` (lower case). */
  orgsOfSignInDomain(domain: string): Promise<number[]>;
  /** The names of the user's organisations that require single sign-on. */
  orgsRequiringSingleSignOn(userId: number): Promise<string[]>;
  /** The token hashes of the pending invitations of an email key. */
  pendingInvitationTokens(emailKeyValue: string, now: number): Promise<string[]>;

  // sessions
  createSession(session: { id: string; userId: number; csrfToken: string; singleSignOn?: boolean }, now: number): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  touchSession(id: string, now: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Deletes the sessions last used before `lastUsedBefore` or created before `createdBefore`. */
  deleteExpiredSessions(bounds: { lastUsedBefore: number; createdBefore: number }): Promise<number>;

  // sign-in attempts and locks
  /**
   * Counts a sign-in attempt before its password is checked. Refuses (undefined) while the email or
   * the client group is locked at `now`, or when either has `max` attempts after `since`; otherwise
   * records the attempt at `now` and answers it with both counts. Atomic across processes: however
   * many reservations for one email or one client group run together, at most `max` are granted in
   * a window.
   */
  reserveAttempt(key: AttemptKey, now: number, since: number, max: number): Promise<Reservation | undefined>;
  /** Forgets a reserved attempt whose password was never checked. */
  releaseAttempt(id: number): Promise<void>;
  /** Forgets every attempt for the email (a successful sign-in). */
  clearAttempts(emailKeyValue: string): Promise<void>;
  deleteAttemptsBefore(before: number): Promise<number>;
  /** Locks the email and the client group that `key` names until `until`. */
  lock(key: Partial<AttemptKey>, until: number): Promise<void>;
  deleteLocksBefore(now: number): Promise<number>;
}
