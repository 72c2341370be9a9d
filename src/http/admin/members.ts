// An organisation's members (docs/accounts.md): the operator's and the organisation owners' routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../../accounts/authorization.js';
import { isRole, ROLES, type Role } from '../../core/roles.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import type { Org } from '../../storage/meta/types.js';
import { idParam, objectBody, type Body } from '../validate.js';

function roleField(body: Body): Role {
  if (!isRole(body.role)) throw invalidParams(`role must be one of ${ROLES.join(', ')}`);
  return body.role;
}

export async function memberRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  const accounts = ctx.accounts;
  const ownedOrg = async (request: FastifyRequest, param: string): Promise<Org> => {
    const org = await ctx.meta.getOrg(idParam(param));
    if (!org) throw notFound('organisation not found');
    await access.require(request, org.id, 'owner', 'organisation not found');
    return org;
  };

  app.get<{ Params: { orgId: string } }>('/orgs/:orgId/members', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    return { members: await accounts.members(org.id) };
  });

  app.put<{ Params: { orgId: string; userId: string } }>('/orgs/:orgId/members/:userId', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    const role = roleField(objectBody(request.body, ['role']));
    const userId = idParam(request.params.userId);
    await accounts.setMember(org.id, userId, role);
    return { orgId: org.id, userId, role };
  });

  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/members', async (request) => {
    const org = await ownedOrg(request, request.params.orgId);
    const body = objectBody(request.body, ['email', 'role']);
    const role = roleField(body);
    const user = await accounts.userByEmail(body.email);
    await accounts.setMember(org.id, user.id, role);
    return { orgId: org.id, userId: user.id, role };
  });

  app.delete<{ Params: { orgId: string; userId: string } }>('/orgs/:orgId/members/:userId', async (request, reply) => {
    const org = await ownedOrg(request, request.params.orgId);
    await accounts.removeMember(org.id, idParam(request.params.userId));
    reply.code(204).send();
  });
}
