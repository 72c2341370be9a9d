// POST /api/e: always 202 with an empty body, accepted or not (no signal to scanners). The body is
// read no further than the limits: over 4096 bytes it is discarded; drained up to 64 KB, then 202;
// beyond 64 KB, 202 and the connection closed.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { isPromise } from '../core/clock.js';
import { MAX_BODY_BYTES } from '../ingest/event-shape.js';
import type { Connections } from './connections.js';

export const MAX_DRAIN_BYTES = 65_536;

export type CollectedBody = { kind: 'ok'; body: Buffer } | { kind: 'too_large' } | { kind: 'overflow' } | { kind: 'aborted' };

/**
 * Reads at most MAX_BODY_BYTES; past that drains to MAX_DRAIN_BYTES and gives up. A client that goes
 * away before the body ends, or does not send it all within `timeoutMs`, has sent no event:
 * `aborted`, not a drop. Called once per event on the hottest route, so it settles through a
 * callback rather than a promise.
 */
export function readCollectedBody(stream: Readable, timeoutMs: number, settle: (body: CollectedBody) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const once = (result: CollectedBody) => {
    if (settled) return;
    settled = true;
    clearTimeout(deadline);
    settle(result);
  };
  const deadline = setTimeout(() => once({ kind: 'aborted' }), timeoutMs);
  stream.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > MAX_DRAIN_BYTES) {
      stream.pause();
      once({ kind: 'overflow' });
    } else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  stream.on('end', () => once(size > MAX_BODY_BYTES ? { kind: 'too_large' } : { kind: 'ok', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
  stream.on('error', () => once({ kind: 'aborted' }));
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const EMPTY_202 = { 'content-length': '0' };

/**
 * The whole endpoint on Node's own request and response: read the body (bounded), answer 202, then
 * hand the event to the ingestor. The Fastify route and the server's fast path (below) both call it.
 */
export function handleCollect(ctx: AppContext, req: IncomingMessage, res: ServerResponse, log: FastifyBaseLogger): void {
  readCollectedBody(req, ctx.config.http.bodyTimeoutMs, (collected) => {
    try {
      if (collected.kind === 'aborted') {
        ctx.ingest.countAborted();
        req.destroy();
        return;
      }
      if (collected.kind === 'overflow') {
        ctx.ingest.countDropped('too_large');
        res.writeHead(202, { ...EMPTY_202, connection: 'close' });
        res.end(() => req.socket.destroy());
        return;
      }
      res.writeHead(202, EMPTY_202);
      res.end();
      if (collected.kind === 'too_large') {
        ctx.ingest.countDropped('too_large');
        return;
      }
      const h = req.headers;
      // Errors are logged and counted by the ingestor; the answer has gone already.
      const outcome = ctx.ingest.collect({
        body: collected.body,
        origin: header(h.origin),
        userAgent: header(h['user-agent']),
        secGpc: header(h['sec-gpc']),
        socketIp: req.socket.remoteAddress,
        relay: {
          relayKey: header(h['x-svc-relay-key']),
          clientIp: header(h['x-svc-client-ip']),
          clientCountry: header(h['x-svc-client-country']),
          clientRegion: header(h['x-svc-client-region']),
          clientCity: header(h['x-svc-client-city']),
          clientAsn: header(h['x-svc-client-asn']),
        },
      });
      if (isPromise(outcome)) outcome.catch(() => undefined);
    } catch (err) {
      // Whatever fails here still answers 202 with an empty body.
      log.error({ err }, 'collection endpoint error');
      if (!res.headersSent) res.writeHead(202, EMPTY_202);
      if (!res.writableEnded) res.end();
    }
  });
}

/** Whether a request is for the collection endpoint: POST /api/e, with or without a query string. */
export function isCollectRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return req.method === 'POST' && (url === '/api/e' || url.startsWith('/api/e?'));
}

/**
 * The server's request listener: collection requests go straight to `handleCollect`, everything
 * else to `routed` (Fastify, under the body deadline). Routing, hooks and the reply object cost about 15 µs a
 * request, as much as the rest of the collection path's HTTP handling (bench/ingest); the hottest
 * route skips them.
 */
export function collectFastPath(ctx: AppContext, log: () => FastifyBaseLogger, routed: RequestListener, connections: Connections): RequestListener {
  return (req, res) => {
    if (!isCollectRequest(req)) return routed(req, res);
    // Closing only ends idle connections: once the server stops listening, each answer says
    // `Connection: close` (as Fastify's router does), or a client that always has a request in
    // flight would hold the graceful stop open.
    if (!connections.listening) res.shouldKeepAlive = false;
    handleCollect(ctx, req, res, log());
  };
}

export async function collectRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The body is read by handleCollect, from the raw request: no parser consumes it first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The endpoint answers 202 with an empty body whatever the Content-Type, even one that does not
  // parse as a media type (`;;;=== garbage`), which Fastify would answer 415 before any parser
  // runs: the header is replaced before parsing.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  // Safety net: whatever fails in this scope still answers 202 with an empty body.
  app.setErrorHandler((err, request, reply) => {
    request.log.error({ err }, 'collection endpoint error');
    reply.code(202).send();
  });

  // Requests the fast path does not see (fastify.inject, a server built without it) land here.
  // No per-request log lines, and the process logger rather than a per-request child.
  app.post('/api/e', { logLevel: 'warn', childLoggerFactory: (logger) => logger }, (request, reply) => {
    reply.hijack();
    handleCollect(ctx, request.raw, reply.raw, request.log);
  });
}
