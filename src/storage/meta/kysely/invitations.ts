// Invitations to an organisation (migration 007_invitations): one pending per organisation and email,
// accepted once.
import type { Kysely, Selectable } from 'kysely';
import { roleAtLeast, type Role } from '../../../core/vocabulary.js';
import { emailKey, type Invitation, type InvitationAcceptance } from '../../../entities/accounts.js';
import type { AccountDatabase, InvitationsTable } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';
import { serializedWrite } from './serialized-write.js';

const toInvitation = (row: Selectable<InvitationsTable>): Invitation => ({
  id: row.id,
  orgId: row.org_id,
  email: row.email,
  role: row.role,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
});

/** Invitations. */
export function invitationRecords(db: Kysely<AccountDatabase>) {
  return {
    async createInvitation(invitation: { orgId: number; email: string; role: Role; tokenHash: string; expiresAt: number }, now: number): Promise<Invitation> {
      const replaced = { email: invitation.email.trim(), role: invitation.role, token_hash: invitation.tokenHash, created_at: now, expires_at: invitation.expiresAt };
      const row = await db
        .insertInto('invitations')
        .values({ org_id: invitation.orgId, email_key: emailKey(invitation.email), ...replaced })
        .onConflict((oc) => oc.columns(['org_id', 'email_key']).doUpdateSet(replaced))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toInvitation(row);
    },

    async invitations(orgId: number, now: number): Promise<Invitation[]> {
      const rows = await db.selectFrom('invitations').selectAll().where('org_id', '=', orgId).where('expires_at', '>', now).orderBy('id').execute();
      return rows.map(toInvitation);
    },

    async invitationByToken(tokenHash: string, now: number): Promise<(Invitation & { orgName: string }) | undefined> {
      const row = await db
        .selectFrom('invitations')
        .innerJoin('orgs', 'orgs.id', 'invitations.org_id')
        .selectAll('invitations')
        .select('orgs.name as org_name')
        .where('invitations.token_hash', '=', tokenHash)
        .where('invitations.expires_at', '>', now)
        .executeTakeFirst();
      return row && { ...toInvitation(row), orgName: row.org_name };
    },

    async revokeInvitation(orgId: number, invitationId: number): Promise<boolean> {
      const result = await db.deleteFrom('invitations').where('org_id', '=', orgId).where('id', '=', invitationId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async acceptInvitation(tokenHash: string, user: { id: number; email: string }, now: number): Promise<InvitationAcceptance> {
      return serializedWrite(db, undefined, async (trx) => {
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
    },

    async deleteInvitationsExpiredBy(now: number): Promise<number> {
      const result = await db.deleteFrom('invitations').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  } satisfies Partial<AccountStore>;
}
