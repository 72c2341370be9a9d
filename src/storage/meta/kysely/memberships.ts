// Who belongs to which organisation, in which role; an organisation keeps at least one owner.
import type { Kysely } from 'kysely';
import type { Role } from '../../../core/vocabulary.js';
import type { Member, Membership } from '../../../core/management.js';
import type { MembershipChange } from '../../../entities/accounts.js';
import type { AccountDatabase } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';
import { serializedWrite } from './serialized-write.js';

/** Memberships. */
export function membershipRecords(db: Kysely<AccountDatabase>) {
  return {
    async setMembership(orgId: number, userId: number, role: Role, now: number): Promise<void> {
      await db
        .insertInto('memberships')
        .values({ org_id: orgId, user_id: userId, role, created_at: now })
        .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role }))
        .execute();
    },

    async changeMembership(orgId: number, userId: number, role: Role | null, now: number): Promise<MembershipChange> {
      const lockOrg = (trx: Kysely<AccountDatabase>) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute();
      return serializedWrite(db, lockOrg, async (trx) => {
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
    },

    async roleIn(orgId: number, userId: number): Promise<Role | undefined> {
      const row = await db
        .selectFrom('memberships')
        .select('role')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role;
    },

    async membershipsOf(userId: number): Promise<Membership[]> {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('orgs', 'orgs.id', 'memberships.org_id')
        .select(['memberships.org_id', 'orgs.name', 'memberships.role'])
        .where('memberships.user_id', '=', userId)
        .orderBy('memberships.org_id')
        .execute();
      return rows.map((r) => ({ orgId: r.org_id, orgName: r.name, role: r.role }));
    },

    async members(orgId: number): Promise<Member[]> {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['users.id', 'users.email', 'users.name', 'memberships.role'])
        .where('memberships.org_id', '=', orgId)
        .orderBy('users.id')
        .execute();
      return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role }));
    },
  } satisfies Partial<AccountStore>;
}
