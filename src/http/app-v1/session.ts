// Sign-in, sign-out and the signed-in user (`/app/v1/session`), and first-run setup (`/app/v1/setup`).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { clearSessionCookie, clientAddress, requireSession, setSessionCookie } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import { objectBody, optionalString, requiredString, type Body } from '../validate.js';

/** A password as typed (never trimmed). */
function passwordField(body: Body): string {
  if (typeof body.password !== 'string' || body.password.length === 0 || body.password.length > 1024) {
    throw apiError('INVALID_PARAMS', 'password');
  }
  return body.password;
}

/** Routes that run without a session (they make one). */
export const WITHOUT_SESSION = { withoutSession: true } as const;

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accounts = ctx.accounts;

  app.get('/session', async (request) => {
    const { user, session } = await requireSession(request);
    return accounts.view(user, session.csrfToken);
  });

  app.post('/session', { config: WITHOUT_SESSION }, async (request, reply) => {
    const body = objectBody(request.body, ['email', 'password']);
    const attempt = {
      email: requiredString(body, 'email', 254),
      password: passwordField(body),
      address: clientAddress(request, ctx.config),
    };
    const { user, session } = await accounts.signIn(attempt);
    setSessionCookie(reply, ctx.config, session.secret);
    return accounts.view(user, session.csrfToken);
  });

  app.delete('/session', async (request, reply) => {
    const { session } = await requireSession(request);
    await accounts.signOut(session);
    clearSessionCookie(reply, ctx.config);
    reply.code(204).send();
  });

  app.get('/setup', { config: WITHOUT_SESSION }, async () => ({ needed: await accounts.setupNeeded() }));

  app.post('/setup', { config: WITHOUT_SESSION }, async (request, reply) => {
    await accounts.assertSetupNeeded();
    const body = objectBody(request.body, ['setupToken', 'email', 'password', 'organisation', 'name']);
    const { user, session } = await accounts.setup(
      {
        setupToken: requiredString(body, 'setupToken', 1024),
        email: body.email,
        password: body.password,
        organisation: requiredString(body, 'organisation'),
        name: optionalString(body, 'name'),
      },
      ctx.adminToken,
    );
    setSessionCookie(reply, ctx.config, session.secret);
    reply.code(201).send(await accounts.view(user, session.csrfToken));
  });
}
