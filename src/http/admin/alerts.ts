// Alert rules and their webhook history (docs/admin-api.md, "Alert rules"). Validation of the rule itself lives in AlertService, shared with the CLI.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { idParam, objectBody } from '../validate.js';

const RULE_FIELDS = ['type', 'threshold', 'url', 'secret', 'goalId', 'emails'];

export async function alertRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/alerts', async (request, reply) => {
    const rule = await ctx.alerts.createRule(request.params.siteId, objectBody(request.body, RULE_FIELDS));
    reply.code(201).send(rule);
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/alerts', async (request) => ({
    alerts: await ctx.alerts.listRules(request.params.siteId),
  }));

  app.patch<{ Params: { ruleId: string } }>('/alerts/:ruleId', async (request) =>
    ctx.alerts.updateRule(idParam(request.params.ruleId), objectBody(request.body, RULE_FIELDS)),
  );

  app.delete<{ Params: { ruleId: string } }>('/alerts/:ruleId', async (request, reply) => {
    await ctx.alerts.deleteRule(idParam(request.params.ruleId));
    reply.code(204).send();
  });

  app.post<{ Params: { ruleId: string } }>('/alerts/:ruleId/test', async (request, reply) => {
    objectBody(request.body, []);
    reply.code(202).send(await ctx.alerts.sendTest(idParam(request.params.ruleId)));
  });

  app.get<{ Params: { ruleId: string } }>('/alerts/:ruleId/history', async (request) => ({
    deliveries: await ctx.alerts.history(idParam(request.params.ruleId)),
  }));
}
