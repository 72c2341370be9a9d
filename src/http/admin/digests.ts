// A site's reports (docs/accounts.md#email-reports), for its admins and owners and the operator: the
// state of its reports (mail configured, the last sent, the last error) and the webhooks that receive
// them (never answered with their secrets); for the operator alone, a report mailed now to any address.
import type { FastifyInstance } from 'fastify';
import { operatorAccess, type OrgAccess } from '../auth/authorization.js';
import { checkEmail } from '../../accounts/service.js';
import { apiError } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import type { ManagedReportWebhook, SentReport } from '../../core/management.js';
import type { Site } from '../../entities/sites.js';
import type { DigestKind, DigestWebhook } from '../../storage/meta/digest-types.js';
import { NEW_REPORT_WEBHOOK, REPORT_MAILED } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { siteFor } from './org-routes.js';
import { requestLanguage } from '../request-language.js';
import type { Language } from '../../core/messages/language.js';

const webhookView = (hook: DigestWebhook): ManagedReportWebhook => ({ id: hook.id, url: hook.url, weekly: hook.weekly, monthly: hook.monthly, createdAt: hook.createdAt });

export async function digestAdminRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.get<{ Params: { siteId: string } }>('/sites/:siteId/digests', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { configured: ctx.digests.configured, ...(await ctx.digests.status(site)) };
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/digest-webhooks', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const hook = await ctx.digests.addWebhook(site, readBody(NEW_REPORT_WEBHOOK, request.body));
    reply.code(201).send(webhookView(hook));
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/digest-webhooks', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { webhooks: (await ctx.digests.webhooks(site)).map(webhookView) };
  });

  app.delete<{ Params: { siteId: string; webhookId: string } }>('/sites/:siteId/digest-webhooks/:webhookId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    await ctx.digests.deleteWebhook(site, idParam(request.params.webhookId));
    reply.code(204).send();
  });
}

/** Mails the report of `period` (weekly unless given) to `email` now, and answers what was sent. */
export async function sendReportNow(ctx: AppContext, site: Site, period: DigestKind | undefined, email: string, language: Language): Promise<SentReport> {
  if (site.status !== 'active') throw apiError('NOT_FOUND', 'site');
  const kind = period ?? 'weekly';
  const sent = await ctx.digests.sendNow(site, kind, email, language);
  return { siteId: site.id, period: kind, from: sent.period.from, to: sent.period.to, email, sentAt: sent.sentAt };
}

/**
 * POST /admin/v1/sites/:siteId/digests/send: the operator's alone (never mounted for dashboard
 * users), since it mails any address; it changes no subscription and is no scheduled send.
 */
export async function digestOperatorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/digests/send', async (request) => {
    const site = await siteFor(ctx, operatorAccess, request, request.params.siteId);
    const body = readBody(REPORT_MAILED, request.body);
    return sendReportNow(ctx, site, body.period, checkEmail(body.email), requestLanguage(request));
  });
}
