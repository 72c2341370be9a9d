// Sign-in attempts and locks (migration 006_signin_attempts): every attempt is counted by email and
// by client group before the password is checked.
import { sql, type Kysely } from 'kysely';
import type { AttemptKey, Reservation } from '../../../entities/accounts.js';
import type { AccountDatabase } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';
import { serializedWrite } from './serialized-write.js';

const lockSubjects = (key: Partial<AttemptKey>) => [
  ...(key.emailKey !== undefined ? [`email:${key.emailKey}`] : []),
  ...(key.clientGroup !== undefined ? [`address:${key.clientGroup}`] : []),
];

/** Advisory-lock key spaces (the first int4 of pg_advisory_xact_lock) of an email and of a client group. */
const EMAIL_LOCK_SPACE = 0x5347_4e45; // any fixed int4, distinct from the other
const CLIENT_LOCK_SPACE = 0x5347_4e43;

/** Sign-in attempts and locks. */
export function signinAttemptRecords(db: Kysely<AccountDatabase>) {
  return {
    async reserveAttempt(key: AttemptKey, now: number, since: number, max: number): Promise<Reservation | undefined> {
      const lockAttemptKey = async (trx: Kysely<AccountDatabase>) => {
        // Every reservation takes the email's lock first, so none wait on each other in a cycle.
        await sql`SELECT pg_advisory_xact_lock(${EMAIL_LOCK_SPACE}, hashtext(${key.emailKey}))`.execute(trx);
        await sql`SELECT pg_advisory_xact_lock(${CLIENT_LOCK_SPACE}, hashtext(${key.clientGroup}))`.execute(trx);
      };
      return serializedWrite(db, lockAttemptKey, async (trx) => {
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
    },

    async releaseAttempt(id: number): Promise<void> {
      await db.deleteFrom('signin_attempts').where('id', '=', id).execute();
    },

    async clearAttempts(emailKeyValue: string): Promise<void> {
      await db.deleteFrom('signin_attempts').where('email_key', '=', emailKeyValue).execute();
    },

    async deleteAttemptsBefore(before: number): Promise<number> {
      const result = await db.deleteFrom('signin_attempts').where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async lock(key: Partial<AttemptKey>, until: number): Promise<void> {
      for (const subject of lockSubjects(key)) {
        await db
          .insertInto('login_locks')
          .values({ subject, locked_until: until })
          .onConflict((oc) => oc.column('subject').doUpdateSet({ locked_until: until }))
          .execute();
      }
    },

    async deleteLocksBefore(now: number): Promise<number> {
      const result = await db.deleteFrom('login_locks').where('locked_until', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  } satisfies Partial<AccountStore>;
}
