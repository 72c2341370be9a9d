// The link of a confirmation mail (`/account/email/confirm/<token>`, email-confirmations.ts): works
// without signing in. GET shows a page with one button (a mail scanner that follows links confirms
// nothing); POST follows the link: the email is confirmed, or becomes the account's new email (its
// sessions ending).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { EMAIL_CONFIRMATION_PATH } from '../accounts/email-confirmations.js';
import { ApiError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import { plainPage } from './plain-page.js';

const page = (reply: FastifyReply, status: number, body: string) => plainPage(reply, status, 'Confirm your email', body);

export async function emailConfirmationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The button's form is urlencoded and empty: the token alone says what is confirmed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>(`${EMAIL_CONFIRMATION_PATH}/:token`, async (request, reply) => {
    if (!ctx.accounts.emails.wellFormed(request.params.token)) return page(reply, 404, '<p>This confirmation link is not valid.</p>');
    return page(reply, 200, '<p>Confirm this email as your svc account’s email?</p><form method="post"><button type="submit">Confirm</button></form>');
  });

  app.post<{ Params: { token: string } }>(`${EMAIL_CONFIRMATION_PATH}/:token`, async (request, reply) => {
    try {
      const { outcome, email } = await ctx.accounts.emails.confirm(request.params.token);
      const done = outcome === 'changed' ? `Your account’s email is now ${email}. Sign in again with it.` : `Your email ${email} is confirmed.`;
      return page(reply, 200, `<p role="status">${escapeHtml(done)}</p><p><a href="/login">Sign in</a></p>`);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.code !== 'NOT_FOUND' && err.code !== 'CONFLICT')) throw err;
      return page(reply, err.status, `<p>${escapeHtml(err.message)}</p>`);
    }
  });
}
