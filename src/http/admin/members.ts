// An organisation's members and invitations (docs/accounts.md): the operator's and the organisation
// owners' routes. Owners add people by invitation only; adding an existing user by email is the
// operator's (users.ts), since its answer tells whether an account exists.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { publicBase } from '../auth/session-cookie.js';
import { checkEmail } from '../../accounts/service.js';
import { parseDomain } from './domain.js';
import { apiError } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import type { Invitation } from '../../entities/accounts.js';
import type { ManagedInvitation, Member, Org, OrgSignInView, RoleAssignment, CreatedInvitation } from '../../core/management.js';
import { INVITATION, ROLE, SIGN_IN_SETTINGS, TWO_FACTOR_REQUIREMENT } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { requestLanguage } from '../request-language.js';

/** Invitations an organisation may send in an hour: each one is a link its owners can hand out. */
const INVITATIONS_PER_HOUR = 50;

const invitationView = (i: Invitation): ManagedInvitation => ({ invitationId: i.id, email: i.email, role: i.role, createdAt: i.createdAt, expiresAt: i.expiresAt });

export async function memberRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  const accounts = ctx.accounts;
  const invitationLimiter = ctx.counters.rateLimiter('invitations', INVITATIONS_PER_HOUR, 3_600_000);
  const ownedOrg = async (request: FastifyRequest, param: string): Promise<Org> => {
    const org = await ctx.meta.getOrg(idParam(param));
    if (!org) throw apiError('NOT_FOUND', 'organisation');
    await access.require(request, org.id, 'owner', 'organisation');
    return org;
  };

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/members', async (request): Promise<{ members: Member[] }> => {
    const org = await ownedOrg(request, request.params.orgId);
    return { members: await accounts.members(org.id) };
  });

  app.put<{ Params: { orgId: string; userId: string } }>('/orgs/:orgId/members/:userId', async (request): Promise<RoleAssignment> => {
    const org = await ownedOrg(request, request.params.orgId);
    const { role } = readBody(ROLE, request.body);
    const userId = idParam(request.params.userId);
    // One answer for an unknown user and for a user outside the organisation: an owner learns nothing of accounts that are not members.
    if (!access.addsMembers && (await accounts.roleIn(org.id, userId)) === undefined) throw apiError('NOT_FOUND', 'membership');
    await accounts.setMember(org.id, userId, role);
    return { orgId: org.id, userId, role };
  });

  app.delete<{ Params: { orgId: string; userId: string } }>('/orgs/:orgId/members/:userId', async (request, reply) => {
    const org = await ownedOrg(request, request.params.orgId);
    await accounts.removeMember(org.id, idParam(request.params.userId));
    reply.code(204).send();
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/two-factor', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    return { orgId: org.id, required: await accounts.orgRequiresTwoFactor(org.id) };
  });

  // An owner requires two-factor sign-in of every member (its own enabled first); members without
  // it then reach only their account pages until they enable it.
  app.put<{ Params: { orgId: string } }>('/orgs/:orgId/two-factor', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    const { required } = readBody(TWO_FACTOR_REQUIREMENT, request.body);
    await accounts.requireTwoFactor(org.id, required, await access.actingUserId(request));
    return { orgId: org.id, required };
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/sign-in', async (request): Promise<OrgSignInView> => {
    const org = await ownedOrg(request, request.params.orgId);
    return { orgId: org.id, ...(await accounts.orgSignIn(org.id)), singleSignOnConfigured: ctx.config.oidc !== undefined };
  });

  // `Require single sign-on` (an owner's: members sign in through it only) and `Sign-in domains`
  // (the operator's: unknown users of these email domains join as viewers through single sign-on).
  // Either may be left out to keep it; an owner sending a list other than the current one gets 403.
  app.put<{ Params: { orgId: string } }>('/orgs/:orgId/sign-in', async (request): Promise<OrgSignInView> => {
    const org = await ownedOrg(request, request.params.orgId);
    const body = readBody(SIGN_IN_SETTINGS, request.body);
    const current = await accounts.orgSignIn(org.id);
    const domains = body.domains === undefined ? current.domains : [...new Set(body.domains.map(parseDomain))].sort();
    if (!access.grantsSignInDomains && domains.join(' ') !== current.domains.join(' ')) throw apiError('FORBIDDEN', 'signInDomains');
    const settings = { requireSingleSignOn: body.requireSingleSignOn ?? current.requireSingleSignOn, domains };
    await accounts.setOrgSignIn(org.id, settings, ctx.config.oidc !== undefined);
    return { orgId: org.id, ...settings, singleSignOnConfigured: ctx.config.oidc !== undefined };
  });

  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/invitations', async (request, reply) => {
    const org = await ownedOrg(request, request.params.orgId);
    const body = readBody(INVITATION, request.body);
    const email = checkEmail(body.email);
    const role = body.role;
    if (!(await invitationLimiter.hit(String(org.id), ctx.clock.now()))) {
      throw apiError('RATE_LIMITED', 'invitations', { perHour: INVITATIONS_PER_HOUR }, { 'retry-after': '3600' });
    }
    const link = { base: publicBase(request, ctx.config), fromPublicUrl: ctx.config.publicUrl !== undefined };
    const sent = await accounts.invitations.create(org.id, email, role, link, requestLanguage(request));
    const answer: CreatedInvitation = { ...invitationView(sent.invitation), url: sent.url, emailed: sent.emailed };
    reply.code(201).send(answer);
  });

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/invitations', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    return { invitations: (await accounts.invitations.list(org.id)).map(invitationView) };
  });

  app.delete<{ Params: { orgId: string; invitationId: string } }>('/orgs/:orgId/invitations/:invitationId', async (request, reply) => {
    const org = await ownedOrg(request, request.params.orgId);
    await accounts.invitations.revoke(org.id, idParam(request.params.invitationId));
    reply.code(204).send();
  });
}
