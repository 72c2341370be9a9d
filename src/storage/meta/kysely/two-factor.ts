// Two-factor sign-in (migration 010_two_factor): a user's TOTP secret and recovery codes, and the
// organisations that require it.
import type { Kysely } from 'kysely';
import type { TwoFactorRecord } from '../../../entities/accounts.js';
import type { AccountDatabase } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';

/** Two-factor sign-in. */
export function twoFactorRecords(db: Kysely<AccountDatabase>) {
  return {
    async twoFactorOf(userId: number): Promise<TwoFactorRecord | undefined> {
      const row = await db.selectFrom('user_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return undefined;
      const codes = await db
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
    },

    async beginTwoFactor(userId: number, secret: string): Promise<boolean> {
      const result = await db
        .insertInto('user_two_factor')
        .values({ user_id: userId, secret, enabled_at: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret }).where('user_two_factor.enabled_at', 'is', null))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async enableTwoFactor(userId: number, step: number, codeHashes: string[], now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
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
    },

    async useTotpStep(userId: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('user_two_factor')
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .where('last_step', '<', step)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
      const result = await db.deleteFrom('recovery_codes').where('user_id', '=', userId).where('code_hash', '=', codeHash).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteTwoFactor(userId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        const result = await trx.deleteFrom('user_two_factor').where('user_id', '=', userId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    async setOrgTwoFactor(orgId: number, required: boolean, now: number): Promise<void> {
      if (!required) {
        await db.deleteFrom('org_two_factor').where('org_id', '=', orgId).execute();
        return;
      }
      await db
        .insertInto('org_two_factor')
        .values({ org_id: orgId, required_since: now })
        .onConflict((oc) => oc.column('org_id').doNothing())
        .execute();
    },

    async orgRequiresTwoFactor(orgId: number): Promise<boolean> {
      return (await db.selectFrom('org_two_factor').select('org_id').where('org_id', '=', orgId).executeTakeFirst()) !== undefined;
    },

    async orgsAwaitingTwoFactor(userId: number): Promise<number[]> {
      const rows = await db
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
    },
  } satisfies Partial<AccountStore>;
}
