// The signed-in user's own account (`/app/v1/account`): password, email, language, deletion and two-factor
// sign-in. Every change asks for a secret only the user knows (the current password, also to turn
// two-factor sign-in on; or a current code to turn it off), counted as a sign-in attempt.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { clearSessionCookie, clientAddress, requireSession, setSessionCookie } from '../auth/session-cookie.js';
import { CURRENT_PASSWORD, LANGUAGE_CHOICE, NEW_EMAIL, NEW_PASSWORD, TWO_FACTOR_CODE, TWO_FACTOR_CONFIRMATION } from '../bodies.js';
import { readBody } from '../validate.js';
import { BEFORE_TWO_FACTOR } from './session.js';

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accounts = ctx.accounts;
  const options = { config: BEFORE_TWO_FACTOR };

  app.put('/account/password', options, async (request, reply) => {
    const { user } = await requireSession(request);
    const session = await accounts.changeOwnPassword(user, { ...readBody(NEW_PASSWORD, request.body), address: clientAddress(request, ctx.config) });
    setSessionCookie(reply, ctx.config, session.secret);
    return accounts.view(user, session.csrfToken);
  });

  // The new email takes effect once the link mailed to it is followed (email-confirmation.ts).
  app.put('/account/email', options, async (request, reply) => {
    const { user } = await requireSession(request);
    const pending = await accounts.changeOwnEmail(user, { ...readBody(NEW_EMAIL, request.body), address: clientAddress(request, ctx.config) });
    reply.code(202).send(pending);
  });

  // A link that confirms the current email, so that single sign-on may sign this account in.
  app.post('/account/email/confirmation', options, async (request, reply) => {
    const { user } = await requireSession(request);
    await accounts.emails.send(user.id, user.email);
    reply.code(202).send({ pendingEmail: user.email });
  });

  // The language of the dashboard and of the user's mails; null follows the browser's.
  app.put('/account/language', options, async (request) => {
    const { user } = await requireSession(request);
    const { language } = readBody(LANGUAGE_CHOICE, request.body);
    await accounts.store.setLanguage(user.id, language);
    return { language };
  });

  app.delete('/account', options, async (request, reply) => {
    const { user } = await requireSession(request);
    await accounts.deleteOwnAccount(user, { ...readBody(CURRENT_PASSWORD, request.body), address: clientAddress(request, ctx.config) });
    clearSessionCookie(reply, ctx.config);
    reply.code(204).send();
  });

  app.get('/account/two-factor', options, async (request) => {
    const { user } = await requireSession(request);
    return accounts.twoFactor.status(user.id);
  });

  app.post('/account/two-factor/setup', options, async (request) => {
    const { user } = await requireSession(request);
    return accounts.twoFactor.begin(user);
  });

  app.post('/account/two-factor/confirm', options, async (request) => {
    const { user } = await requireSession(request);
    const input = { ...readBody(TWO_FACTOR_CONFIRMATION, request.body), address: clientAddress(request, ctx.config) };
    return { recoveryCodes: await accounts.enableTwoFactor(user, input) };
  });

  app.delete('/account/two-factor', options, async (request, reply) => {
    const { user } = await requireSession(request);
    await accounts.disableTwoFactor(user, { ...readBody(TWO_FACTOR_CODE, request.body), address: clientAddress(request, ctx.config) });
    reply.code(204).send();
  });
}
