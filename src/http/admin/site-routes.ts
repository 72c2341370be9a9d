// A site's goals and funnels (docs/admin-api.md), for the operator and, through OrgAccess, for the site's
// organisation's admins and owners (/app/v1/manage).
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import { pagePatternProblem } from '../../core/patterns.js';
import { pagePatternError } from '../../core/query.js';
import type { AppContext } from '../../context.js';
import { EVENT_NAME } from '../../ingest/event-shape.js';
import { CURRENCY_CODE, GOAL_PROPS, PROPERTY_KEY_LENGTH, type FunnelStep, type GoalProps, type MatchKind } from '../../core/vocabulary.js';
import type { ManagedGoal } from '../../core/management.js';
import { goalPropsField, type Goal } from '../../entities/goals.js';
import { FUNNEL_STEPS_CHANGE, NEW_FUNNEL, NEW_GOAL } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { siteFor } from './org-routes.js';

/** A goal or funnel-step pattern: a path pattern (`*`, `**` wildcards) or an event name. */
function matchPattern(kind: MatchKind, pattern: string, field: string): string {
  const problem = kind === 'page' ? pagePatternProblem(pattern) : null;
  if (problem) throw pagePatternError(problem, field);
  if (kind === 'event' && !EVENT_NAME.test(pattern)) throw apiError('INVALID_PARAMS', 'eventPattern', { field, pattern: String(EVENT_NAME) });
  return pattern;
}

/** An event goal's required property values (`props`): null when absent or empty. */
function goalProps(raw: unknown, kind: MatchKind): GoalProps | null {
  if (raw === undefined || raw === null) return null;
  if (kind !== 'event') throw apiError('INVALID_PARAMS', 'goalPropsKind');
  const refused = () => apiError('INVALID_PARAMS', 'goalProps', { maxKeys: GOAL_PROPS.maxKeys, ...PROPERTY_KEY_LENGTH, maxValue: GOAL_PROPS.maxValueLength });
  if (typeof raw !== 'object' || Array.isArray(raw)) throw refused();
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > GOAL_PROPS.maxKeys) throw refused();
  for (const [key, value] of entries) {
    if (key.length < PROPERTY_KEY_LENGTH.min || key.length > PROPERTY_KEY_LENGTH.max) throw refused();
    if (typeof value !== 'string' || value.length > GOAL_PROPS.maxValueLength) throw refused();
  }
  return entries.length === 0 ? null : Object.fromEntries(entries as Array<[string, string]>);
}

/** A revenue goal's currency (`currency`: three capital letters, event goals only), null without one. */
function goalCurrency(currency: unknown, kind: MatchKind): string | null {
  if (currency === undefined || currency === null) return null;
  if (typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) throw apiError('INVALID_PARAMS', 'goalCurrency', { field: 'currency' });
  if (kind !== 'event') throw apiError('INVALID_PARAMS', 'revenueGoalKind', { field: 'currency' });
  return currency;
}

/** A goal as the management API answers it: `props` only on goals requiring property values, `currency` only on revenue goals. */
function managedGoal(g: Goal): ManagedGoal {
  const out: ManagedGoal = { goalId: g.goalId, name: g.name, kind: g.kind, pattern: g.pattern, ...goalPropsField(g.props) };
  if (g.currency !== null) out.currency = g.currency;
  return out;
}

/** A funnel's steps, each pattern checked for its kind. */
const funnelSteps = (steps: readonly FunnelStep[]): FunnelStep[] => steps.map((step, i) => ({ kind: step.kind, pattern: matchPattern(step.kind, step.pattern, `steps[${i}].pattern`) }));

// A new goal or funnel version is counted over the days still backed by raw events by the rollup
// job (the worker's backfill, src/stats/rollups/backfill.ts), not by the admin call.
export async function siteRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const { name, kind, pattern, props, currency } = readBody(NEW_GOAL, request.body);
    const goal = await ctx.meta.createGoal(
      site.internalId,
      { name, kind, pattern: matchPattern(kind, pattern, 'pattern'), props: goalProps(props, kind), currency: goalCurrency(currency, kind) },
      ctx.clock.now(),
    );
    reply.code(201).send(managedGoal(goal));
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const goals = await ctx.meta.listGoals(site.internalId);
    return { goals: goals.map(managedGoal) };
  });

  app.delete<{ Params: { siteId: string; goalId: string } }>('/sites/:siteId/goals/:goalId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    if (!(await ctx.meta.deleteGoal(site.internalId, idParam(request.params.goalId)))) throw apiError('NOT_FOUND', 'goal');
    reply.code(204).send();
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/funnels', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = readBody(NEW_FUNNEL, request.body);
    const funnel = await ctx.meta.createFunnel(
      site.internalId,
      { name: body.name, windowMinutes: body.windowMinutes, steps: funnelSteps(body.steps) },
      ctx.clock.now(),
    );
    reply.code(201).send(funnel);
  });

  app.put<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId/steps', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const { steps } = readBody(FUNNEL_STEPS_CHANGE, request.body);
    const funnel = await ctx.meta.replaceFunnelSteps(site.internalId, idParam(request.params.funnelId), funnelSteps(steps), ctx.clock.now());
    if (!funnel) throw apiError('NOT_FOUND', 'funnel');
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
    if (!funnel) throw apiError('NOT_FOUND', 'funnel');
    return funnel;
  });

  // A deleted funnel is gone with every version: the read API no longer lists or reads it.
  app.delete<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    if (!(await ctx.meta.deleteFunnel(site.internalId, idParam(request.params.funnelId)))) throw apiError('NOT_FOUND', 'funnel');
    reply.code(204).send();
  });
}
