// Sign-in, sign-out and the signed-in user (`/app/v1/session`), and first-run setup (`/app/v1/setup`).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { clearSessionCookie, clientAddress, requireSession, setSessionCookie } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import type { SignInOptions } from '../../core/management.js';
import { objectBody, optionalString, requiredString, type Body } from '../validate.js';

/** A password as typed (never trimmed), of the field `name`. */
export function passwordField(body: Body, name = 'password'): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) {
    throw name === 'password' ? apiError('INVALID_PARAMS', 'password') : apiError('INVALID_PARAMS', 'stringLength', { name, max: 1024 });
  }
  return value;
}

/** A two-factor code as typed: 6 digits or a recovery code. */
export function codeField(body: Body): string {
  if (typeof body.code !== 'string' || body.code.trim().length === 0 || body.code.length > 64) throw apiError('INVALID_PARAMS', 'code');
  return body.code;
}

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
    const body = objectBody(request.body, ['email', 'password', 'code']);
    const attempt = {
      email: requiredString(body, 'email', 254),
      password: passwordField(body),
      ...(body.code === undefined ? {} : { code: codeField(body) }),
      address: clientAddress(request, ctx.config),
    };
    const outcome = await accounts.signIn(attempt);
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
