// The signed-in user's sites across organisations, the steps of a site's funnels (which the funnel
// view names for every role and for a shared link without locked filters), the custom property keys
// of a site's events (the Events panel's Properties tab, likewise), a site's installation state (the
// dashboard's first-event panel, for every role) and the time zones a site may have.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { memberAccess } from '../auth/authorization.js';
import { requireSession } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import { idParam } from '../validate.js';
import { computeRecentVisitors, siteHasEvents } from '../../stats/read/realtime.js';
import { isLocalUrl } from '../../alerts/url-safety.js';
import type { Site } from '../../entities/sites.js';
import type { SharedLink } from '../../entities/accounts.js';
import { SHARE_ACCESS_HEADER } from './share.js';
import { afterParam, recentEventsOf, snippetOf } from '../admin/installation-routes.js';
import { TIME_ZONES } from '../admin/org-routes.js';
import type { Installation, SiteRow } from '../../core/management.js';
import { propertyKeysResponse, type PropertyKeysAnswer } from '../../core/answers.js';
import type { RawParams } from '../../core/query.js';
import { answers, planRead } from '../../stats/entry.js';
import { readSource } from '../v1/index.js';
import { readingFor } from '../../stats/fair-reads.js';

const DAY_MS = 86_400_000;

export async function siteListRoutes(app: FastifyInstance, ctx: AppContext, sharedLinkOf: (request: FastifyRequest) => Promise<SharedLink>): Promise<void> {
  app.get('/sites', async (request) => {
    const { user } = await requireSession(request);
    const now = ctx.clock.now();
    const perOrg = await Promise.all(
      (await ctx.accounts.memberships(user.id)).map(async (m) =>
        Promise.all(
          (await ctx.meta.listSites(m.orgId, { activeOnly: true })).map(async (site): Promise<SiteRow> => ({
            id: site.id,
            domain: site.domain,
            name: site.name,
            timezone: site.timezone,
            status: site.status,
            orgId: m.orgId,
            orgName: m.orgName,
            role: m.role,
            visitors24h: await computeRecentVisitors(ctx.events, site.id, site.timezone, now, DAY_MS),
          })),
        ),
      ),
    );
    return { sites: perOrg.flat() };
  });

  const access = memberAccess(ctx.accounts);
  /** An active site of one of the user's organisations, whatever the role. */
  const memberSite = async (request: FastifyRequest, siteId: string): Promise<Site> => {
    const site = await ctx.meta.getSite(siteId);
    if (!site || site.status !== 'active') throw apiError('NOT_FOUND', 'site');
    await access.require(request, site.orgId, 'viewer', 'site');
    return site;
  };

  /** The site of a shared link's request for `endpoint`: its own, and only while the link has no locked filters (the endpoint takes none). */
  const sharedSite = async (request: FastifyRequest, siteId: string, endpoint: 'funnels' | 'properties'): Promise<Site> => {
    const link = await sharedLinkOf(request);
    const site = link.sitePublicId === siteId ? await ctx.meta.getSite(siteId) : undefined;
    if (!site || site.status !== 'active') throw apiError('NOT_FOUND', 'site');
    if (link.filters.length > 0) throw apiError('FORBIDDEN', 'shareLocked', { endpoint });
    return site;
  };

  // Any member may read a funnel's figures, so any member may read what its steps are, and so may a
  // shared link that reads them; changing them stays with admins (/app/v1/manage).
  app.get<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId/versions', { config: { shareable: true } }, async (request) => {
    const site = request.headers[SHARE_ACCESS_HEADER] === undefined ? await memberSite(request, request.params.siteId) : await sharedSite(request, request.params.siteId, 'funnels');
    const funnel = await ctx.meta.funnelHistory(site.internalId, idParam(request.params.funnelId));
    if (!funnel) throw apiError('NOT_FOUND', 'funnel');
    return funnel;
  });

  // The keys the Properties tab picks from, over the view's period (`period`, or `from` and `to`, as
  // the read API takes them; no filter: the keys of every event).
  app.get<{ Params: { siteId: string } }>('/sites/:siteId/properties', { config: { shareable: true }, schema: { response: { 200: propertyKeysResponse } } }, async (request): Promise<PropertyKeysAnswer> => {
    const site = request.headers[SHARE_ACCESS_HEADER] === undefined ? await memberSite(request, request.params.siteId) : await sharedSite(request, request.params.siteId, 'properties');
    const source = readSource(ctx);
    return readingFor(site.orgId, async () => answers.properties(source, await planRead(source, { kind: 'goals', params: request.query as RawParams, site, now: ctx.clock.now() })));
  });

  // Whether the site holds an event yet, its tracker tag and its recent collection outcomes (as
  // /admin/v1 answers them to `svc snippet` and `svc watch`). Any member: the tag carries only the
  // site's public id, found in every page of the site, and an outcome only a time, a path and a
  // browser family, less than the dashboard shows.
  app.get<{ Params: { siteId: string }; Querystring: { after?: string } }>('/sites/:siteId/installation', async (request): Promise<Installation> => {
    const after = afterParam(request.query.after);
    const site = await memberSite(request, request.params.siteId);
    const snippet = snippetOf(request, ctx, site);
    const [hasEvents, recent] = await Promise.all([siteHasEvents(ctx.events, site.id, site.timezone, ctx.clock.now()), recentEventsOf(ctx, site, after)]);
    return { hasEvents, ...snippet, localScriptUrl: isLocalUrl(new URL(snippet.scriptUrl)), ...recent };
  });

  app.get('/timezones', async () => ({ timezones: TIME_ZONES }));
}
