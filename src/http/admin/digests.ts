// A site's reports (docs/accounts.md#email-reports), for its admins and owners and the operator: the
// state of its reports (mail configured, the last sent, the last error) and the webhooks that receive
// them (never answered with their secrets).
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import type { ManagedReportWebhook } from '../../core/management.js';
import type { DigestWebhook } from '../../storage/meta/digest-types.js';
import { idParam, objectBody, requiredString } from '../validate.js';
import { siteFor } from './org-routes.js';

const webhookView = (hook: DigestWebhook): ManagedReportWebhook => ({ id: hook.id, url: hook.url, weekly: hook.weekly, monthly: hook.monthly, createdAt: hook.createdAt });

export async function digestAdminRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.get<{ Params: { siteId: string } }>('/sites/:siteId/digests', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { configured: ctx.digests.configured, ...(await ctx.digests.status(site)) };
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/digest-webhooks', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = objectBody(request.body, ['url', 'secret', 'weekly', 'monthly']);
    const secret = requiredString(body, 'secret', 256);
    for (const name of ['weekly', 'monthly'] as const) {
      if (typeof body[name] !== 'boolean') throw apiError('INVALID_PARAMS', 'boolean', { name });
    }
    const hook = await ctx.digests.addWebhook(site, { url: body.url, secret, weekly: body.weekly as boolean, monthly: body.monthly as boolean });
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
