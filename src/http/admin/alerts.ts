// Alert rules and their webhook history (docs/admin-api.md, and docs/webhooks.md), for the operator and, through OrgAccess, for the site's organisation's admins
// and owners. Validation of the rule itself lives in AlertService, shared with the CLI.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import type { AppContext } from '../../context.js';
import { ALERT_RULE_CHANGE, NEW_ALERT_RULE, NO_BODY } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { siteFor } from './org-routes.js';
import { testSendLimit } from '../test-sends.js';

export async function alertRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  /** A rule's id from the path and its organisation, once the request may act on that organisation as admin. */
  const ruleAndOrg = async (request: FastifyRequest, param: string): Promise<{ ruleId: number; orgId: number }> => {
    const ruleId = idParam(param);
    const orgId = await ctx.alerts.orgOfRule(ruleId);
    await access.require(request, orgId, 'admin', 'alertRule');
    return { ruleId, orgId };
  };
  const ruleFor = async (request: FastifyRequest, param: string): Promise<number> => (await ruleAndOrg(request, param)).ruleId;

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/alerts', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const rule = await ctx.alerts.createRule(site.id, readBody(NEW_ALERT_RULE, request.body));
    reply.code(201).send(rule);
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/alerts', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { alerts: await ctx.alerts.listRules(site.id) };
  });

  app.patch<{ Params: { ruleId: string } }>('/alerts/:ruleId', async (request) =>
    ctx.alerts.updateRule(await ruleFor(request, request.params.ruleId), readBody(ALERT_RULE_CHANGE, request.body)),
  );

  app.delete<{ Params: { ruleId: string } }>('/alerts/:ruleId', async (request, reply) => {
    await ctx.alerts.deleteRule(await ruleFor(request, request.params.ruleId));
    reply.code(204).send();
  });

  const alertTests = testSendLimit(ctx, 'alertTests');
  app.post<{ Params: { ruleId: string } }>('/alerts/:ruleId/test', async (request, reply) => {
    readBody(NO_BODY, request.body);
    const { ruleId, orgId } = await ruleAndOrg(request, request.params.ruleId);
    await alertTests(orgId, await access.actingUserId(request));
    reply.code(202).send(await ctx.alerts.sendTest(ruleId));
  });

  app.get<{ Params: { ruleId: string } }>('/alerts/:ruleId/history', async (request) => ({
    deliveries: await ctx.alerts.history(await ruleFor(request, request.params.ruleId)),
  }));
}
