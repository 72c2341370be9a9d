// The statistics read API (/v1): routes only — authenticate, rate-limit, parse, plan, run, serialize.
// Every /v1 request is authenticated first, so 401 comes before 404 and 405.
// The same route code serves the dashboard's /app/v1 with another authentication step.
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Site } from '../../entities/sites.js';
import { apiError } from '../../core/errors.js';
import { isValidTimeZone } from '../../core/localtime.js';
import { requestPeriod, type QueryKind, type RawParams } from '../../core/query.js';
import { segmentedParams } from '../../segments/filters.js';
import { lockSharesGoals, RAW_DAYS } from '../../core/vocabulary.js';
import { responses, type OperationAnswer } from '../../core/answers.js';
import { COUNTED_SINCE_HEADER, CONVERSIONS_KEY, countedSinceHeader, funnelKey, goalKey, IMPORTED_HEADER, RAW_WINDOW_HEADER, rawWindowHeader } from '../../core/answer-headers.js';
import type { EventReader } from '../../storage/events/types.js';
import { sharingReads } from '../../stats/shared-reads.js';
import { fairReads, readingFor } from '../../stats/fair-reads.js';
import { FairShare } from '../../core/fair-share.js';
import { isLongRead } from '../../stats/planner.js';
import { answers, planRead, readSourceOf, type PlannedRead, type ReadSource } from '../../stats/entry.js';
import { computeRealtime } from '../../stats/read/realtime.js';
import { apiKeyFrom, keyRateLimit } from '../auth/api-key.js';
import type { RollupState } from '../../storage/meta/types.js';
import { PerKeySlots } from '../../core/per-key-slots.js';
import { ROUTES, type RouteDoc } from './schemas.js';
import { countedSince } from '../../stats/rollups/coverage.js';
import { querySite } from '../../stats/first-data-day.js';
import { openApiDocument } from '../openapi.js';

/** Long reads of one reader that wait for a slot (a dashboard reads about a dozen panels at once); one more is refused. */
const LONG_READS_WAITING = 32;

/** Every method Node's parser accepts, so that each one reaches the /v1 guard: the key is checked first, then 405 with `allow: GET`. */
const ALL_METHODS = METHODS as HTTPMethods[];

const sharedReaders = new WeakMap<AppContext, EventReader>();

/**
 * The event store as the read routes read it: every statement under the configured deadline, the
 * store's read slots shared fairly between organisations (src/stats/fair-reads.ts), identical
 * statements running at once run once (src/stats/shared-reads.ts), across the routes of both mounts.
 */
export function readerWithDeadline(ctx: AppContext): EventReader {
  let reader = sharedReaders.get(ctx);
  if (!reader) {
    const deadline = { deadlineMs: ctx.config.reads.statementTimeoutMs };
    reader = sharingReads(
      fairReads(
        {
          // The store's dialect as it is at each read (bench/stats-statements.ts switches it between series).
          get dialect() {
            return ctx.events.dialect;
          },
          query: (statement) => ctx.events.query(statement, deadline),
          queryPage: (statement) => ctx.events.queryPage(statement, deadline),
        },
        new FairShare(ctx.events.readSlots),
      ),
    );
    sharedReaders.set(ctx, reader);
  }
  return reader;
}

/** What the statistics reads of both mounts read: the event store under its deadline, a site's rollup bookkeeping and goals. */
export function readSource(ctx: AppContext): ReadSource {
  return readSourceOf(ctx.events, ctx.meta, readerWithDeadline(ctx));
}

/** Who reads: the organisations whose sites it sees. */
export interface Reader {
  /** Who reads, for per-reader limits: `key:<id>` or `user:<id>`. */
  id: string;
  orgIds: readonly number[];
  /** A signed-in member's user id: `segment=` also applies the member's personal segments. */
  userId?: number;
  /** A shared link's reader: its one site (public id), and the filters every read applies. */
  share?: { siteId: string; lockedFilters: readonly string[] };
}

/**
 * The operations a link locked to filters shares: the reads that take filters, and the chart's
 * annotations (notes, no figures). On the dashboard's mount, where goals take filters, a link not
 * locked to pages shares goals too (`lockSharesGoals`).
 */
const LOCK_SHARED_OPERATIONS: ReadonlySet<OperationId> = new Set(['stats', 'timeseries', 'breakdown', 'journeys', 'annotations']);

type OperationId = RouteDoc['operationId'];
/** Each operation's handler answers what its response schema declares. */
type Handlers = { [O in OperationId]: (request: FastifyRequest, reader: Reader) => Promise<OperationAnswer<O>> };

/** One mount of the statistics routes. */
export interface StatsMount {
  /** Replaces the routes' `/v1` (the read API's own mount keeps it). */
  prefix: string;
  /** The request's reader; throws 401 (before anything else is checked), then 429 over its rate limit. */
  authenticate(request: FastifyRequest): Promise<Reader>;
  operations: readonly OperationId[];
  /** Paths answered 404 after authentication (the read API's own unknown paths). */
  catchAll: readonly string[];
  /** Whether goals and funnel answers say from which day each is counted (the `Svc-Counted-Since` header: the dashboard's mount). */
  countedSince?: boolean;
  /** Whether a shared link's reader may use the routes (the dashboard's mount). */
  shareable?: boolean;
  /** Whether goals take `filter` and `raw=clip` (the dashboard's mount: its conversion rates under the view's filters). */
  filteredGoals?: boolean;
}

/**
 * The statistics routes of `mount`, answering the same bytes on every mount for the same site; a
 * mount that asks for it also says in a header from which day goals and funnel versions are counted.
 */
export async function statsRoutes(app: FastifyInstance, ctx: AppContext, mount: StatsMount): Promise<void> {
  // Fastify routes GET, HEAD, TRACE, DELETE, OPTIONS, PATCH, PUT and POST unless told of the others;
  // they carry no body the read API would read.
  for (const method of ALL_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  // Every read statement runs under the deadline; long raw reads are counted per reader before they start.
  const { longReadsPerReader } = ctx.config.reads;
  const source = readSource(ctx);
  const longReads = new PerKeySlots(longReadsPerReader, LONG_READS_WAITING);
  const sayOfFigures = (request: FastifyRequest, name: string, value: string) => {
    request.figureHeaders = { ...request.figureHeaders, [name]: value };
  };

  const guard = (knownRoute: boolean) => async (request: FastifyRequest) => {
    const reader = await mount.authenticate(request);
    if (!knownRoute) throw apiError('NOT_FOUND', 'unknownPath', { path: request.url.split('?')[0]! });
    if (request.method !== 'GET') {
      throw apiError('METHOD_NOT_ALLOWED', 'getOnly', { method: request.method }, { allow: 'GET' });
    }
    request.statsReader = reader;
  };

  /** An active site of the reader's organisations, else the same 404 for unknown, archived and foreign. */
  async function siteFor(request: FastifyRequest, reader: Reader): Promise<Site> {
    if (request.statsSite) return request.statsSite;
    const { siteId } = request.params as { siteId: string };
    const site = await ctx.meta.getSite(siteId);
    if (!site || site.status !== 'active' || !reader.orgIds.includes(site.orgId)) throw apiError('NOT_FOUND', 'site');
    if (reader.share && reader.share.siteId !== site.id) throw apiError('NOT_FOUND', 'site');
    request.statsSite = site;
    return site;
  }

  /** Keeps, on a mount that says it, the day each goal or funnel version (`goalKey`, `funnelKey`) of the answer is counted since, for its header. */
  function noteCountedSince(request: FastifyRequest, rollup: RollupState | undefined, keys: readonly string[]): void {
    if (!mount.countedSince) return;
    const header = countedSinceHeader(keys.map((key) => [key, countedSince(rollup, key)]));
    if (header) sayOfFigures(request, COUNTED_SINCE_HEADER, header);
  }

  /** The request planned (./src/stats/entry.ts), once the reader holds a slot where the plan is a long read. */
  async function planned(kind: QueryKind, request: FastifyRequest, site: Site): Promise<PlannedRead> {
    const reader = request.statsReader!;
    // The request's segment joins its filters here, before anything else reads them.
    const params = await segmentedParams(ctx.meta, site, request.query as RawParams, { userId: reader.userId });
    const extensions = { filteredGoals: mount.filteredGoals === true };
    const read = await planRead(source, { kind, params, site, now: ctx.clock.now(), lockedFilters: reader.share?.lockedFilters, extensions });
    sayOfFigures(request, IMPORTED_HEADER, read.q.plan.imported);
    if (read.q.plan.clippedFrom !== null) sayOfFigures(request, RAW_WINDOW_HEADER, rawWindowHeader(read.q.plan.clippedFrom));
    if (isLongRead(read.q.plan)) {
      const release = await longReads.take(reader.id);
      if (!release) throw apiError('RATE_LIMITED', 'longReads', { limit: longReadsPerReader, waiting: LONG_READS_WAITING, days: RAW_DAYS.default }, { 'retry-after': '1' });
      request.releaseLongRead = release;
    }
    return read;
  }

  const handlers: Handlers = {
    async sites(_request, reader) {
      const sites = (await Promise.all(reader.orgIds.map((orgId) => ctx.meta.listSites(orgId, { activeOnly: true })))).flat();
      return {
        sites: sites.map((s) => ({ id: s.id, domain: s.domain, name: s.name, timezone: s.timezone, retentionMonths: s.retentionMonths })),
      };
    },
    async stats(request, reader) {
      const read = await planned('stats', request, await siteFor(request, reader));
      // On every mount: only a raw=clip read (the dashboard's and the CLI's) counts conversions from a later day.
      if (read.q.plan.goalsSince !== null) sayOfFigures(request, COUNTED_SINCE_HEADER, countedSinceHeader([[CONVERSIONS_KEY, read.q.plan.goalsSince]])!);
      return answers.stats(source, read);
    },
    async timeseries(request, reader) {
      return answers.timeseries(source, await planned('timeseries', request, await siteFor(request, reader)));
    },
    async breakdown(request, reader) {
      return answers.breakdown(source, await planned('breakdown', request, await siteFor(request, reader)));
    },
    async segments(request, reader) {
      const site = await siteFor(request, reader);
      const shared = (await ctx.meta.listSegments(site.internalId)).filter((segment) => segment.shared);
      return { segments: shared.map(({ id, name, filters }) => ({ id, name, filters })) };
    },
    async annotations(request, reader) {
      const site = await siteFor(request, reader);
      const params = request.query as RawParams;
      const { period } = requestPeriod(params, await querySite(source.events, site, params), ctx.clock.now());
      return { period, annotations: await ctx.meta.listAnnotations(site.internalId, period) };
    },
    async journeys(request, reader) {
      return answers.journeys(source, await planned('journeys', request, await siteFor(request, reader)));
    },
    async realtime(request, reader) {
      const site = await siteFor(request, reader);
      if (!isValidTimeZone(site.timezone)) throw apiError('INVALID_TIMEZONE', 'site');
      return computeRealtime(source.events, site.id, site.timezone, ctx.clock.now());
    },
    async goals(request, reader) {
      const site = await siteFor(request, reader);
      const read = await planned('goals', request, site);
      const answer = await answers.goals(source, read);
      noteCountedSince(request, read.rollup, answer.goals.map((g) => goalKey(g.goalId)));
      return answer;
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
        throw apiError('INVALID_PARAMS', 'integer', { name: 'version' });
      }
      const read = await planned('funnel', request, site);
      const funnel = /^\d{1,9}$/.test(funnelId)
        ? // Any integer outside 1..current (however large) selects the current version (docs/api.md).
          await ctx.meta.getFunnel(site.internalId, Number(funnelId), version === undefined ? undefined : Number(version))
        : undefined;
      if (!funnel) throw apiError('NOT_FOUND', 'funnel');
      const answer = await answers.funnel(source, read, funnel);
      noteCountedSince(request, read.rollup, [funnelKey(funnel.id, funnel.version)]);
      return answer;
    },
  };

  await app.register(async (scope) => {
    scope.addHook('onSend', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Every planned read says what it did with imported aggregates (realtime never reads them).
      if (request.figureHeaders && reply.statusCode === 200) reply.headers(request.figureHeaders);
    });
    for (const route of ROUTES.filter((r) => mount.operations.includes(r.operationId))) {
      const handle: (request: FastifyRequest, reader: Reader) => Promise<unknown> = handlers[route.operationId];
      scope.route({
        method: ALL_METHODS,
        url: mount.prefix + route.path.slice('/v1'.length),
        exposeHeadRoute: false,
        schema: { response: { 200: responses[route.operationId] } },
        onRequest: guard(true),
        ...(mount.shareable ? { config: { shareable: true } } : {}),
        handler: async (request) => {
          const reader = request.statsReader!;
          if (reader.share && reader.share.lockedFilters.length > 0 && !LOCK_SHARED_OPERATIONS.has(route.operationId)) {
            const goalsUnderLock = route.operationId === 'goals' && mount.filteredGoals === true;
            if (!goalsUnderLock) throw apiError('FORBIDDEN', 'shareLocked', { endpoint: route.operationId });
            if (!lockSharesGoals(reader.share.lockedFilters)) throw apiError('FORBIDDEN', 'shareLockedPages');
          }
          // A statement cancelled at its deadline answers QUERY_TIMEOUT (src/http/storage-errors.ts).
          try {
            // A site's statements wait behind its own organisation's only (src/stats/fair-reads.ts).
            if (!route.path.includes(':siteId')) return await handle(request, reader);
            const site = await siteFor(request, reader);
            return await readingFor(site.orgId, () => handle(request, reader));
          } finally {
            request.releaseLongRead?.();
          }
        },
      });
    }
    for (const url of mount.catchAll) {
      scope.route({ method: ALL_METHODS, url, exposeHeadRoute: false, onRequest: guard(false), handler: async () => undefined });
    }
  });
}

/** The read API: every statistics route, authenticated by an API key, rate-limited per key. */
export async function v1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const counted = keyRateLimit(ctx);
  await statsRoutes(app, ctx, {
    prefix: '/v1',
    async authenticate(request) {
      const key = await apiKeyFrom(ctx, request.headers.authorization);
      await counted(key);
      return { id: `key:${key.id}`, orgIds: [key.orgId] };
    },
    operations: ROUTES.map((r) => r.operationId),
    catchAll: ['/v1', '/v1/*'],
  });
  // Serialized once: every answer sends the same bytes, where a document serialized per request
  // would be a copy per pipelined request waiting for its turn (docs/security.md, Connections).
  const document = Buffer.from(JSON.stringify(openApiDocument()));
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
}
