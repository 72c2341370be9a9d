// A member's email reports (`/app/v1/account/digests`): per site of its organisations, weekly and
// monthly. A member's choice for a site it no longer belongs to sends nothing (the worker checks).
// A member also has a site's report mailed to itself now (the account page's test report), a few an
// hour (src/http/test-sends.ts).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import type { ReportChoice } from '../../core/management.js';
import type { Site } from '../../entities/sites.js';
import { requireSession } from '../auth/session-cookie.js';
import { sendReportNow } from '../admin/digests.js';
import { REPORT_SCHEDULE, REPORT_SEND } from '../bodies.js';
import { readBody } from '../validate.js';
import { testSendLimit } from '../test-sends.js';
import { requestLanguage } from '../request-language.js';

/** An active site of one of the member's organisations; any other is not found. */
async function memberSite(ctx: AppContext, userId: number, siteId: string): Promise<Site> {
  const site = await ctx.meta.getSite(siteId);
  if (!site || site.status !== 'active' || (await ctx.accounts.roleIn(site.orgId, userId)) === undefined) throw apiError('NOT_FOUND', 'site');
  return site;
}

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
    const site = await memberSite(ctx, user.id, request.params.siteId);
    const choice = readBody(REPORT_SCHEDULE, request.body);
    await ctx.digests.setChoice(user.id, site, choice);
    return { siteId: site.id, ...choice };
  });

  const testReports = testSendLimit(ctx, 'testReports');
  app.post<{ Params: { siteId: string } }>('/account/digests/:siteId/send', async (request) => {
    const { user } = await requireSession(request);
    const site = await memberSite(ctx, user.id, request.params.siteId);
    const { period } = readBody(REPORT_SEND, request.body);
    await testReports(site.orgId, user.id);
    return sendReportNow(ctx, site, period, user.email, requestLanguage(request, await ctx.accounts.store.languageOf(user.id)));
  });
}
