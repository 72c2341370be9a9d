// AccountStore: users, memberships, invitations, sessions, sign-in attempts, locks and two-factor
// sign-in in the MetaStore database (migrations 005_accounts, 006_signin_attempts, 007_invitations,
// 010_two_factor), through the MetaStore's
// Kysely handle so SQLite and PostgreSQL share one implementation.
import { sql, type Kysely, type Selectable } from 'kysely';
import { roleAtLeast, type Role } from '../../core/vocabulary.js';
import type { Member, Membership, User } from '../../core/management.js';
import type { AccountDatabase, InvitationsTable, SharedLinksTable, UsersTable } from './account-schema.js';
import {
  emailKey,
  type AttemptKey,
  type Invitation,
  type InvitationAcceptance,
  type MembershipChange,
  type Reservation,
  type SessionRecord,
  type SharedLink,
  type TwoFactorRecord,
} from '../../entities/accounts.js';
import { DuplicateEmail, type AccountStore } from './account-types.js';
import { isUniqueViolation, metaDialectOf } from './dialect.js';
import type { MetaDatabase } from './schema.js';

const lockSubjects = (key: Partial<AttemptKey>) => [
  ...(key.emailKey !== undefined ? [`email:${key.emailKey}`] : []),
  ...(key.clientGroup !== undefined ? [`address:${key.clientGroup}`] : []),
];

/** Advisory-lock key spaces (the first int4 of pg_advisory_xact_lock) of an email and of a client group. */
const EMAIL_LOCK_SPACE = 0x5347_4e45; // any fixed int4, distinct from the other
const CLIENT_LOCK_SPACE = 0x5347_4e43;

const toUser = (row: Pick<Selectable<UsersTable>, 'id' | 'email' | 'name' | 'created_at'>): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: Number(row.created_at),
});

const toInvitation = (row: Selectable<InvitationsTable>): Invitation => ({
  id: row.id,
  orgId: row.org_id,
  email: row.email,
  role: row.role,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
});

const toSharedLink = (row: Selectable<SharedLinksTable>, sitePublicId: string): SharedLink => ({
  id: row.id,
  siteId: row.site_id,
  sitePublicId,
  passwordHash: row.password_hash ?? undefined,
  expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
  filters: JSON.parse(row.filters) as string[],
  embedDomains: JSON.parse(row.embed_domains) as string[],
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? undefined : Number(row.last_used_at),
});

export class KyselyAccountStore implements AccountStore {
  private readonly db: Kysely<AccountDatabase>;

  constructor(db: Kysely<MetaDatabase>) {
    this.db = db as unknown as Kysely<AccountDatabase>;
  }

  // --- users ---------------------------------------------------------------------------------

  async createUser(user: { email: string; name: string; passwordHash: string }, now: number): Promise<User> {
    try {
      const row = await this.db
        .insertInto('users')
        .values({ email: user.email.trim(), email_key: emailKey(user.email), name: user.name, password_hash: user.passwordHash, created_at: now })
        .returning(['id', 'email', 'name', 'created_at'])
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmail();
      throw err;
    }
  }

  async listUsers(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').execute();
    return rows.map(toUser);
  }

  async hasUsers(): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async getUser(id: number): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findUserByEmail(email: string): Promise<(User & { passwordHash: string }) | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
    return row && { ...toUser(row), passwordHash: row.password_hash };
  }

  async deleteUser(id: number): Promise<boolean> {
    return this.db.transaction().execute((trx) => this.deleteUserRows(trx, id));
  }

  /** Deletes a user and every row that names it. */
  private async deleteUserRows(trx: Kysely<AccountDatabase>, id: number): Promise<boolean> {
    await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('memberships').where('user_id', '=', id).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_two_factor').where('user_id', '=', id).execute();
    // The user's digest choices (KyselyDigestStore's table): its planned sends find no user and end.
    await sql`DELETE FROM digest_subscriptions WHERE user_id = ${id}`.execute(trx);
    const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteUserUnlessLastOwner(id: number): Promise<'deleted' | 'last-owner' | 'not-found'> {
    const ownedOrgs = (trx: Kysely<AccountDatabase>) =>
      trx.selectFrom('memberships').select('org_id').where('user_id', '=', id).where('role', '=', 'owner').orderBy('org_id');
    const lockOwnedOrgs = (trx: Kysely<AccountDatabase>) =>
      trx.selectFrom('orgs').select('id').where('id', 'in', ownedOrgs(trx)).orderBy('id').forUpdate().execute();
    return this.serializedWrite(lockOwnedOrgs, async (trx) => {
      const lastOwned = await trx
        .selectFrom('memberships')
        .select('org_id')
        .where('role', '=', 'owner')
        .where('org_id', 'in', ownedOrgs(trx))
        .groupBy('org_id')
        .having((eb) => eb.fn.countAll(), '=', 1)
        .executeTakeFirst();
      if (lastOwned) return 'last-owner';
      return (await this.deleteUserRows(trx, id)) ? 'deleted' : 'not-found';
    });
  }

  async setEmail(id: number, email: string): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('users').set({ email: email.trim(), email_key: emailKey(email) }).where('id', '=', id).executeTakeFirst();
        await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
        return Number(result.numUpdatedRows) > 0;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmail();
      throw err;
    }
  }

  // --- shared links --------------------------------------------------------------------------

  async createSharedLink(link: Omit<SharedLink, 'id' | 'createdAt' | 'lastUsedAt'> & { tokenHash: string }, now: number): Promise<SharedLink> {
    const row = await this.db
      .insertInto('shared_links')
      .values({
        site_id: link.siteId,
        token_hash: link.tokenHash,
        password_hash: link.passwordHash ?? null,
        expires_at: link.expiresAt ?? null,
        filters: JSON.stringify(link.filters),
        embed_domains: JSON.stringify(link.embedDomains),
        created_at: now,
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSharedLink(row, link.sitePublicId);
  }

  /** Shared links with their site's public id. */
  private selectSharedLinks() {
    return this.db.selectFrom('shared_links').innerJoin('sites', 'sites.id', 'shared_links.site_id').selectAll('shared_links').select('sites.public_id as site_public_id');
  }

  async sharedLinks(siteId: number): Promise<SharedLink[]> {
    const rows = await this.selectSharedLinks().where('shared_links.site_id', '=', siteId).orderBy('shared_links.id').execute();
    return rows.map((row) => toSharedLink(row, row.site_public_id));
  }

  async sharedLinkByToken(tokenHash: string, now: number): Promise<SharedLink | undefined> {
    const row = await this.selectSharedLinks()
      .where('shared_links.token_hash', '=', tokenHash)
      .where((eb) => eb.or([eb('shared_links.expires_at', 'is', null), eb('shared_links.expires_at', '>', now)]))
      .executeTakeFirst();
    return row && toSharedLink(row, row.site_public_id);
  }

  async revokeSharedLink(siteId: number, linkId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const link = await trx.selectFrom('shared_links').select('id').where('id', '=', linkId).where('site_id', '=', siteId).executeTakeFirst();
      if (!link) return false;
      await trx.deleteFrom('shared_link_grants').where('link_id', '=', linkId).execute();
      await trx.deleteFrom('shared_links').where('id', '=', linkId).execute();
      return true;
    });
  }

  async grantSharedLink(grant: { id: string; linkId: number; expiresAt: number }, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('shared_link_grants').values({ id: grant.id, link_id: grant.linkId, expires_at: grant.expiresAt }).execute();
      await trx.updateTable('shared_links').set({ last_used_at: now }).where('id', '=', grant.linkId).execute();
    });
  }

  async sharedLinkByGrant(grantId: string, now: number): Promise<SharedLink | undefined> {
    const row = await this.selectSharedLinks()
      .innerJoin('shared_link_grants', 'shared_link_grants.link_id', 'shared_links.id')
      .where('shared_link_grants.id', '=', grantId)
      .where('shared_link_grants.expires_at', '>', now)
      .where((eb) => eb.or([eb('shared_links.expires_at', 'is', null), eb('shared_links.expires_at', '>', now)]))
      .executeTakeFirst();
    return row && toSharedLink(row, row.site_public_id);
  }

  async touchSharedLink(linkId: number, now: number): Promise<void> {
    await this.db.updateTable('shared_links').set({ last_used_at: now }).where('id', '=', linkId).execute();
  }

  async deleteSharedLinkGrantsExpiredBy(now: number): Promise<number> {
    const result = await this.db.deleteFrom('shared_link_grants').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // --- two-factor sign-in --------------------------------------------------------------------

  async twoFactorOf(userId: number): Promise<TwoFactorRecord | undefined> {
    const row = await this.db.selectFrom('user_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    const codes = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      secret: row.secret,
      enabledAt: row.enabled_at === null ? undefined : Number(row.enabled_at),
      lastStep: Number(row.last_step),
      recoveryCodesLeft: Number(codes.n),
    };
  }

  async beginTwoFactor(userId: number, secret: string): Promise<boolean> {
    const result = await this.db
      .insertInto('user_two_factor')
      .values({ user_id: userId, secret, enabled_at: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret }).where('user_two_factor.enabled_at', 'is', null))
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async enableTwoFactor(userId: number, step: number, codeHashes: string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('user_two_factor')
        .set({ enabled_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
        .execute();
      return true;
    });
  }

  async useTotpStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('enabled_at', 'is not', null)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).where('code_hash', '=', codeHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteTwoFactor(userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      const result = await trx.deleteFrom('user_two_factor').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async setOrgTwoFactor(orgId: number, required: boolean, now: number): Promise<void> {
    if (!required) {
      await this.db.deleteFrom('org_two_factor').where('org_id', '=', orgId).execute();
      return;
    }
    await this.db
      .insertInto('org_two_factor')
      .values({ org_id: orgId, required_since: now })
      .onConflict((oc) => oc.column('org_id').doNothing())
      .execute();
  }

  async orgRequiresTwoFactor(orgId: number): Promise<boolean> {
    return (await this.db.selectFrom('org_two_factor').select('org_id').where('org_id', '=', orgId).executeTakeFirst()) !== undefined;
  }

  async orgsAwaitingTwoFactor(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('org_two_factor', 'org_two_factor.org_id', 'memberships.org_id')
      .select('memberships.org_id')
      .where('memberships.user_id', '=', userId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('user_two_factor').select('user_id').where('user_two_factor.user_id', '=', userId).where('user_two_factor.enabled_at', 'is not', null),
          ),
        ),
      )
      .orderBy('memberships.org_id')
      .execute();
    return rows.map((r) => r.org_id);
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst();
      await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  async replacePasswordHash(id: number, expected: string, next: string): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ password_hash: next }).where('id', '=', id).where('password_hash', '=', expected).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // --- memberships ---------------------------------------------------------------------------

  async setMembership(orgId: number, userId: number, role: Role, now: number): Promise<void> {
    await this.db
      .insertInto('memberships')
      .values({ org_id: orgId, user_id: userId, role, created_at: now })
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async changeMembership(orgId: number, userId: number, role: Role | null, now: number): Promise<MembershipChange> {
    const lockOrg = (trx: Kysely<AccountDatabase>) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute();
    return this.serializedWrite(lockOrg, async (trx) => {
      const owners = await trx.selectFrom('memberships').select('user_id').where('org_id', '=', orgId).where('role', '=', 'owner').execute();
      if (role !== 'owner' && owners.length === 1 && owners[0]!.user_id === userId) return 'last-owner';
      if (role === null) {
        const result = await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0 ? 'changed' : 'no-membership';
      }
      await trx
        .insertInto('memberships')
        .values({ org_id: orgId, user_id: userId, role, created_at: now })
        .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role }))
        .execute();
      return 'changed';
    });
  }

  async roleIn(orgId: number, userId: number): Promise<Role | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  async membershipsOf(userId: number): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('orgs', 'orgs.id', 'memberships.org_id')
      .select(['memberships.org_id', 'orgs.name', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.org_id')
      .execute();
    return rows.map((r) => ({ orgId: r.org_id, orgName: r.name, role: r.role }));
  }

  async members(orgId: number): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'users.name', 'memberships.role'])
      .where('memberships.org_id', '=', orgId)
      .orderBy('users.id')
      .execute();
    return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role }));
  }

  // --- invitations ---------------------------------------------------------------------------

  async createInvitation(invitation: { orgId: number; email: string; role: Role; tokenHash: string; expiresAt: number }, now: number): Promise<Invitation> {
    const replaced = { email: invitation.email.trim(), role: invitation.role, token_hash: invitation.tokenHash, created_at: now, expires_at: invitation.expiresAt };
    const row = await this.db
      .insertInto('invitations')
      .values({ org_id: invitation.orgId, email_key: emailKey(invitation.email), ...replaced })
      .onConflict((oc) => oc.columns(['org_id', 'email_key']).doUpdateSet(replaced))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toInvitation(row);
  }

  async invitations(orgId: number, now: number): Promise<Invitation[]> {
    const rows = await this.db.selectFrom('invitations').selectAll().where('org_id', '=', orgId).where('expires_at', '>', now).orderBy('id').execute();
    return rows.map(toInvitation);
  }

  async invitationByToken(tokenHash: string, now: number): Promise<(Invitation & { orgName: string }) | undefined> {
    const row = await this.db
      .selectFrom('invitations')
      .innerJoin('orgs', 'orgs.id', 'invitations.org_id')
      .selectAll('invitations')
      .select('orgs.name as org_name')
      .where('invitations.token_hash', '=', tokenHash)
      .where('invitations.expires_at', '>', now)
      .executeTakeFirst();
    return row && { ...toInvitation(row), orgName: row.org_name };
  }

  async revokeInvitation(orgId: number, invitationId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('invitations').where('org_id', '=', orgId).where('id', '=', invitationId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async acceptInvitation(tokenHash: string, user: { id: number; email: string }, now: number): Promise<InvitationAcceptance> {
    return this.serializedWrite(undefined, async (trx) => {
      const row = await trx.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
      if (!row) return 'not-found';
      if (row.email_key !== emailKey(user.email)) return 'wrong-email';
      const deleted = await trx.deleteFrom('invitations').where('id', '=', row.id).where('token_hash', '=', tokenHash).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return 'not-found';
      const current = await trx.selectFrom('memberships').select('role').where('org_id', '=', row.org_id).where('user_id', '=', user.id).executeTakeFirst();
      if (current && roleAtLeast(current.role, row.role)) return { role: current.role, invitation: toInvitation(row) };
      await trx
        .insertInto('memberships')
        .values({ org_id: row.org_id, user_id: user.id, role: row.role, created_at: now })
        .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role: row.role }))
        .execute();
      return { role: row.role, invitation: toInvitation(row) };
    });
  }

  async deleteInvitationsExpiredBy(now: number): Promise<number> {
    const result = await this.db.deleteFrom('invitations').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // --- sessions ------------------------------------------------------------------------------

  async createSession(session: { id: string; userId: number; csrfToken: string }, now: number): Promise<void> {
    await this.db
      .insertInto('user_sessions')
      .values({ id: session.id, user_id: session.userId, csrf_token: session.csrfToken, created_at: now, last_used_at: now })
      .execute();
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db.selectFrom('user_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, createdAt: Number(row.created_at), lastUsedAt: Number(row.last_used_at) };
  }

  async touchSession(id: string, now: number): Promise<void> {
    await this.db.updateTable('user_sessions').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('id', '=', id).execute();
  }

  async deleteExpiredSessions(bounds: { lastUsedBefore: number; createdBefore: number }): Promise<number> {
    const result = await this.db
      .deleteFrom('user_sessions')
      .where((eb) => eb.or([eb('last_used_at', '<', bounds.lastUsedBefore), eb('created_at', '<', bounds.createdBefore)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // --- sign-in attempts and locks -----------------------------------------------------------

  async reserveAttempt(key: AttemptKey, now: number, since: number, max: number): Promise<Reservation | undefined> {
    const lockAttemptKey = async (trx: Kysely<AccountDatabase>) => {
      // Every reservation takes the email's lock first, so none wait on each other in a cycle.
      await sql`SELECT pg_advisory_xact_lock(${EMAIL_LOCK_SPACE}, hashtext(${key.emailKey}))`.execute(trx);
      await sql`SELECT pg_advisory_xact_lock(${CLIENT_LOCK_SPACE}, hashtext(${key.clientGroup}))`.execute(trx);
    };
    return this.serializedWrite(lockAttemptKey, async (trx) => {
      const locked = await trx
        .selectFrom('login_locks')
        .select('subject')
        .where('subject', 'in', lockSubjects(key))
        .where('locked_until', '>', now)
        .executeTakeFirst();
      if (locked) return undefined;
      const count = async (column: 'email_key' | 'client_group', value: string) => {
        const row = await trx
          .selectFrom('signin_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', value)
          .where('at', '>', since)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      };
      const byEmail = (await count('email_key', key.emailKey)) + 1;
      const byClient = (await count('client_group', key.clientGroup)) + 1;
      if (byEmail > max || byClient > max) return undefined;
      const row = await trx
        .insertInto('signin_attempts')
        .values({ email_key: key.emailKey, client_group: key.clientGroup, at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, byEmail, byClient };
    });
  }

  /**
   * A write transaction that reads and then writes, which no other one that conflicts with it
   * interleaves with, from any process.
   * - SQLite: BEGIN IMMEDIATE takes the database's write lock before the first read: another
   *   process waits for it (up to busy_timeout) instead of failing with SQLITE_BUSY when a deferred
   *   transaction's read lock would have to become a write lock; in this process Kysely's one
   *   connection already serializes. What was read is still true when the write commits.
   * - PostgreSQL: READ COMMITTED, with `lockOnPostgres` first taking the locks its caller's
   *   conflicts need (row locks, or transaction-scoped advisory locks, each in its own key space:
   *   hashtext, where a collision only serializes two keys more). A holder commits before its
   *   locks go, so each statement after them sees what the holder wrote.
   */
  private async serializedWrite<T>(
    lockOnPostgres: ((trx: Kysely<AccountDatabase>) => Promise<unknown>) | undefined,
    work: (trx: Kysely<AccountDatabase>) => Promise<T>,
  ): Promise<T> {
    if (metaDialectOf(this.db) === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        await lockOnPostgres?.(trx);
        return work(trx);
      });
    }
    return this.db.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const result = await work(connection);
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (err) {
        await sql`ROLLBACK`.execute(connection);
        throw err;
      }
    });
  }

  async releaseAttempt(id: number): Promise<void> {
    await this.db.deleteFrom('signin_attempts').where('id', '=', id).execute();
  }

  async clearAttempts(emailKeyValue: string): Promise<void> {
    await this.db.deleteFrom('signin_attempts').where('email_key', '=', emailKeyValue).execute();
  }

  async deleteAttemptsBefore(before: number): Promise<number> {
    const result = await this.db.deleteFrom('signin_attempts').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async lock(key: Partial<AttemptKey>, until: number): Promise<void> {
    for (const subject of lockSubjects(key)) {
      await this.db
        .insertInto('login_locks')
        .values({ subject, locked_until: until })
        .onConflict((oc) => oc.column('subject').doUpdateSet({ locked_until: until }))
        .execute();
    }
  }

  async deleteLocksBefore(now: number): Promise<number> {
    const result = await this.db.deleteFrom('login_locks').where('locked_until', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
