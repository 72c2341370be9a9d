// Single sign-on's two browser addresses: the start (the `Sign in with …` button), which sends the
// browser to the provider, and the callback, where the provider sends it back. Either one ends on a
// redirect: to the provider, to the flow's `next` with a session cookie, or to /login with the
// failure's reason (never an error page); the reason is logged. The start sets the cookie that binds
// the flow to this browser, the callback reads it (no login CSRF).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SSO_FLOW_VALID_MS, SsoRefusal } from '../../accounts/single-sign-on.js';
import { safeNext } from '../../core/next-path.js';
import { SSO_BROWSER_COOKIE, SSO_CALLBACK_PATH, SSO_PATHS, SSO_START_PATH, ssoFailurePath } from '../../core/single-sign-on.js';
import { clientAddress, ownOrigin, requestCookie, setCookie, setSessionCookie } from '../auth/session-cookie.js';

function redirect(reply: FastifyReply, location: string): FastifyReply {
  // The callback's address holds a code: no Referer carries it on.
  return reply.code(302).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('location', location).send();
}

export async function singleSignOnRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const refused = (request: FastifyRequest, reply: FastifyReply, err: unknown, next: string) => {
    const refusal = err instanceof SsoRefusal ? err : new SsoRefusal('internal', next, err instanceof Error ? err.message : String(err));
    ctx.log.warn({ failure: refusal.failure, reason: refusal.message, reqId: request.id }, 'single sign-on did not sign in');
    return redirect(reply, ssoFailurePath(refusal.failure, refusal.next));
  };

  app.get(SSO_START_PATH, async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).next;
    const next = safeNext(typeof raw === 'string' ? raw : undefined, ownOrigin(request, ctx.config));
    if (!ctx.singleSignOn) return redirect(reply, ssoFailurePath('unconfigured', next));
    try {
      const flow = await ctx.singleSignOn.begin(next, ownOrigin(request, ctx.config), clientAddress(request, ctx.config), requestCookie(request, SSO_BROWSER_COOKIE));
      setCookie(reply, ctx.config, { name: SSO_BROWSER_COOKIE, value: flow.browserSecret, path: SSO_PATHS, maxAgeS: SSO_FLOW_VALID_MS / 1000 });
      return redirect(reply, flow.url);
    } catch (err) {
      return refused(request, reply, err, next);
    }
  });

  app.get(SSO_CALLBACK_PATH, async (request, reply) => {
    if (!ctx.singleSignOn) return redirect(reply, ssoFailurePath('unconfigured', '/'));
    const query = request.url.indexOf('?');
    try {
      const { session, next } = await ctx.singleSignOn.complete(query === -1 ? '' : request.url.slice(query), requestCookie(request, SSO_BROWSER_COOKIE));
      setSessionCookie(reply, ctx.config, session.secret);
      return redirect(reply, next);
    } catch (err) {
      return refused(request, reply, err, err instanceof SsoRefusal ? err.next : '/');
    }
  });
}
