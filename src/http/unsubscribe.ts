// The unsubscribe link of an email report (`/unsubscribe/<signed token>`): works without signing in.
// GET shows a page with one button (so that a mail scanner following links unsubscribes no one);
// POST, from that button or from a mail reader's one-click List-Unsubscribe (RFC 8058), stops that
// kind of report for that member and site.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { plainPage } from './plain-page.js';

/** A page of the unsubscribe link. */
const page = (reply: FastifyReply, status: number, body: string) => plainPage(reply, status, 'Email reports', body);

export async function unsubscribeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A one-click POST sends `List-Unsubscribe=One-Click` as a form: multipart/form-data (RFC 8058's
  // SHOULD) or urlencoded. The token alone says what stops, so the body is read (bounded) and unused.
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    if (!ctx.digests.validUnsubscribeToken(request.params.token)) return page(reply, 404, '<p>This unsubscribe link is not valid.</p>');
    return page(reply, 200, '<p>Stop receiving this report for this site?</p><form method="post"><button type="submit">Unsubscribe</button></form>');
  });

  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    if (!ctx.digests.validUnsubscribeToken(request.params.token)) return page(reply, 404, '<p>This unsubscribe link is not valid.</p>');
    const { kind } = await ctx.digests.unsubscribe(request.params.token);
    return page(reply, 200, `<p role="status">Done: you will no longer receive the ${kind} report of this site. Choose reports again on your account page.</p>`);
  });
}
