// AccountService: the one implementation of users, memberships, sign-in and first-run setup, shared
// by the admin API, the CLI (through it) and the dashboard's /app/v1 endpoints.
import type { Clock } from '../core/clock.js';
import { ApiError, apiError } from '../core/errors.js';
import type { MaintenanceTask } from '../core/maintenance.js';
import type { MetaStore } from '../storage/meta/types.js';
import type { MailSender } from '../alerts/email.js';
import { Invitations } from './invitations.js';
import { MemorySlidingWindow, type RateLimiter } from '../storage/counters/rate-limiter.js';
import { Lockout, type AttemptSubject, type ReservedAttempt } from './lockout.js';
import { checkPasswordPolicy, hashNeedsUpgrade, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import type { Member, Membership, SessionView, User } from '../core/management.js';
import type { Role } from '../core/vocabulary.js';
import { tokensEqual } from '../core/secrets.js';
import { Sessions, type NewSession } from './sessions.js';
import { emailKey, type OrgSignIn, type SessionRecord } from '../entities/accounts.js';
import { DuplicateEmail, type AccountStore } from '../storage/meta/account-types.js';
import { TwoFactor } from './two-factor.js';
import { SharedLinks } from './shared-links.js';
import { CONFIRMATION_MAILS_PER_HOUR, EmailConfirmations } from './email-confirmations.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The password hash of an account single sign-on made: no password verifies against it (it is no scrypt hash). */
const NO_PASSWORD = 'single-sign-on';
const MAX_EMAIL_LENGTH = 254;

export function checkEmail(email: unknown): string {
  if (typeof email !== 'string' || email.trim().length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email.trim())) {
    throw apiError('INVALID_PARAMS', 'email');
  }
  return email.trim();
}

export interface NewUser {
  email: unknown;
  password: unknown;
  name?: string;
}

/** A sign-in's outcome: a session, or (right password, two-factor sign-in enabled, no code sent) the code asked for. */
export type SignInOutcome = { user: User; session: NewSession } | { twoFactorRequired: true };

/** A signed-in request's session and user. */
export interface SignedIn {
  session: SessionRecord;
  user: User;
}

export interface AccountServiceOptions {
  /** Mails invitation links (SVC_SMTP_URL); without it the link is only answered to the owner. */
  mail?: MailSender;
  warn?: (message: string) => void;
  /** SVC_PUBLIC_URL (no trailing slash): the only base of a mailed confirmation link. */
  publicUrl?: string;
  /** Confirmation mails per user (CONFIRMATION_MAILS_PER_HOUR), shared by the processes; else this process's own count. */
  confirmationLimiter?: RateLimiter;
}

export class AccountService {
  private readonly sessions: Sessions;
  private readonly lockout: Lockout;
  readonly invitations: Invitations;
  readonly twoFactor: TwoFactor;
  readonly sharedLinks: SharedLinks;
  readonly emails: EmailConfirmations;

  constructor(
    private readonly meta: MetaStore,
    readonly store: AccountStore,
    private readonly clock: Clock,
    /** Sign-in attempts per client (SIGNIN_RATE_LIMIT). */
    signInRateLimiter: RateLimiter,
    options: AccountServiceOptions = {},
  ) {
    this.sessions = new Sessions(this.store);
    this.lockout = new Lockout(this.store, signInRateLimiter);
    this.twoFactor = new TwoFactor(this.store, this.clock);
    this.sharedLinks = new SharedLinks(
      this.store,
      this.clock,
      (subject, check, refusal) => this.admittedCheck(subject, check, refusal),
      (address) => this.lockout.admit(address, this.clock.now()),
    );
    this.invitations = new Invitations(this.store, this.meta, this.clock, options.mail, options.warn ?? (() => undefined));
    const confirmationLimiter = options.confirmationLimiter ?? new MemorySlidingWindow(CONFIRMATION_MAILS_PER_HOUR, 3_600_000);
    this.emails = new EmailConfirmations(this.store, this.clock, options.mail, options.publicUrl, confirmationLimiter);
  }

  maintenanceTasks(): MaintenanceTask[] {
    return [
      {
        name: 'sessions',
        everyMs: 3_600_000,
        run: async (now) => {
          await this.sessions.prune(now);
          await this.lockout.prune(now);
          await this.invitations.prune(now);
          await this.store.deleteSsoFlowsExpiredBy(now);
          await this.sharedLinks.prune(now);
          await this.emails.prune(now);
        },
      },
    ];
  }

  // --- users ---------------------------------------------------------------------------------

  async createUser(input: NewUser): Promise<User> {
    const email = checkEmail(input.email);
    const password = checkPasswordPolicy(input.password);
    return this.insertUser(email, input.name, await hashPassword(password));
  }

  /**
   * Stores a user of a checked email (its name defaults to the email's local part); DuplicateEmail
   * (409) when the email has one. Its email is unconfirmed unless single sign-on makes it.
   */
  private async insertUser(email: string, name: string | undefined, passwordHash: string): Promise<User> {
    const emailConfirmed = passwordHash === NO_PASSWORD;
    return this.store.createUser({ email, name: name ?? email.slice(0, email.indexOf('@')), passwordHash, emailConfirmed }, this.clock.now());
  }

  listUsers(): Promise<User[]> {
    return this.store.listUsers();
  }

  /** The operator's change of a user's email: unconfirmed (no link was followed); every session ends. */
  async setEmail(userId: number, email: unknown): Promise<User> {
    if (!(await this.store.setEmail(userId, checkEmail(email), false))) throw apiError('NOT_FOUND', 'user');
    return this.user(userId);
  }

  async deleteUser(userId: number): Promise<void> {
    if (!(await this.store.deleteUser(userId))) throw apiError('NOT_FOUND', 'user');
  }

  /** Sets a new password; every session of the user ends. */
  async changePassword(userId: number, password: unknown): Promise<void> {
    const hash = await hashPassword(checkPasswordPolicy(password));
    if (!(await this.store.setPasswordHash(userId, hash))) throw apiError('NOT_FOUND', 'user');
  }

  async user(userId: number): Promise<User> {
    const user = await this.store.getUser(userId);
    if (!user) throw apiError('NOT_FOUND', 'user');
    return user;
  }

  // --- memberships ---------------------------------------------------------------------------

  roleIn(orgId: number, userId: number): Promise<Role | undefined> {
    return this.store.roleIn(orgId, userId);
  }

  memberships(userId: number): Promise<Membership[]> {
    return this.store.membershipsOf(userId);
  }

  members(orgId: number): Promise<Member[]> {
    return this.store.members(orgId);
  }

  /** Creates or changes a membership; the organisation's last owner keeps the role. */
  async setMember(orgId: number, userId: number, role: Role): Promise<void> {
    await this.user(userId);
    if ((await this.store.changeMembership(orgId, userId, role, this.clock.now())) === 'last-owner') throw apiError('CONFLICT', 'lastOwner');
  }

  async removeMember(orgId: number, userId: number): Promise<void> {
    const outcome = await this.store.changeMembership(orgId, userId, null, this.clock.now());
    if (outcome === 'last-owner') throw apiError('CONFLICT', 'lastOwner');
    if (outcome === 'no-membership') throw apiError('NOT_FOUND', 'membership');
  }

  /** The user of an email, for the operator only: to anyone else it would tell which accounts exist. */
  async userByEmail(email: unknown): Promise<User> {
    const user = await this.store.findUserByEmail(checkEmail(email));
    if (!user) throw apiError('NOT_FOUND', 'userByEmail');
    return { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
  }

  // --- invitations ---------------------------------------------------------------------------

  /**
   * Creates the account of an invitation's email (the email is the invitation's, never the
   * caller's) and signs it in; the invitation stays pending until accepted. An email that has an
   * account gets 409: sign in instead; an organisation that requires single sign-on gets 403 (its
   * members have no password: single sign-on admits the invited email). The link needs no session,
   * so it is bounded as a sign-in is, before any hashing: the client's sign-in rate limit, then the invitation and the email checked,
   * then an attempt reserved for the email and the client (the lockout's count). The password is
   * hashed once; the attempt is released when the account is made, and stays counted when another
   * creation made it first.
   */
  async createInvitedUser(token: string, input: { password: unknown; name?: string; address: string }): Promise<{ user: User; session: NewSession }> {
    const password = checkPasswordPolicy(input.password);
    await this.lockout.admit(input.address, this.clock.now());
    const { email, orgId, orgName } = await this.invitations.pending(token);
    if (await this.store.findUserByEmail(email)) throw apiError('CONFLICT', 'email');
    // Its members sign in through the provider, which admits the invited email itself.
    if ((await this.store.orgSignIn(orgId)).requireSingleSignOn) throw apiError('FORBIDDEN', 'singleSignOnRequired', { orgs: orgName });
    const reserved = await this.lockout.reserve({ email, address: input.address }, this.clock.now());
    const passwordHash = await this.releasedOnError(reserved, hashPassword(password));
    const user = await this.insertUser(email, input.name, passwordHash);
    await this.lockout.release(reserved);
    return { user, session: await this.sessions.create(user.id, this.clock.now()) };
  }

  // --- sign-in -------------------------------------------------------------------------------

  /**
   * Checks a credential. The attempt is counted first (429 past a limit, before any hashing); a
   * wrong password and an unknown email then give the same 401 after the same work (an unknown
   * email is verified against a dummy hash). A user with two-factor sign-in also needs `code`: a
   * right password without one answers that the code is needed (the attempt released: the password
   * was right), a wrong code counts as a failed attempt, as a wrong password does; a code already
   * used is refused by its own reason (TwoFactor.verify), its attempt released.
   */
  async signIn(attempt: AttemptSubject & { password: string; code?: string }): Promise<SignInOutcome> {
    await this.lockout.admit(attempt.address, this.clock.now());
    const reserved = await this.lockout.reserve(attempt, this.clock.now());
    const found = await this.releasedOnError(reserved, this.verifiedUser(attempt));
    if (!found) {
      await this.lockout.fail(reserved, this.clock.now());
      throw apiError('UNAUTHORIZED', 'wrongPassword');
    }
    if (await this.releasedOnError(reserved, this.twoFactor.enabled(found.id))) {
      if (attempt.code === undefined) {
        await this.lockout.release(reserved);
        return { twoFactorRequired: true };
      }
      if (!(await this.releasedOnError(reserved, this.twoFactor.verify(found.id, attempt.code)))) {
        await this.lockout.fail(reserved, this.clock.now());
        throw apiError('UNAUTHORIZED', 'wrongCode');
      }
    }
    await this.lockout.succeed(reserved);
    // Told only once the password was right: the refusal says the account exists.
    const requiring = await this.store.orgsRequiringSingleSignOn(found.id);
    if (requiring.length > 0) throw apiError('FORBIDDEN', 'singleSignOnRequired', { orgs: requiring.join(', ') });
    await this.upgradeHash(found.id, found.passwordHash, attempt.password);
    const user = { id: found.id, email: found.email, name: found.name, createdAt: found.createdAt };
    return { user, session: await this.sessions.create(user.id, this.clock.now()) };
  }

  /** Counts a sign-in attempt of the client (429 past SIGNIN_RATE_LIMIT): single sign-on's start. */
  admitSignIn(address: string): Promise<void> {
    return this.lockout.admit(address, this.clock.now());
  }

  /**
   * The session of a verified email single sign-on presents (the provider checked who it is): its
   * user's when svc knows that account's email confirmed (else `unconfirmed`: an account someone
   * else may have made for the email is never handed over); else a new account when a pending
   * invitation is for the email (joining as invited) or an organisation lists its domain in
   * `Sign-in domains` (joining as viewer); else `noAccount`. Two-factor sign-in is not asked: the
   * provider's sign-in is the one that counts.
   */
  async singleSignOn(email: string): Promise<{ user: User; session: NewSession } | 'noAccount' | 'unconfirmed'> {
    const found = await this.store.findUserByEmail(email);
    if (found && !found.emailConfirmed) return 'unconfirmed';
    const user = found ?? (await this.admittedUser(email));
    if (!user) return 'noAccount';
    const plain = { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
    return { user: plain, session: await this.sessions.create(user.id, this.clock.now(), true) };
  }

  /** A new account of an email an invitation or a sign-in domain admits, with its memberships; undefined when none does. */
  private async admittedUser(email: string): Promise<User | undefined> {
    const now = this.clock.now();
    const invitations = await this.store.pendingInvitationTokens(emailKey(email), now);
    const domainOrgs = await this.store.orgsOfSignInDomain(email.slice(email.lastIndexOf('@') + 1).toLowerCase());
    if (invitations.length === 0 && domainOrgs.length === 0) return undefined;
    let user: User;
    try {
      user = await this.insertUser(email, undefined, NO_PASSWORD);
    } catch (err) {
      // Another sign-in of the same email made the account first: it is this one.
      if (!(err instanceof DuplicateEmail)) throw err;
      return this.store.findUserByEmail(email);
    }
    for (const orgId of domainOrgs) await this.store.setMembership(orgId, user.id, 'viewer', now);
    // After the domains' viewer role: an invitation's higher role replaces it, a lower one keeps it.
    for (const tokenHash of invitations) await this.store.acceptInvitation(tokenHash, user, now);
    return user;
  }

  orgSignIn(orgId: number): Promise<OrgSignIn> {
    return this.store.orgSignIn(orgId);
  }

  /**
   * An owner's sign-in settings of the organisation. Single sign-on can be required only where it
   * is configured (else no member could sign in).
   */
  async setOrgSignIn(orgId: number, settings: OrgSignIn, singleSignOnConfigured: boolean): Promise<void> {
    if (settings.requireSingleSignOn && !singleSignOnConfigured) throw apiError('CONFLICT', 'singleSignOnUnconfigured');
    await this.store.setOrgSignIn(orgId, settings, this.clock.now());
  }

  /**
   * A secret a signed-in user presents to change its account (its current password, a two-factor
   * code), counted as a sign-in attempt of its email and client: a stolen session cannot guess the
   * password or a code faster than sign-in allows. `refusal` is thrown when `check` answers false.
   */
  private async countedCheck(subject: AttemptSubject, check: () => Promise<boolean>, refusal: () => ApiError): Promise<void> {
    await this.lockout.admit(subject.address, this.clock.now());
    await this.admittedCheck(subject, check, refusal);
  }

  /**
   * countedCheck for a client already counted against its sign-in rate limit by the same request (a
   * shared link's opening is counted before its link is looked up): one attempt counts once.
   */
  private async admittedCheck(subject: AttemptSubject, check: () => Promise<boolean>, refusal: () => ApiError): Promise<void> {
    const reserved = await this.lockout.reserve(subject, this.clock.now());
    if (!(await this.releasedOnError(reserved, check()))) {
      await this.lockout.fail(reserved, this.clock.now());
      throw refusal();
    }
    await this.lockout.succeed(reserved);
  }

  private async checkCurrentPassword(user: User, password: string, address: string): Promise<void> {
    await this.countedCheck(
      { email: user.email, address },
      async () => (await this.verifiedUser({ email: user.email, password }))?.id === user.id,
      () => apiError('UNAUTHORIZED', 'wrongCurrentPassword'),
    );
  }

  // --- self-service --------------------------------------------------------------------------

  /** The user's own new password, after its current one: every session ends, and this browser gets a new one. */
  async changeOwnPassword(user: User, input: { currentPassword: string; newPassword: unknown; address: string }): Promise<NewSession> {
    const password = checkPasswordPolicy(input.newPassword);
    await this.checkCurrentPassword(user, input.currentPassword, input.address);
    await this.changePassword(user.id, password);
    return this.sessions.create(user.id, this.clock.now());
  }

  /**
   * The user's own new email, after its current password: a link is mailed to it, and the email
   * changes (every session ending) only when the link is followed. Without mail, only the operator
   * changes an email (403). Whether another account has the email is told only at the link.
   */
  async changeOwnEmail(user: User, input: { currentPassword: string; email: unknown; address: string }): Promise<{ pendingEmail: string }> {
    if (!this.emails.available) throw apiError('FORBIDDEN', 'emailByOperator');
    const email = checkEmail(input.email);
    await this.checkCurrentPassword(user, input.currentPassword, input.address);
    await this.emails.send(user.id, email);
    return { pendingEmail: email };
  }

  /** Deletes the user's own account, after its current password; refused while it is an organisation's last owner. */
  async deleteOwnAccount(user: User, input: { currentPassword: string; address: string }): Promise<void> {
    await this.checkCurrentPassword(user, input.currentPassword, input.address);
    const outcome = await this.store.deleteUserUnlessLastOwner(user.id);
    if (outcome === 'last-owner') {
      const owned = (await this.memberships(user.id)).filter((m) => m.role === 'owner');
      const lastOwned: string[] = [];
      for (const m of owned) {
        if ((await this.members(m.orgId)).filter((member) => member.role === 'owner').length === 1) lastOwned.push(m.orgName);
      }
      throw apiError('CONFLICT', 'lastOwnerLeaving', { orgs: lastOwned.join(', ') });
    }
    if (outcome === 'not-found') throw apiError('NOT_FOUND', 'user');
  }

  /**
   * Turns the user's own two-factor sign-in on, after its current password (counted as a sign-in
   * attempt) and a right code of the pending secret; answers the ten recovery codes. The password
   * keeps a stolen session from putting its own authenticator on the account, which would shut the
   * user out of it.
   */
  async enableTwoFactor(user: User, input: { code: string; currentPassword: string; address: string }): Promise<string[]> {
    await this.checkCurrentPassword(user, input.currentPassword, input.address);
    return this.twoFactor.confirm(user.id, input.code);
  }

  /**
   * Turns the user's own two-factor sign-in off, after a current code (TOTP or recovery), counted as
   * a sign-in attempt; refused while an organisation of the user requires it (the operator's reset
   * still turns it off).
   */
  async disableTwoFactor(user: User, input: { code: string; address: string }): Promise<void> {
    if (!(await this.twoFactor.enabled(user.id))) throw apiError('NOT_FOUND', 'twoFactor');
    const requiring: string[] = [];
    for (const m of await this.memberships(user.id)) if (await this.store.orgRequiresTwoFactor(m.orgId)) requiring.push(m.orgName);
    if (requiring.length > 0) throw apiError('CONFLICT', 'twoFactorRequiredBy', { orgs: requiring.join(', ') });
    await this.countedCheck({ email: user.email, address: input.address }, () => this.twoFactor.verify(user.id, input.code), () => apiError('UNAUTHORIZED', 'wrongCode'));
    await this.twoFactor.remove(user.id);
  }

  /** The operator's reset of a user's two-factor sign-in (a lost phone and lost recovery codes). */
  async resetTwoFactor(userId: number): Promise<void> {
    await this.user(userId);
    if (!(await this.twoFactor.remove(userId))) throw apiError('NOT_FOUND', 'twoFactor');
  }

  /**
   * Requires (or not) two-factor sign-in of every member of an organisation. An owner must have it
   * enabled first (`actingUserId`), so requiring it never locks out the one who asked.
   */
  async requireTwoFactor(orgId: number, required: boolean, actingUserId?: number): Promise<void> {
    if (required && actingUserId !== undefined && !(await this.twoFactor.enabled(actingUserId))) throw apiError('FORBIDDEN', 'twoFactorFirst');
    await this.store.setOrgTwoFactor(orgId, required, this.clock.now());
  }

  orgRequiresTwoFactor(orgId: number): Promise<boolean> {
    return this.store.orgRequiresTwoFactor(orgId);
  }

  /** The user's organisations that require two-factor sign-in it has not enabled: until it does, only its account pages work. */
  orgsAwaitingTwoFactor(userId: number): Promise<number[]> {
    return this.store.orgsAwaitingTwoFactor(userId);
  }

  /**
   * The outcome of a reserved attempt's hashing; when it fails (no room in the hashing queue, an
   * error) the password was not used, so the attempt does not count (should the release fail too, it
   * stays counted, as a wrong password would).
   */
  private releasedOnError<T>(reserved: ReservedAttempt, work: Promise<T>): Promise<T> {
    return work.catch(async (err: unknown) => {
      await this.lockout.release(reserved).catch(() => undefined);
      throw err;
    });
  }

  /**
   * The user whose email and password these are, or undefined; an unknown email, and an account
   * single sign-on made (no password), cost a verification too.
   */
  private async verifiedUser(attempt: { email: string; password: string }) {
    const found = await this.store.findUserByEmail(attempt.email);
    if (!found || found.passwordHash === NO_PASSWORD) return verifyAgainstDummy(attempt.password).then(() => undefined);
    return (await verifyPassword(attempt.password, found.passwordHash)) ? found : undefined;
  }

  /**
   * Hashes the password again with the current parameters when its stored hash has others, while the
   * password is at hand. With no room in the hashing queue, the next sign-in does it.
   */
  private async upgradeHash(userId: number, stored: string, password: string): Promise<void> {
    if (!hashNeedsUpgrade(stored)) return;
    try {
      await this.store.replacePasswordHash(userId, stored, await hashPassword(password));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'RATE_LIMITED')) throw err;
    }
  }

  /**
   * The signed-in user of a session cookie's value, if the session is live. A session opened with a
   * password ends as soon as an organisation of the user requires single sign-on.
   */
  async resume(secret: string | undefined): Promise<SignedIn | undefined> {
    const session = await this.sessions.resume(secret, this.clock.now());
    if (!session) return undefined;
    const user = await this.store.getUser(session.userId);
    if (!user) return undefined;
    if (!session.singleSignOn && (await this.store.orgsRequiringSingleSignOn(user.id)).length > 0) {
      await this.sessions.end(session);
      return undefined;
    }
    return { session, user };
  }

  signOut(session: SessionRecord): Promise<void> {
    return this.sessions.end(session);
  }

  /** The signed-in user as the dashboard sees it; a session single sign-on made is asked for no two-factor sign-in. */
  async view(user: User, csrfToken: string, singleSignOn = false): Promise<SessionView> {
    return {
      user: { id: user.id, email: user.email, name: user.name, emailConfirmed: await this.store.emailConfirmed(user.id), language: await this.store.languageOf(user.id) },
      csrfToken,
      memberships: await this.memberships(user.id),
      twoFactor: { enabled: await this.twoFactor.enabled(user.id), requiredBy: singleSignOn ? [] : await this.orgsAwaitingTwoFactor(user.id) },
    };
  }

  // --- first run -----------------------------------------------------------------------------

  setupNeeded(): Promise<boolean> {
    return this.store.hasUsers().then((has) => !has);
  }

  /** 404 once any user exists: setup is for the first account only. */
  async assertSetupNeeded(): Promise<void> {
    if (!(await this.setupNeeded())) throw apiError('NOT_FOUND', 'setupDone');
  }

  /**
   * The first account: the setup token (the admin token) proves the operator; creates the user, an
   * organisation of the given name (or takes the only existing one) and an owner membership.
   */
  async setup(input: { setupToken: string; email: unknown; password: unknown; organisation: string; name?: string }, adminToken: string) {
    await this.assertSetupNeeded();
    if (!tokensEqual(input.setupToken, adminToken)) throw apiError('UNAUTHORIZED', 'credentials');
    const user = await this.createUser(input);
    // Two setups racing past the check above: the first user created keeps the setup.
    if ((await this.store.listUsers())[0]?.id !== user.id) {
      await this.store.deleteUser(user.id);
      throw apiError('NOT_FOUND', 'setupDone');
    }
    const orgs = await this.meta.listOrgs();
    const org = orgs.length === 1 ? orgs[0]! : await this.meta.createOrg(input.organisation, this.clock.now());
    await this.store.setMembership(org.id, user.id, 'owner', this.clock.now());
    return { user, session: await this.sessions.create(user.id, this.clock.now()) };
  }
}
