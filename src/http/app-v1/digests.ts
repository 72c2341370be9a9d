// A member's email reports (`/app/v1/account/digests`): per site of its organisations, weekly and
// monthly. A member's choice for a site it no longer belongs to sends nothing (the worker checks).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import type { ReportChoice } from '../../core/management.js';
import { requireSession } from '../auth/session-cookie.js';
import { objectBody } from '../validate.js';

export async function digestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/account/digests', async (request) => {
    const { user } = await requireSession(request);
    const choices = await ctx.digests.choices(user.id);
    const sites: ReportChoice[] = [];
    for (const m of await ctx.accounts.memberships(user.id)) {
      for (const site of await ctx.meta.listSites(m.orgId, { activeOnly: true })) {
        const choice = choices.get(site.internalId) ?? { weekly: false, monthly: false };
        sites.push({ siteId: site.id, name: site.name, domain: site.domain, orgName: m.orgName, ...choice });
      }
    }
    return { configured: ctx.digests.configured, sites };
  });

  app.put<{ Params: { siteId: string } }>('/account/digests/:siteId', async (request) => {
    const { user } = await requireSession(request);
    const site = await ctx.meta.getSite(request.params.siteId);
    if (!site || site.status !== 'active' || (await ctx.accounts.roleIn(site.orgId, user.id)) === undefined) throw apiError('NOT_FOUND', 'site');
    const body = objectBody(request.body, ['weekly', 'monthly']);
    for (const name of ['weekly', 'monthly'] as const) {
      if (typeof body[name] !== 'boolean') throw apiError('INVALID_PARAMS', 'boolean', { name });
    }
    const choice = { weekly: body.weekly as boolean, monthly: body.monthly as boolean };
    await ctx.digests.setChoice(user.id, site, choice);
    return { siteId: site.id, ...choice };
  });
}
