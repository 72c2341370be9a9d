// The unsubscribe link of an email report (`/unsubscribe/<signed token>`): works without signing in.
// GET shows a page with one button (so that a mail scanner following links unsubscribes no one);
// POST, from that button or from a mail reader's one-click List-Unsubscribe (RFC 8058), stops that
// kind of report for that member and site. The pages are in the request's language.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { Language } from '../core/messages/language.js';
import { plainPageWords } from '../core/messages/server.js';
import { entryHtml, plainPage } from './plain-page.js';
import { requestLanguage } from './request-language.js';

/** A page of the unsubscribe link. */
const page = (reply: FastifyReply, status: number, language: Language, body: string) =>
  plainPage(reply, status, language, plainPageWords(language).unsubscribe.title, body);

export async function unsubscribeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A one-click POST sends `List-Unsubscribe=One-Click` as a form: multipart/form-data (RFC 8058's
  // SHOULD) or urlencoded. The token alone says what stops, so the body is read (bounded) and unused.
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const language = requestLanguage(request);
    const words = plainPageWords(language).unsubscribe;
    if (!ctx.digests.validUnsubscribeToken(request.params.token)) return page(reply, 404, language, `<p>${entryHtml(words.invalid)}</p>`);
    return page(reply, 200, language, `<p>${entryHtml(words.question)}</p><form method="post"><button type="submit">${entryHtml(words.unsubscribe)}</button></form>`);
  });

  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const language = requestLanguage(request);
    const words = plainPageWords(language).unsubscribe;
    if (!ctx.digests.validUnsubscribeToken(request.params.token)) return page(reply, 404, language, `<p>${entryHtml(words.invalid)}</p>`);
    const { kind } = await ctx.digests.unsubscribe(request.params.token);
    return page(reply, 200, language, `<p role="status">${entryHtml(words.done[kind])}</p>`);
  });
}
