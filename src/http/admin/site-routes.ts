// A site's goals and funnels (docs/admin-api.md), for the operator and, through OrgAccess, for the site's
// organisation's admins and owners (/app/v1/manage).
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../../accounts/authorization.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { PAGE_PATTERN_LIMITS, pagePatternProblem } from '../../core/patterns.js';
import type { AppContext } from '../../context.js';
import { EVENT_NAME } from '../../ingest/event-shape.js';
import type { FunnelStep, MatchKind } from '../../storage/meta/types.js';
import { idParam, objectBody, oneOf, requiredInt, requiredString, type Body } from '../validate.js';
import { siteFor } from './org-routes.js';

const KINDS = ['page', 'event'] as const;
const MAX_FUNNEL_WINDOW_MINUTES = 30 * 24 * 60;

/** A goal or funnel-step pattern: a path pattern (`*`, `**` wildcards) or an event name. */
function matchPattern(kind: MatchKind, pattern: string, field: string): string {
  const problem = kind === 'page' ? pagePatternProblem(pattern) : null;
  if (problem) throw invalidParams(`${field}: ${problem}`);
  if (kind === 'event' && !EVENT_NAME.test(pattern)) throw invalidParams(`${field}: an event pattern is an event name matching ${EVENT_NAME}`);
  return pattern;
}

function funnelSteps(body: Body): FunnelStep[] {
  const steps = body.steps;
  if (!Array.isArray(steps) || steps.length < 2 || steps.length > 8) throw invalidParams('steps must be an array of 2 to 8 steps');
  return steps.map((raw, i) => {
    const step = objectBody(raw, ['kind', 'pattern']);
    const kind = oneOf(step, 'kind', KINDS);
    return { kind, pattern: matchPattern(kind, requiredString(step, 'pattern', PAGE_PATTERN_LIMITS.maxLength), `steps[${i}].pattern`) };
  });
}

// Goal and funnel changes refresh the site's rollups before answering, so that the read API counts
// a new definition over the days still backed by raw events right away.
export async function siteRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = objectBody(request.body, ['name', 'kind', 'pattern']);
    const kind = oneOf(body, 'kind', KINDS);
    const goal = await ctx.meta.createGoal(
      site.internalId,
      { name: requiredString(body, 'name'), kind, pattern: matchPattern(kind, requiredString(body, 'pattern', PAGE_PATTERN_LIMITS.maxLength), 'pattern') },
      ctx.clock.now(),
    );
    await ctx.rollups.refresh(site);
    reply.code(201).send({ goalId: goal.goalId, name: goal.name, kind: goal.kind, pattern: goal.pattern });
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const goals = await ctx.meta.listGoals(site.internalId);
    return { goals: goals.map((g) => ({ goalId: g.goalId, name: g.name, kind: g.kind, pattern: g.pattern })) };
  });

  app.delete<{ Params: { siteId: string; goalId: string } }>('/sites/:siteId/goals/:goalId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    if (!(await ctx.meta.deleteGoal(site.internalId, idParam(request.params.goalId)))) throw notFound('goal not found');
    await ctx.rollups.refresh(site);
    reply.code(204).send();
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/funnels', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = objectBody(request.body, ['name', 'windowMinutes', 'steps']);
    const funnel = await ctx.meta.createFunnel(
      site.internalId,
      { name: requiredString(body, 'name'), windowMinutes: requiredInt(body, 'windowMinutes', 1, MAX_FUNNEL_WINDOW_MINUTES), steps: funnelSteps(body) },
      ctx.clock.now(),
    );
    await ctx.rollups.refresh(site);
    reply.code(201).send(funnel);
  });

  app.put<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId/steps', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = objectBody(request.body, ['steps']);
    const funnel = await ctx.meta.replaceFunnelSteps(site.internalId, idParam(request.params.funnelId), funnelSteps(body), ctx.clock.now());
    if (!funnel) throw notFound('funnel not found');
    await ctx.rollups.refresh(site);
    return funnel;
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/funnels', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const funnels = [];
    for (const f of await ctx.meta.listFunnels(site.internalId)) {
      const current = await ctx.meta.getFunnel(site.internalId, f.id);
      if (current) funnels.push({ id: f.id, name: f.name, windowMinutes: f.windowMinutes, version: f.version, createdAt: f.createdAt, steps: current.steps });
    }
    return { funnels };
  });

  app.get<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const funnel = await ctx.meta.funnelHistory(site.internalId, idParam(request.params.funnelId));
    if (!funnel) throw notFound('funnel not found');
    return funnel;
  });

  // A deleted funnel is gone with every version: the read API no longer lists or reads it.
  app.delete<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    if (!(await ctx.meta.deleteFunnel(site.internalId, idParam(request.params.funnelId)))) throw notFound('funnel not found');
    await ctx.rollups.refresh(site);
    reply.code(204).send();
  });
}
