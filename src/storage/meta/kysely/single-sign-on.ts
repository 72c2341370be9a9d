// Single sign-on's records (migrations 020_single_sign_on, 023_confirmed_emails): the flows under way, and each
// organisation's sign-in settings (`Require single sign-on`, `Sign-in domains`).
import { sql, type Kysely } from 'kysely';
import type { OrgSignIn, SsoFlow, SsoFlowBounds, SsoFlowStart } from '../../../entities/accounts.js';
import type { AccountDatabase } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';
import { serializedWrite } from './serialized-write.js';

/** The advisory-lock key space (pg_advisory_xact_lock's first int4) of the flows' count, apart from sign-in attempts'. */
const FLOWS_LOCK_SPACE = 0x5353_4f46;

export function singleSignOnRecords(db: Kysely<AccountDatabase>) {
  return {
    async createSsoFlow(flow: SsoFlow & { stateHash: string; network: string }, now: number, max: SsoFlowBounds): Promise<SsoFlowStart> {
      // The counts and the insert under one lock: flows started at once never pass a bound together.
      return serializedWrite(db, (trx) => sql`SELECT pg_advisory_xact_lock(${FLOWS_LOCK_SPACE}, 0)`.execute(trx), async (trx) => {
        await trx.deleteFrom('sso_flows').where('expires_at', '<=', now).execute();
        const { live } = await trx.selectFrom('sso_flows').select((eb) => eb.fn.countAll<number | string>().as('live')).executeTakeFirstOrThrow();
        if (Number(live) >= max.total) return 'full';
        const { ofNetwork } = await trx
          .selectFrom('sso_flows')
          .select((eb) => eb.fn.countAll<number | string>().as('ofNetwork'))
          .where('network', '=', flow.network)
          .executeTakeFirstOrThrow();
        if (Number(ofNetwork) >= max.perNetwork) return 'network-full';
        await trx
          .insertInto('sso_flows')
          .values({
            state_hash: flow.stateHash,
            nonce: flow.nonce,
            code_verifier: flow.codeVerifier,
            next: flow.next,
            expires_at: flow.expiresAt,
            network: flow.network,
            browser_hash: flow.browserHash,
          })
          .execute();
        return 'stored';
      });
    },

    async takeSsoFlow(stateHash: string, now: number): Promise<SsoFlow | undefined> {
      const row = await db.deleteFrom('sso_flows').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
      if (!row || Number(row.expires_at) <= now) return undefined;
      return { nonce: row.nonce, codeVerifier: row.code_verifier, next: row.next, expiresAt: Number(row.expires_at), browserHash: row.browser_hash };
    },

    async deleteSsoFlowsExpiredBy(now: number): Promise<number> {
      const result = await db.deleteFrom('sso_flows').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async orgSignIn(orgId: number): Promise<OrgSignIn> {
      const row = await db.selectFrom('org_sign_in').select('require_sso').where('org_id', '=', orgId).executeTakeFirst();
      const domains = await db.selectFrom('org_sign_in_domains').select('domain').where('org_id', '=', orgId).orderBy('domain').execute();
      return { requireSingleSignOn: row?.require_sso === 1, domains: domains.map((d) => d.domain) };
    },

    async setOrgSignIn(orgId: number, settings: OrgSignIn, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const values = { require_sso: settings.requireSingleSignOn ? 1 : 0, updated_at: now };
        await trx.insertInto('org_sign_in').values({ org_id: orgId, ...values }).onConflict((oc) => oc.column('org_id').doUpdateSet(values)).execute();
        await trx.deleteFrom('org_sign_in_domains').where('org_id', '=', orgId).execute();
        if (settings.domains.length > 0) await trx.insertInto('org_sign_in_domains').values(settings.domains.map((domain) => ({ org_id: orgId, domain }))).execute();
      });
    },

    async orgsOfSignInDomain(domain: string): Promise<number[]> {
      const rows = await db.selectFrom('org_sign_in_domains').select('org_id').where('domain', '=', domain).orderBy('org_id').execute();
      return rows.map((row) => row.org_id);
    },

    async orgsRequiringSingleSignOn(userId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('org_sign_in', 'org_sign_in.org_id', 'memberships.org_id')
        .innerJoin('orgs', 'orgs.id', 'memberships.org_id')
        .select('orgs.name')
        .where('memberships.user_id', '=', userId)
        .where('org_sign_in.require_sso', '=', 1)
        .orderBy('orgs.name')
        .execute();
      return rows.map((row) => row.name);
    },

    async pendingInvitationTokens(emailKeyValue: string, now: number): Promise<string[]> {
      const rows = await db.selectFrom('invitations').select('token_hash').where('email_key', '=', emailKeyValue).where('expires_at', '>', now).orderBy('id').execute();
      return rows.map((row) => row.token_hash);
    },
  } satisfies Partial<AccountStore>;
}
