// Server-side sessions of the dashboard (migration 005_accounts).
import type { Kysely } from 'kysely';
import type { SessionRecord } from '../../../entities/accounts.js';
import type { AccountDatabase } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';

/** Sessions. */
export function sessionRecords(db: Kysely<AccountDatabase>) {
  return {
    async createSession(session: { id: string; userId: number; csrfToken: string; singleSignOn?: boolean }, now: number): Promise<void> {
      await db
        .insertInto('user_sessions')
        .values({ id: session.id, user_id: session.userId, csrf_token: session.csrfToken, created_at: now, last_used_at: now, single_sign_on: session.singleSignOn ? 1 : 0 })
        .execute();
    },

    async getSession(id: string): Promise<SessionRecord | undefined> {
      const row = await db.selectFrom('user_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, createdAt: Number(row.created_at), lastUsedAt: Number(row.last_used_at), singleSignOn: Number(row.single_sign_on) === 1 };
    },

    async touchSession(id: string, now: number): Promise<void> {
      await db.updateTable('user_sessions').set({ last_used_at: now }).where('id', '=', id).execute();
    },

    async deleteSession(id: string): Promise<void> {
      await db.deleteFrom('user_sessions').where('id', '=', id).execute();
    },

    async deleteExpiredSessions(bounds: { lastUsedBefore: number; createdBefore: number }): Promise<number> {
      const result = await db
        .deleteFrom('user_sessions')
        .where((eb) => eb.or([eb('last_used_at', '<', bounds.lastUsedBefore), eb('created_at', '<', bounds.createdBefore)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  } satisfies Partial<AccountStore>;
}
