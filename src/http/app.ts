// The HTTP application: one Fastify instance serving /healthz and /metrics, and the routes of the
// process's roles (SVC_ROLE): collect's /api/e and /js/t.js; api's /v1, /openapi.json, /admin/v1,
// /app/v1 and the dashboard. A route of a role the process does not run is unknown to it: 404 NOT_FOUND.
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { ownOrigin, sessionUser } from './auth/session-cookie.js';
import { runsRole, type Config } from '../config.js';
import type { AppContext } from '../context.js';
import { ApiError, apiError, envelope } from '../core/errors.js';
import { adminRoutes } from './admin/index.js';
import { appRoutes } from './app-v1/index.js';
import { collectFastPath, collectRoutes } from './collect.js';
import { Connections, MAX_QUEUED_ANSWERS } from './connections.js';
import { dashboardRoutes } from './dashboard/index.js';
import { singleSignOnRoutes } from './dashboard/single-sign-on.js';
import { unsubscribeRoutes } from './unsubscribe.js';
import { emailConfirmationRoutes } from './email-confirmation.js';
import { clientErrorHandler, installErrorHandler, sendRefusal } from './errors.js';
import { healthRoutes } from './health.js';
import { trackerRoutes } from './tracker.js';
import { apiKeyFrom } from './auth/api-key.js';
import { v1Routes } from './v1/index.js';
import { decorateRequests } from './request-state.js';

export interface AppOptions {
  /** The process logger (pino); without one, Fastify logs nothing (tests). */
  logger?: FastifyBaseLogger;
}

/**
 * CONNECT asks Node for a tunnel, so it never reaches the router by itself (Node would close the
 * connection unanswered): it is answered like any other request (under /v1: the key first, then
 * 405), on a response of its own, and the connection closed after it.
 */
function routeConnectRequests(app: FastifyInstance, connections: Connections): void {
  app.server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // Node has taken its own listeners off the socket: a reset must not become an unhandled error.
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    connections.answering(res);
    // Node's timeouts no longer watch the socket, and its client may never close its side: the
    // answer sent, the connection is closed.
    res.on('finish', () => socket.end(() => socket.destroy()));
    app.routing(req, res);
  });
}

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const dropped = {
    total: ctx.metrics.counter('svc_connections_dropped_total', 'Connections closed on accept: SVC_MAX_CONNECTIONS were open'),
    address: ctx.metrics.counter('svc_connections_dropped_per_address_total', 'Connections closed on accept: SVC_MAX_CONNECTIONS_PER_ADDRESS were open from their client'),
  };
  const cut = {
    pipelined: ctx.metrics.counter('svc_connections_cut_pipelined_total', `Connections cut for pipelining: a request arrived while ${MAX_QUEUED_ANSWERS} answers waited behind the one being sent`),
    send_timeout: ctx.metrics.counter('svc_connections_cut_send_timeout_total', 'Connections cut because their client took none of an answer for SVC_SEND_TIMEOUT_MS'),
  };
  const connections = new Connections(ctx.config.http, { exempt: ctx.config.trustedProxies, onDropped: (cap) => dropped[cap].inc(), onCut: (reason) => cut[reason].inc() });
  const app: FastifyInstance = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    serverFactory: (fastify) => {
      const routed: RequestListener = (req, res) => {
        connections.bodyDeadline(req, res);
        fastify(req, res);
      };
      return connections.serve(runsRole(ctx.config, 'collect') ? collectFastPath(ctx, () => app.log, routed, connections) : routed);
    },
    // X-Forwarded-For is never read: the client is the socket peer (or a trusted relay's header).
    trustProxy: false,
    bodyLimit: 1_048_576,
    // While closing, requests on open connections are still answered normally (202 for /api/e,
    // the envelope elsewhere); Fastify's raw 503 would break both contracts.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    // Every refusal carries the error envelope, including a path parameter with broken
    // percent-encoding (`/admin/v1/sites/%ZZ/goals`), which Fastify answers with a body of its own
    // (`FST_ERR_BAD_URL`) outside the error handler.
    frameworkErrors: (err, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      const refusal = apiError('INVALID_PARAMS', err.code === 'FST_ERR_BAD_URL' ? 'malformedUrl' : 'invalidRequest');
      if (!request.url.startsWith('/v1')) {
        sendRefusal(request, reply, refusal);
        return;
      }
      // The read API authenticates every request first and never lets an answer be cached.
      reply.header('cache-control', 'no-store');
      apiKeyFrom(ctx, request.headers.authorization).then(
        () => reply.code(refusal.status).send(envelope(refusal)),
        (err: unknown) => {
          const denied = err instanceof ApiError ? err : apiError('INTERNAL', 'internal');
          reply.code(denied.status).send(envelope(denied));
        },
      );
    },
  });
  app.decorate('connections', connections);
  installErrorHandler(app);
  strictTransportSecurity(app, ctx.config);
  app.decorate('accounts', ctx.accounts);
  decorateRequests(app);
  routeConnectRequests(app, connections);
  await app.register(async (scoped) => healthRoutes(scoped, ctx));
  if (runsRole(ctx.config, 'collect')) {
    await app.register(async (scoped) => collectRoutes(scoped, ctx));
    await app.register(async (scoped) => trackerRoutes(scoped));
  }
  if (runsRole(ctx.config, 'api')) await apiRoutes(app, ctx);
  return app;
}

/** A year: how long browsers keep to https for the host once told. */
const HSTS = 'max-age=31536000';

/**
 * With an https SVC_PUBLIC_URL, every answer Fastify sends (pages, assets, /app/v1, /v1, /admin/v1,
 * /js/t.js, errors) carries Strict-Transport-Security, so a browser never again tries the host over
 * plain http, where a network attacker could answer in its place. Browsers ignore the header on a
 * plain-http answer, so it is sent whatever scheme reached svc (a TLS proxy forwards it). Not
 * includeSubDomains: other hosts of the operator's domain are not svc's to decide. /api/e's empty
 * 202 (answered before Fastify on the hottest path) goes without: the host's other answers set it.
 */
function strictTransportSecurity(app: FastifyInstance, config: Config): void {
  if (!config.publicUrl?.startsWith('https:')) return;
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}

/** The routes of the `api` role: the read API and its OpenAPI document, the admin API, the dashboard and its API. */
async function apiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scoped) => adminRoutes(scoped, ctx), { prefix: '/admin/v1' });
  await app.register(async (scoped) => v1Routes(scoped, ctx));
  await app.register(async (scoped) => appRoutes(scoped, ctx), { prefix: '/app/v1' });
  await app.register(async (scoped) => unsubscribeRoutes(scoped, ctx));
  await app.register(async (scoped) => emailConfirmationRoutes(scoped, ctx));
  await app.register(async (scoped) => singleSignOnRoutes(scoped, ctx));
  await app.register(async (scoped) =>
    dashboardRoutes(scoped, {
      signedIn: async (request) => (await sessionUser(request)) !== undefined,
      setupNeeded: () => ctx.accounts.setupNeeded(),
      ownOrigin: (request) => ownOrigin(request, ctx.config),
      sharedLinkEmbedDomains: async (token) => (await ctx.accounts.sharedLinks.byToken(token)).embedDomains,
    }),
  );
}
