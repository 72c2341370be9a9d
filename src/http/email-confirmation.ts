// The link of a confirmation mail (`/account/email/confirm/<token>`, email-confirmations.ts): works
// without signing in. GET shows a page with one button (a mail scanner that follows links confirms
// nothing); POST follows the link: the email is confirmed, or becomes the account's new email (its
// sessions ending). Both pages, and a refusal's message, are in the request's language.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { EMAIL_CONFIRMATION_PATH } from '../accounts/email-confirmations.js';
import { ApiError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import type { Language } from '../core/messages/language.js';
import { messageIn } from '../core/messages/errors.js';
import { plainPageWords } from '../core/messages/server.js';
import { entryHtml, plainPage } from './plain-page.js';
import { requestLanguage } from './request-language.js';

const page = (reply: FastifyReply, status: number, language: Language, body: string) =>
  plainPage(reply, status, language, plainPageWords(language).confirmEmail.title, body);

export async function emailConfirmationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The button's form is urlencoded and empty: the token alone says what is confirmed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>(`${EMAIL_CONFIRMATION_PATH}/:token`, async (request, reply) => {
    const language = requestLanguage(request);
    const words = plainPageWords(language).confirmEmail;
    if (!ctx.accounts.emails.wellFormed(request.params.token)) return page(reply, 404, language, `<p>${entryHtml(words.invalid)}</p>`);
    return page(reply, 200, language, `<p>${entryHtml(words.question)}</p><form method="post"><button type="submit">${entryHtml(words.confirm)}</button></form>`);
  });

  app.post<{ Params: { token: string } }>(`${EMAIL_CONFIRMATION_PATH}/:token`, async (request, reply) => {
    const language = requestLanguage(request);
    const words = plainPageWords(language).confirmEmail;
    try {
      const { outcome, email } = await ctx.accounts.emails.confirm(request.params.token);
      const done = entryHtml(outcome === 'changed' ? words.changed : words.confirmed, { email: escapeHtml(email) });
      return page(reply, 200, language, `<p role="status">${done}</p><p><a href="/login">${entryHtml(words.signIn)}</a></p>`);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.code !== 'NOT_FOUND' && err.code !== 'CONFLICT')) throw err;
      return page(reply, err.status, language, `<p>${escapeHtml(messageIn(err, language))}</p>`);
    }
  });
}
