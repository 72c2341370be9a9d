// The signed-in user's sites across organisations, and the time zones a site may have.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { requireSession } from '../../accounts/http.js';
import { computeRecentVisitors } from '../../stats/engine.js';
import { TIME_ZONES } from '../admin/org-routes.js';

const DAY_MS = 86_400_000;

export async function siteListRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/sites', async (request) => {
    const { user } = await requireSession(request);
    const now = ctx.clock.now();
    const perOrg = await Promise.all(
      (await ctx.accounts.memberships(user.id)).map(async (m) =>
        Promise.all(
          (await ctx.meta.listSites(m.orgId, { activeOnly: true })).map(async (site) => ({
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

  app.get('/timezones', async () => ({ timezones: TIME_ZONES }));
}
