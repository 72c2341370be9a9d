// Installing the tracker on a site: the tag to paste, and the site's last collection outcomes to
// check that its events arrive (docs/admin-api.md, "Installation").
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../../accounts/authorization.js';
import { publicBase } from '../../accounts/http.js';
import { invalidParams } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { parseUserAgent } from '../../ingest/user-agent.js';
import { snippetTag } from '../../tracker/snippet.js';
import { siteFor } from './org-routes.js';

function afterParam(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d{1,15}$/.test(value)) throw invalidParams('after must be a whole number (the seq of the last outcome seen)');
  return Number(value);
}

export async function installationRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.get<{ Params: { siteId: string } }>('/sites/:siteId/snippet', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const baseUrl = publicBase(request, ctx.config); // where browsers load the tracker from
    return { siteId: site.id, scriptUrl: `${baseUrl}/js/t.js`, snippet: snippetTag(baseUrl, site.id), publicUrlSet: ctx.config.publicUrl !== undefined };
  });

  app.get<{ Params: { siteId: string }; Querystring: { after?: string } }>('/sites/:siteId/recent-events', async (request) => {
    const after = afterParam(request.query.after);
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const { outcomes, lastSeq } = await ctx.ingest.recent.list(site.internalId, after);
    const events = outcomes.map((o) => ({ seq: o.seq, ts: o.ts, outcome: o.outcome, path: o.path, browser: o.ua ? parseUserAgent(o.ua).browser : null }));
    return { events, lastSeq };
  });
}
