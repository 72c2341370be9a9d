// The statistics read API (/v1): routes only — authenticate, rate-limit, parse, plan, run, serialize.
// Every /v1 request is authenticated first, so 401 comes before 404 and 405.
// The same route code serves the dashboard's /app/v1 with another authentication step.
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Site } from '../../storage/meta/types.js';
import { ApiError, invalidParams, notFound } from '../../core/errors.js';
import { isValidTimeZone } from '../../core/localtime.js';
import { parseQuery, type Query, type QueryKind, type RawParams } from '../../core/query.js';
import { planQuery } from '../../stats/planner.js';
import {
  computeBreakdown,
  computeFunnel,
  computeGoals,
  computeRealtime,
  computeStats,
  computeTimeseries,
} from '../../stats/engine.js';
import { planInputs } from '../../stats/rollups/plan-inputs.js';
import { apiKeyFrom } from './auth.js';
import { ROUTES, responses, type RouteDoc } from './schemas.js';
import { openApiDocument } from '../openapi.js';

/** Every method Node's parser accepts, so that each one reaches the /v1 guard: the key is checked first, then 405 with `allow: GET`. */
const ALL_METHODS = METHODS as HTTPMethods[];

function periodOut(q: Query) {
  return { from: q.period.from, to: q.period.to, grain: q.grain, tz: q.tz };
}

/** Who reads: the organisations whose sites it sees. */
export interface Reader {
  orgIds: readonly number[];
}

type OperationId = RouteDoc['operationId'];
type Handler = (request: FastifyRequest, reader: Reader) => Promise<unknown>;

/** One mount of the statistics routes. */
export interface StatsMount {
  /** Replaces the routes' `/v1` (the read API's own mount keeps it). */
  prefix: string;
  /** The request's reader; throws 401 (before anything else is checked), then 429 over its rate limit. */
  authenticate(request: FastifyRequest): Promise<Reader>;
  operations: readonly OperationId[];
  /** Paths answered 404 after authentication (the read API's own unknown paths). */
  catchAll: readonly string[];
}

/** The statistics routes of `mount`, answering the same bytes on every mount for the same site. */
export async function statsRoutes(app: FastifyInstance, ctx: AppContext, mount: StatsMount): Promise<void> {
  // Fastify routes GET, HEAD, TRACE, DELETE, OPTIONS, PATCH, PUT and POST unless told of the others;
  // they carry no body the read API would read.
  for (const method of ALL_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  const readers = new WeakMap<FastifyRequest, Reader>();

  const guard = (knownRoute: boolean) => async (request: FastifyRequest) => {
    const reader = await mount.authenticate(request);
    if (!knownRoute) throw notFound(`no route ${request.url.split('?')[0]}`);
    if (request.method !== 'GET') {
      throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed; use GET`, { allow: 'GET' });
    }
    readers.set(request, reader);
  };

  /** An active site of the reader's organisations, else the same 404 for unknown, archived and foreign. */
  async function siteFor(request: FastifyRequest, reader: Reader): Promise<Site> {
    const { siteId } = request.params as { siteId: string };
    const site = await ctx.meta.getSite(siteId);
    if (!site || site.status !== 'active' || !reader.orgIds.includes(site.orgId)) throw notFound('site not found');
    return site;
  }

  async function planned(kind: QueryKind, request: FastifyRequest, site: Site): Promise<Query> {
    const q = parseQuery(kind, request.query as RawParams, site, ctx.clock.now());
    return planQuery(q, await planInputs(ctx, site, q));
  }

  const handlers: Record<OperationId, Handler> = {
    async sites(_request, reader) {
      const sites = (await Promise.all(reader.orgIds.map((orgId) => ctx.meta.listSites(orgId, { activeOnly: true })))).flat();
      return {
        sites: sites.map((s) => ({ id: s.id, domain: s.domain, name: s.name, timezone: s.timezone, retentionMonths: s.retentionMonths })),
      };
    },
    async stats(request, reader) {
      const site = await siteFor(request, reader);
      const q = await planned('stats', request, site);
      return { period: periodOut(q), stats: await computeStats(ctx.events, q, await ctx.meta.listGoals(site.internalId)) };
    },
    async timeseries(request, reader) {
      const site = await siteFor(request, reader);
      const q = await planned('timeseries', request, site);
      const { points, prev } = await computeTimeseries(ctx.events, q, await ctx.meta.listGoals(site.internalId));
      return { period: periodOut(q), grain: q.grain, tz: q.tz, points, ...(prev ? { prev } : {}) };
    },
    async breakdown(request, reader) {
      const site = await siteFor(request, reader);
      const q = await planned('breakdown', request, site);
      return { period: periodOut(q), dimension: q.breakdown!.dimension, ...(await computeBreakdown(ctx.events, q)) };
    },
    async realtime(request, reader) {
      const site = await siteFor(request, reader);
      if (!isValidTimeZone(site.timezone)) throw new ApiError('INVALID_TIMEZONE', 'the site has an invalid time zone');
      return computeRealtime(ctx.events, site.id, site.timezone, ctx.clock.now());
    },
    async goals(request, reader) {
      const site = await siteFor(request, reader);
      const q = await planned('goals', request, site);
      const goals = await computeGoals(ctx.events, q, await ctx.meta.listGoals(site.internalId));
      return { period: { from: q.period.from, to: q.period.to }, goals };
    },
    async funnels(request, reader) {
      const site = await siteFor(request, reader);
      return { funnels: await ctx.meta.listFunnels(site.internalId) };
    },
    async funnel(request, reader) {
      const site = await siteFor(request, reader);
      const { funnelId } = request.params as { funnelId: string };
      const version = (request.query as RawParams).version;
      if (version !== undefined && (typeof version !== 'string' || !/^-?\d+$/.test(version))) {
        throw invalidParams('version must be an integer');
      }
      const q = await planned('funnel', request, site);
      const funnel = /^\d{1,9}$/.test(funnelId)
        ? // Any integer outside 1..current (however large) selects the current version (docs/api.md).
          await ctx.meta.getFunnel(site.internalId, Number(funnelId), version === undefined ? undefined : Number(version))
        : undefined;
      if (!funnel) throw notFound('funnel not found');
      const reading = await computeFunnel(ctx.events, q, funnel);
      return {
        period: { from: q.period.from, to: q.period.to },
        funnel: { id: funnel.id, name: funnel.name, version: funnel.version, windowMinutes: funnel.windowMinutes },
        ...reading,
      };
    },
  };

  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    for (const route of ROUTES.filter((r) => mount.operations.includes(r.operationId))) {
      const handle = handlers[route.operationId];
      scope.route({
        method: ALL_METHODS,
        url: mount.prefix + route.path.slice('/v1'.length),
        exposeHeadRoute: false,
        schema: { response: { 200: responses[route.operationId] } },
        onRequest: guard(true),
        handler: (request) => handle(request, readers.get(request)!),
      });
    }
    for (const url of mount.catchAll) {
      scope.route({ method: ALL_METHODS, url, exposeHeadRoute: false, onRequest: guard(false), handler: async () => undefined });
    }
  });
}

/** The read API: every statistics route, authenticated by an API key, rate-limited per key. */
export async function v1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limit = ctx.config.apiRateLimit;
  const limiter = ctx.counters.rateLimiter('api', limit.count, limit.windowMs);
  const perHour = Math.round((limit.count * 3_600_000) / limit.windowMs);
  await statsRoutes(app, ctx, {
    prefix: '/v1',
    async authenticate(request) {
      const key = await apiKeyFrom(ctx, request.headers.authorization);
      if (!(await limiter.hit(String(key.id), ctx.clock.now()))) {
        throw new ApiError('RATE_LIMITED', `rate limit exceeded (${perHour} requests/hour per key)`, { 'retry-after': '60' });
      }
      return { orgIds: [key.orgId] };
    },
    operations: ROUTES.map((r) => r.operationId),
    catchAll: ['/v1', '/v1/*'],
  });
  const document = openApiDocument();
  app.get('/openapi.json', async () => document);
}
