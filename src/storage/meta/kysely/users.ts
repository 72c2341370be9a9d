// Dashboard users (migration 005_accounts): an email unique by its key, a password hash; changing
// either ends the user's sessions. Whether svc knows the email confirmed (migration 023_confirmed_emails),
// and the mailed links that confirm one. The user's language (migration 024_user_language).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { User } from '../../../core/management.js';
import { emailKey } from '../../../entities/accounts.js';
import { isLanguage, type Language } from '../../../core/messages/language.js';
import type { AccountDatabase, UsersTable } from '../account-schema.js';
import { DuplicateEmail, type AccountStore } from '../account-types.js';
import { isUniqueViolation } from '../dialect.js';
import { serializedWrite } from './serialized-write.js';

const toUser = (row: Pick<Selectable<UsersTable>, 'id' | 'email' | 'name' | 'created_at'>): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: Number(row.created_at),
});

/** Deletes a user and every row that names it. */
async function deleteUserRows(trx: Kysely<AccountDatabase>, id: number): Promise<boolean> {
  await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
  await trx.deleteFrom('memberships').where('user_id', '=', id).execute();
  await trx.deleteFrom('recovery_codes').where('user_id', '=', id).execute();
  await trx.deleteFrom('user_two_factor').where('user_id', '=', id).execute();
  await trx.deleteFrom('email_confirmations').where('user_id', '=', id).execute();
  // The user's digest choices (KyselyDigestStore's table): its planned sends find no user and end.
  await sql`DELETE FROM digest_subscriptions WHERE user_id = ${id}`.execute(trx);
  // The user's personal segments go; the shared ones it made stay the site's.
  await trx.deleteFrom('segments').where('owner_user_id', '=', id).where('shared', '=', 0).execute();
  await trx.updateTable('segments').set({ owner_user_id: null }).where('owner_user_id', '=', id).execute();
  const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Users. */
export function userRecords(db: Kysely<AccountDatabase>) {
  /** The email changed (its confirmation as given), the user's sessions and confirmation links ended. */
  async function setEmail(id: number, email: string, confirmed: boolean): Promise<boolean> {
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('users')
          .set({ email: email.trim(), email_key: emailKey(email), email_confirmed: confirmed ? 1 : 0 })
          .where('id', '=', id)
          .executeTakeFirst();
        await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
        await trx.deleteFrom('email_confirmations').where('user_id', '=', id).execute();
        return Number(result.numUpdatedRows) > 0;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmail();
      throw err;
    }
  }

  return {
    async createUser(user: { email: string; name: string; passwordHash: string; emailConfirmed?: boolean }, now: number): Promise<User> {
      try {
        const row = await db
          .insertInto('users')
          .values({ email: user.email.trim(), email_key: emailKey(user.email), name: user.name, password_hash: user.passwordHash, created_at: now, email_confirmed: user.emailConfirmed ? 1 : 0 })
          .returning(['id', 'email', 'name', 'created_at'])
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateEmail();
        throw err;
      }
    },

    async listUsers(): Promise<User[]> {
      const rows = await db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').execute();
      return rows.map(toUser);
    },

    async hasUsers(): Promise<boolean> {
      return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    async getUser(id: number): Promise<User | undefined> {
      const row = await db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },

    async findUserByEmail(email: string): Promise<(User & { passwordHash: string; emailConfirmed: boolean }) | undefined> {
      const row = await db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
      return row && { ...toUser(row), passwordHash: row.password_hash, emailConfirmed: Number(row.email_confirmed) === 1 };
    },

    async emailConfirmed(id: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('email_confirmed').where('id', '=', id).executeTakeFirst();
      return Number(row?.email_confirmed) === 1;
    },

    async languageOf(id: number): Promise<Language | null> {
      const row = await db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirst();
      return isLanguage(row?.language) ? row.language : null;
    },

    async setLanguage(id: number, language: Language | null): Promise<boolean> {
      const result = await db.updateTable('users').set({ language }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteUser(id: number): Promise<boolean> {
      return db.transaction().execute((trx) => deleteUserRows(trx, id));
    },

    async deleteUserUnlessLastOwner(id: number): Promise<'deleted' | 'last-owner' | 'not-found'> {
      const ownedOrgs = (trx: Kysely<AccountDatabase>) =>
        trx.selectFrom('memberships').select('org_id').where('user_id', '=', id).where('role', '=', 'owner').orderBy('org_id');
      const lockOwnedOrgs = (trx: Kysely<AccountDatabase>) =>
        trx.selectFrom('orgs').select('id').where('id', 'in', ownedOrgs(trx)).orderBy('id').forUpdate().execute();
      return serializedWrite(db, lockOwnedOrgs, async (trx) => {
        const lastOwned = await trx
          .selectFrom('memberships')
          .select('org_id')
          .where('role', '=', 'owner')
          .where('org_id', 'in', ownedOrgs(trx))
          .groupBy('org_id')
          .having((eb) => eb.fn.countAll(), '=', 1)
          .executeTakeFirst();
        if (lastOwned) return 'last-owner';
        return (await deleteUserRows(trx, id)) ? 'deleted' : 'not-found';
      });
    },

    setEmail,

    async createEmailConfirmation(link: { tokenHash: string; userId: number; email: string; expiresAt: number }): Promise<void> {
      // One link of a user at a time: a new one replaces the one mailed before.
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('email_confirmations').where('user_id', '=', link.userId).execute();
        await trx.insertInto('email_confirmations').values({ token_hash: link.tokenHash, user_id: link.userId, email: link.email, expires_at: link.expiresAt }).execute();
      });
    },

    async takeEmailConfirmation(tokenHash: string, now: number): Promise<{ userId: number; email: string } | undefined> {
      const row = await db.deleteFrom('email_confirmations').where('token_hash', '=', tokenHash).returningAll().executeTakeFirst();
      if (!row || Number(row.expires_at) <= now) return undefined;
      return { userId: row.user_id, email: row.email };
    },

    async confirmEmail(id: number, email: string): Promise<'confirmed' | 'changed' | 'not-found'> {
      const user = await db.selectFrom('users').select('email_key').where('id', '=', id).executeTakeFirst();
      if (!user) return 'not-found';
      if (user.email_key !== emailKey(email)) return (await setEmail(id, email, true)) ? 'changed' : 'not-found';
      const result = await db.updateTable('users').set({ email_confirmed: 1 }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? 'confirmed' : 'not-found';
    },

    async deleteEmailConfirmationsExpiredBy(now: number): Promise<number> {
      const result = await db.deleteFrom('email_confirmations').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async setPasswordHash(id: number, passwordHash: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst();
        await trx.deleteFrom('user_sessions').where('user_id', '=', id).execute();
        return Number(result.numUpdatedRows) > 0;
      });
    },

    async replacePasswordHash(id: number, expected: string, next: string): Promise<boolean> {
      const result = await db.updateTable('users').set({ password_hash: next }).where('id', '=', id).where('password_hash', '=', expected).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  } satisfies Partial<AccountStore>;
}
