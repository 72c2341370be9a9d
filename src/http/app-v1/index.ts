// The dashboard's JSON endpoints (/app/v1): authorised by the session cookie and the user's
// memberships. Every answer is no-store; every request passes the Origin check, and every one but
// sign-in and setup needs a session, its rate limit and (when it changes state) its CSRF token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SharedLink } from '../../entities/accounts.js';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import { clientGroup } from '../../ingest/ip.js';
import { checkCsrfToken, checkOrigin } from '../auth/csrf.js';
import { clientAddress, requireSession } from '../auth/session-cookie.js';
import { actWithKey, keyReaches, memberAccess } from '../auth/authorization.js';
import { apiKeyFrom, keyRateLimit } from '../auth/api-key.js';
import { orgScopedRoutes } from '../admin/index.js';
import { acceptEmptyJsonBody } from '../admin/json-body.js';
import { statsRoutes } from '../v1/index.js';
import { accountRoutes } from './account.js';
import { digestRoutes } from './digests.js';
import { invitationRoutes } from './invitations.js';
import { sessionRoutes } from './session.js';
import { SHARE_ACCESS_HEADER, shareRoutes } from './share.js';
import { siteListRoutes } from './sites.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route makes a session (sign-in, setup): no session, rate limit or CSRF token needed. */
    withoutSession?: boolean;
    /** The route serves a user whom an organisation requires to enable two-factor sign-in first (its session and account). */
    beforeTwoFactor?: boolean;
    /** A route a shared link's page reads (with `x-share-access`, no session): statistics, funnel steps. */
    shareable?: boolean;
  }
}

export async function appRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { count, windowMs } = ctx.config.appRateLimit;
  const limiter = ctx.counters.rateLimiter('app', count, windowMs);
  const perMinute = Math.round((count * 60_000) / windowMs);
  const keyCounted = keyRateLimit(ctx);
  const rateLimited = () => apiError('RATE_LIMITED', 'dashboard', { perMinute }, { 'retry-after': String(Math.ceil(windowMs / 1000)) });

  app.addHook('onRequest', async (request) => {
    checkOrigin(request, ctx.config);
    // A shared link's page reads statistics and funnel steps only; those routes authenticate its access token.
    if (request.headers[SHARE_ACCESS_HEADER] !== undefined) {
      if (!request.routeOptions.config.shareable) throw apiError('FORBIDDEN', 'shareScope');
      // Counted per client before its access token is looked up: an unknown token (one lookup,
      // then 404) costs what a known one costs, and a client cannot make lookups past the limit.
      if (!(await limiter.hit(`share-client:${clientGroup(clientAddress(request, ctx.config))}`, ctx.clock.now()))) throw rateLimited();
      return;
    }
    if (request.routeOptions.config.withoutSession) return;
    // A manage key manages its organisation's sites: no cookie, so no CSRF token; /v1's limit per key.
    if (request.headers.authorization !== undefined && request.routeOptions.url?.startsWith('/app/v1/manage/')) {
      const key = await apiKeyFrom(ctx, request.headers.authorization);
      if (key.scope !== 'manage') throw apiError('UNAUTHORIZED', 'credentials');
      await keyCounted(key);
      if (!keyReaches(request.routeOptions.url)) throw apiError('FORBIDDEN', 'keyScope');
      actWithKey(request, key);
      return;
    }
    const signedIn = await requireSession(request);
    if (!(await limiter.hit(String(signedIn.user.id), ctx.clock.now()))) throw rateLimited();
    checkCsrfToken(request, signedIn);
    // Single sign-on's session: two-factor sign-in is the provider's.
    if (!request.routeOptions.config.beforeTwoFactor && !signedIn.session.singleSignOn && (await ctx.accounts.orgsAwaitingTwoFactor(signedIn.user.id)).length > 0) {
      throw apiError('FORBIDDEN', 'twoFactorRequired');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  acceptEmptyJsonBody(app);

  /**
   * The shared link whose access token a request carries (404 when it reads no more), within the
   * link's rate limit (its client's was counted by the onRequest hook, before this lookup).
   */
  async function sharedLinkOf(request: FastifyRequest): Promise<SharedLink> {
    const access = request.headers[SHARE_ACCESS_HEADER];
    const link = typeof access === 'string' ? await ctx.accounts.sharedLinks.byAccess(access) : undefined;
    if (!link) throw apiError('NOT_FOUND', 'sharedLink');
    if (!(await limiter.hit(`share:${link.id}`, ctx.clock.now()))) throw rateLimited();
    return link;
  }

  await sessionRoutes(app, ctx);
  await accountRoutes(app, ctx);
  await digestRoutes(app, ctx);
  await shareRoutes(app, ctx);
  await invitationRoutes(app, ctx);
  await siteListRoutes(app, ctx, sharedLinkOf);
  // The read API's statistics routes by their own code: a member of the site's organisation reads
  // what a key of that organisation reads on /v1, byte for byte, and for goals and funnels also a
  // header saying the day each is counted since (the dashboard labels figures that miss earlier days).
  await statsRoutes(app, ctx, {
    prefix: '',
    async authenticate(request) {
      if (request.headers[SHARE_ACCESS_HEADER] !== undefined) {
        const link = await sharedLinkOf(request);
        const site = await ctx.meta.getSite(link.sitePublicId);
        return { id: `share:${link.id}`, orgIds: site ? [site.orgId] : [], share: { siteId: link.sitePublicId, lockedFilters: link.filters } };
      }
      const { user } = await requireSession(request);
      return { id: `user:${user.id}`, orgIds: (await ctx.accounts.memberships(user.id)).map((m) => m.orgId), userId: user.id };
    },
    operations: ['stats', 'timeseries', 'breakdown', 'annotations', 'journeys', 'realtime', 'goals', 'funnels', 'funnel'],
    catchAll: [],
    countedSince: true,
    shareable: true,
    filteredGoals: true,
  });
  // The admin API's organisation-scoped routes by their own code, for admins and owners.
  await app.register(async (manage) => orgScopedRoutes(manage, ctx, memberAccess(ctx.accounts)), { prefix: '/manage' });
}
