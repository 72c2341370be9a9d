// An invitation's link, for its invitee (docs/accounts.md): what it invites to, the account of its
// email (created from the link, signed out), and its acceptance (signed in as the invited email).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { InvitationView } from '../../core/management.js';
import { clientAddress, requireSession, setSessionCookie } from '../auth/session-cookie.js';
import { INVITATION_ACCOUNT, NO_BODY } from '../bodies.js';
import { readBody } from '../validate.js';
import { WITHOUT_SESSION } from './session.js';

export async function invitationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accounts = ctx.accounts;

  app.get<{ Params: { token: string } }>('/invitations/:token', { config: WITHOUT_SESSION }, async (request): Promise<InvitationView> => {
    const { orgName, email, role, expiresAt } = await accounts.invitations.pending(request.params.token);
    return { orgName, email, role, expiresAt };
  });

  app.post<{ Params: { token: string } }>('/invitations/:token/account', { config: WITHOUT_SESSION }, async (request, reply) => {
    const { user, session } = await accounts.createInvitedUser(request.params.token, { ...readBody(INVITATION_ACCOUNT, request.body), address: clientAddress(request, ctx.config) });
    setSessionCookie(reply, ctx.config, session.secret);
    reply.code(201).send(await accounts.view(user, session.csrfToken));
  });

  app.post<{ Params: { token: string } }>('/invitations/:token/accept', async (request) => {
    readBody(NO_BODY, request.body);
    const { user } = await requireSession(request);
    const { orgId, role } = await accounts.invitations.accept(request.params.token, user);
    return { orgId, role };
  });
}
