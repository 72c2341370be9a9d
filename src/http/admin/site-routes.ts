// Per-site configuration (goals, funnels), event import and maintenance (docs/admin-api.md).
import type { FastifyInstance } from 'fastify';
import { invalidParams, notFound } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { EVENT_NAME } from '../../ingest/event-shape.js';
import type { FunnelStep, MatchKind, Site } from '../../storage/meta/types.js';
import { idParam, objectBody, oneOf, requiredInt, requiredString, type Body } from '../validate.js';

const KINDS = ['page', 'event'] as const;
const MAX_FUNNEL_WINDOW_MINUTES = 30 * 24 * 60;

/** A goal or funnel-step pattern: a path pattern (`*`, `**` wildcards) or an event name. */
function matchPattern(kind: MatchKind, pattern: string, field: string): string {
  if (kind === 'page' && !pattern.startsWith('/')) throw invalidParams(`${field}: a page pattern starts with / (wildcards * and **)`);
  if (kind === 'event' && !EVENT_NAME.test(pattern)) throw invalidParams(`${field}: an event pattern is an event name matching ${EVENT_NAME}`);
  return pattern;
}

function funnelSteps(body: Body): FunnelStep[] {
  const steps = body.steps;
  if (!Array.isArray(steps) || steps.length < 2 || steps.length > 8) throw invalidParams('steps must be an array of 2 to 8 steps');
  return steps.map((raw, i) => {
    const step = objectBody(raw, ['kind', 'pattern']);
    const kind = oneOf(step, 'kind', KINDS);
    return { kind, pattern: matchPattern(kind, requiredString(step, 'pattern', 512), `steps[${i}].pattern`) };
  });
}

/** The site of a path's `:siteId` (its public id), or 404. */
export async function findSite(ctx: AppContext, publicId: string): Promise<Site> {
  const site = await ctx.meta.getSite(publicId);
  if (!site) throw notFound('site not found');
  return site;
}

// Goal and funnel changes refresh the site's rollups before answering, so that the read API counts
// a new definition over the days still backed by raw events right away.
export async function siteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const siteOf = (publicId: string): Promise<Site> => findSite(ctx, publicId);

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request, reply) => {
    const site = await siteOf(request.params.siteId);
    const body = objectBody(request.body, ['name', 'kind', 'pattern']);
    const kind = oneOf(body, 'kind', KINDS);
    const goal = await ctx.meta.createGoal(
      site.internalId,
      { name: requiredString(body, 'name'), kind, pattern: matchPattern(kind, requiredString(body, 'pattern', 512), 'pattern') },
      ctx.clock.now(),
    );
    await ctx.rollups.refresh(site);
    reply.code(201).send({ goalId: goal.goalId, name: goal.name, kind: goal.kind, pattern: goal.pattern });
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/goals', async (request) => {
    const site = await siteOf(request.params.siteId);
    const goals = await ctx.meta.listGoals(site.internalId);
    return { goals: goals.map((g) => ({ goalId: g.goalId, name: g.name, kind: g.kind, pattern: g.pattern })) };
  });

  app.delete<{ Params: { siteId: string; goalId: string } }>('/sites/:siteId/goals/:goalId', async (request, reply) => {
    const site = await siteOf(request.params.siteId);
    if (!(await ctx.meta.deleteGoal(site.internalId, idParam(request.params.goalId)))) throw notFound('goal not found');
    await ctx.rollups.refresh(site);
    reply.code(204).send();
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/funnels', async (request, reply) => {
    const site = await siteOf(request.params.siteId);
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
    const site = await siteOf(request.params.siteId);
    const body = objectBody(request.body, ['steps']);
    const funnel = await ctx.meta.replaceFunnelSteps(site.internalId, idParam(request.params.funnelId), funnelSteps(body), ctx.clock.now());
    if (!funnel) throw notFound('funnel not found');
    await ctx.rollups.refresh(site);
    return funnel;
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/funnels', async (request) => {
    const site = await siteOf(request.params.siteId);
    const funnels = [];
    for (const f of await ctx.meta.listFunnels(site.internalId)) {
      const current = await ctx.meta.getFunnel(site.internalId, f.id);
      if (current) funnels.push({ id: f.id, name: f.name, windowMinutes: f.windowMinutes, version: f.version, createdAt: f.createdAt, steps: current.steps });
    }
    return { funnels };
  });

  app.get<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId', async (request) => {
    const site = await siteOf(request.params.siteId);
    const funnel = await ctx.meta.funnelHistory(site.internalId, idParam(request.params.funnelId));
    if (!funnel) throw notFound('funnel not found');
    return funnel;
  });

  // A deleted funnel is gone with every version: the read API no longer lists or reads it.
  app.delete<{ Params: { siteId: string; funnelId: string } }>('/sites/:siteId/funnels/:funnelId', async (request, reply) => {
    const site = await siteOf(request.params.siteId);
    if (!(await ctx.meta.deleteFunnel(site.internalId, idParam(request.params.funnelId)))) throw notFound('funnel not found');
    await ctx.rollups.refresh(site);
    reply.code(204).send();
  });

  // NDJSON streamed from the request, validated and (while in time order) enriched line by line as
  // it arrives; the body is also kept (up to MAX_SORT_BYTES) in case its lines must be sorted. Once
  // the token is checked (parsers run after it), the body is timed by the client's pace only: the
  // time spent waiting for its bytes, summed, up to the request timeout.
  app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (request, payload, done) => {
      done(null, scoped.connections.clientPacedBody(request.raw, payload as AsyncIterable<Buffer>));
    });
    scoped.post<{ Params: { siteId: string } }>('/sites/:siteId/events/import', async (request) => {
      const site = await siteOf(request.params.siteId);
      const stream = (request.body ?? request.raw) as AsyncIterable<Buffer>;
      return ctx.ingest.importLines(site, stream);
    });
  });

  app.post('/maintenance/run', async (request) => {
    const body = objectBody(request.body, ['tasks']);
    const known = ctx.maintenance.names();
    let tasks: string[] | undefined;
    if (body.tasks !== undefined) {
      if (!Array.isArray(body.tasks) || body.tasks.some((t) => typeof t !== 'string' || !known.includes(t))) {
        throw invalidParams(`tasks must be an array of: ${known.join(', ')}`);
      }
      tasks = body.tasks as string[];
    }
    return { ran: await ctx.maintenance.run(ctx.clock.now(), tasks) };
  });
}
