// Installing the tracker on a site: the tag to paste, and the site's last collection outcomes to
// check that its events arrive (docs/admin-api.md, "Installation"). The dashboard's first-event
// panel reads both through /app/v1 (src/http/app-v1/sites.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { publicBase } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { LOCAL_SITE_DOMAIN, type Site } from '../../entities/sites.js';
import type { RecentEvent, RecentEvents, TrackerSnippet } from '../../core/management.js';
import { parseUserAgent } from '../../ingest/user-agent.js';
import { snippetTag } from '../../tracker/snippet.js';
import { siteFor } from './org-routes.js';

/** The `after` of a recent-events read: a whole number, 0 when absent. */
export function afterParam(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d{1,15}$/.test(value)) throw apiError('INVALID_PARAMS', 'outcomeSeq');
  return Number(value);
}

/** The site's tracker tag, loading the tracker from where browsers reach the service (the local site's runs on loopback pages), and its dashboard page there. */
export function snippetOf(request: FastifyRequest, ctx: AppContext, site: Site): TrackerSnippet {
  const baseUrl = publicBase(request, ctx.config);
  return {
    siteId: site.id,
    scriptUrl: `${baseUrl}/js/t.js`,
    snippet: snippetTag(baseUrl, site.id, site.domain === LOCAL_SITE_DOMAIN),
    publicUrlSet: ctx.config.publicUrl !== undefined,
    dashboardUrl: `${baseUrl}/sites/${encodeURIComponent(site.id)}`,
  };
}

/** The site's kept collection outcomes recorded after `after`, oldest first, and the last `seq` given out. */
export async function recentEventsOf(ctx: AppContext, site: Site, after: number): Promise<RecentEvents> {
  const { outcomes, lastSeq } = await ctx.ingest.recent.list(site.internalId, after);
  const events = outcomes.map((o): RecentEvent => ({ seq: o.seq, ts: o.ts, outcome: o.outcome, path: o.path, name: o.name, browser: o.ua ? parseUserAgent(o.ua).browser : null }));
  return { events, lastSeq };
}

export async function installationRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.get<{ Params: { siteId: string } }>('/sites/:siteId/snippet', async (request) => snippetOf(request, ctx, await siteFor(ctx, access, request, request.params.siteId)));

  app.get<{ Params: { siteId: string }; Querystring: { after?: string } }>('/sites/:siteId/recent-events', async (request) => {
    const after = afterParam(request.query.after);
    return recentEventsOf(ctx, await siteFor(ctx, access, request, request.params.siteId), after);
  });
}
