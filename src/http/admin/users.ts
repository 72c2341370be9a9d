// Dashboard users (docs/accounts.md): created, listed and deleted by the operator only, who may also
// give a user a role by email (an owner invites instead: members.ts).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import type { RoleAssignment } from '../../core/management.js';
import { MEMBER_BY_EMAIL, NEW_USER, USER_EMAIL, USER_PASSWORD } from '../bodies.js';
import { idParam, readBody } from '../validate.js';

export async function userRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/users', async (request, reply) => {
    const user = await ctx.accounts.createUser(readBody(NEW_USER, request.body));
    reply.code(201).send(user);
  });

  app.get('/users', async () => ({ users: await ctx.accounts.listUsers() }));

  app.put<{ Params: { userId: string } }>('/users/:userId/password', async (request, reply) => {
    await ctx.accounts.changePassword(idParam(request.params.userId), readBody(USER_PASSWORD, request.body).password);
    reply.code(204).send();
  });

  // The operator's change of an email (the one way without SMTP): unconfirmed, as no mailed link was followed; the user's sessions end.
  app.put<{ Params: { userId: string } }>('/users/:userId/email', async (request) => {
    return ctx.accounts.setEmail(idParam(request.params.userId), readBody(USER_EMAIL, request.body).email);
  });

  app.delete<{ Params: { userId: string } }>('/users/:userId', async (request, reply) => {
    await ctx.accounts.deleteUser(idParam(request.params.userId));
    reply.code(204).send();
  });

  // A user who lost both its authenticator and its recovery codes signs in with its password again.
  app.delete<{ Params: { userId: string } }>('/users/:userId/2fa', async (request, reply) => {
    await ctx.accounts.resetTwoFactor(idParam(request.params.userId));
    reply.code(204).send();
  });

  app.post<{ Params: { orgId: string } }>('/orgs/:orgId/members', async (request): Promise<RoleAssignment> => {
    const org = await ctx.meta.getOrg(idParam(request.params.orgId));
    if (!org) throw apiError('NOT_FOUND', 'organisation');
    const { email, role } = readBody(MEMBER_BY_EMAIL, request.body);
    const user = await ctx.accounts.userByEmail(email);
    await ctx.accounts.setMember(org.id, user.id, role);
    return { orgId: org.id, userId: user.id, role };
  });
}
