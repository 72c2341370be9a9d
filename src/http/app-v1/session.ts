// Sign-in, sign-out and the signed-in user (`/app/v1/session`), and first-run setup (`/app/v1/setup`).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { clearSessionCookie, clientAddress, requireSession, setSessionCookie } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import type { SignInOptions } from '../../core/management.js';
import { SET_UP, SIGN_IN } from '../bodies.js';
import { readBody } from '../validate.js';

/** Routes that run without a session (they make one). */
export const WITHOUT_SESSION = { withoutSession: true } as const;
/** Routes a signed-in user reaches while an organisation requires a two-factor sign-in it has not enabled. */
export const BEFORE_TWO_FACTOR = { beforeTwoFactor: true } as const;

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accounts = ctx.accounts;

  app.get('/session', { config: BEFORE_TWO_FACTOR }, async (request) => {
    const { user, session } = await requireSession(request);
    return accounts.view(user, session.csrfToken, session.singleSignOn);
  });

  // What the sign-in page offers besides the password: the operator's single sign-on, by its name.
  app.get('/sign-in', { config: WITHOUT_SESSION }, async (): Promise<SignInOptions> => ({
    singleSignOn: ctx.config.oidc ? { name: ctx.config.oidc.name } : null,
  }));

  app.post('/session', { config: WITHOUT_SESSION }, async (request, reply) => {
    const outcome = await accounts.signIn({ ...readBody(SIGN_IN, request.body), address: clientAddress(request, ctx.config) });
    // A right password of a user with two-factor sign-in: no session until its code comes.
    if ('twoFactorRequired' in outcome) return reply.code(202).send(outcome);
    setSessionCookie(reply, ctx.config, outcome.session.secret);
    return accounts.view(outcome.user, outcome.session.csrfToken);
  });

  app.delete('/session', { config: BEFORE_TWO_FACTOR }, async (request, reply) => {
    const { session } = await requireSession(request);
    await accounts.signOut(session);
    clearSessionCookie(reply, ctx.config);
    reply.code(204).send();
  });

  // Once any user exists, 404 as POST answers (docs/accounts.md): nothing tells the set-up apart.
  app.get('/setup', { config: WITHOUT_SESSION }, async () => {
    await accounts.assertSetupNeeded();
    return { needed: true };
  });

  app.post('/setup', { config: WITHOUT_SESSION }, async (request, reply) => {
    await accounts.assertSetupNeeded();
    const { user, session } = await accounts.setup(readBody(SET_UP, request.body), ctx.adminToken);
    setSessionCookie(reply, ctx.config, session.secret);
    reply.code(201).send(await accounts.view(user, session.csrfToken));
  });
}
