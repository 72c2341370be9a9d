// The statistics read API (/v1): routes only — authenticate, rate-limit, parse, plan, run, serialize.
// Every /v1 request is authenticated first, so 401 comes before 404 and 405.
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import type { ApiKeyRecord, Site } from '../../storage/meta/types.js';
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
import { MemorySlidingWindow } from '../../storage/counters/rate-limiter.js';
import { ROUTES, responses, type RouteDoc } from './schemas.js';
import { openApiDocument } from '../openapi.js';

/** Every method Node's parser accepts, so that each one reaches the /v1 guard: the key is checked first, then 405 with `allow: GET`. */
const ALL_METHODS = METHODS as HTTPMethods[];

function periodOut(q: Query) {
  return { from: q.period.from, to: q.period.to, grain: q.grain, tz: q.tz };
}

type Handler = (request: FastifyRequest, key: ApiKeyRecord) => Promise<unknown>;

export async function v1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Fastify routes GET, HEAD, TRACE, DELETE, OPTIONS, PATCH, PUT and POST unless told of the others;
  // they carry no body the read API would read.
  for (const method of ALL_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  const limiter = new MemorySlidingWindow(ctx.config.apiRateLimit.count, ctx.config.apiRateLimit.windowMs);
  const perHour = Math.round((ctx.config.apiRateLimit.count * 3_600_000) / ctx.config.apiRateLimit.windowMs);
  const keys = new WeakMap<FastifyRequest, ApiKeyRecord>();

  const guard = (knownRoute: boolean) => async (request: FastifyRequest) => {
    const key = await apiKeyFrom(ctx, request.headers.authorization);
    if (!limiter.hit(String(key.id), ctx.clock.now())) {
      throw new ApiError('RATE_LIMITED', `rate limit exceeded (${perHour} requests/hour per key)`, { 'retry-after': '60' });
    }
    if (!knownRoute) throw notFound(`no route ${request.url.split('?')[0]}`);
    if (request.method !== 'GET') {
      throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed; use GET`, { allow: 'GET' });
    }
    keys.set(request, key);
  };

  /** The key's organisation's active site, else the same 404 for unknown, archived and foreign. */
  async function siteFor(request: FastifyRequest, key: ApiKeyRecord): Promise<Site> {
    const { siteId } = request.params as { siteId: string };
    const site = await ctx.meta.getSite(siteId);
    if (!site || site.status !== 'active' || site.orgId !== key.orgId) throw notFound('site not found');
    return site;
  }

  async function planned(kind: QueryKind, request: FastifyRequest, site: Site): Promise<Query> {
    const q = parseQuery(kind, request.query as RawParams, site, ctx.clock.now());
    return planQuery(q, await planInputs(ctx, site, q));
  }

  const handlers: Record<RouteDoc['operationId'], Handler> = {
    async sites(_request, key) {
      const sites = await ctx.meta.listSites(key.orgId, { activeOnly: true });
      return {
        sites: sites.map((s) => ({ id: s.id, domain: s.domain, name: s.name, timezone: s.timezone, retentionMonths: s.retentionMonths })),
      };
    },
    async stats(request, key) {
      const site = await siteFor(request, key);
      const q = await planned('stats', request, site);
      return { period: periodOut(q), stats: await computeStats(ctx.events, q, await ctx.meta.listGoals(site.internalId)) };
    },
    async timeseries(request, key) {
      const site = await siteFor(request, key);
      const q = await planned('timeseries', request, site);
      const { points, prev } = await computeTimeseries(ctx.events, q, await ctx.meta.listGoals(site.internalId));
      return { period: periodOut(q), grain: q.grain, tz: q.tz, points, ...(prev ? { prev } : {}) };
    },
    async breakdown(request, key) {
      const site = await siteFor(request, key);
      const q = await planned('breakdown', request, site);
      return { period: periodOut(q), dimension: q.breakdown!.dimension, ...(await computeBreakdown(ctx.events, q)) };
    },
    async realtime(request, key) {
      const site = await siteFor(request, key);
      if (!isValidTimeZone(site.timezone)) throw new ApiError('INVALID_TIMEZONE', 'the site has an invalid time zone');
      return computeRealtime(ctx.events, site.id, site.timezone, ctx.clock.now());
    },
    async goals(request, key) {
      const site = await siteFor(request, key);
      const q = await planned('goals', request, site);
      const goals = await computeGoals(ctx.events, q, await ctx.meta.listGoals(site.internalId));
      return { period: { from: q.period.from, to: q.period.to }, goals };
    },
    async funnels(request, key) {
      const site = await siteFor(request, key);
      return { funnels: await ctx.meta.listFunnels(site.internalId) };
    },
    async funnel(request, key) {
      const site = await siteFor(request, key);
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
    for (const route of ROUTES) {
      const handle = handlers[route.operationId];
      scope.route({
        method: ALL_METHODS,
        url: route.path,
        exposeHeadRoute: false,
        schema: { response: { 200: responses[route.operationId] } },
        onRequest: guard(true),
        handler: (request) => handle(request, keys.get(request)!),
      });
    }
    for (const url of ['/v1', '/v1/*']) {
      scope.route({ method: ALL_METHODS, url, exposeHeadRoute: false, onRequest: guard(false), handler: async () => undefined });
    }
  });

  const document = openApiDocument();
  app.get('/openapi.json', async () => document);
}
