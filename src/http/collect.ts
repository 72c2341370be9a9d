// POST /api/e: always 202 with an empty body, accepted or not (no signal to scanners). The body is
// read no further than the limits: over 4096 bytes it is discarded; drained up to 64 KB, then 202;
// beyond 64 KB, 202 and the connection closed.
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { isPromise } from '../core/clock.js';
import { MAX_BODY_BYTES } from '../ingest/event-shape.js';

export const MAX_DRAIN_BYTES = 65_536;

export type CollectedBody = { kind: 'ok'; body: Buffer } | { kind: 'too_large' } | { kind: 'overflow' };

/**
 * Reads at most MAX_BODY_BYTES; past that drains to MAX_DRAIN_BYTES and gives up. Called once per
 * event on the hottest route, so it settles through a callback rather than a promise.
 */
export function readCollectedBody(stream: Readable, settle: (body: CollectedBody) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const once = (result: CollectedBody) => {
    if (settled) return;
    settled = true;
    settle(result);
  };
  stream.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > MAX_DRAIN_BYTES) {
      stream.pause();
      once({ kind: 'overflow' });
    } else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  stream.on('end', () => once(size > MAX_BODY_BYTES ? { kind: 'too_large' } : { kind: 'ok', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
  stream.on('error', () => once({ kind: 'overflow' }));
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function collectRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Any content type is accepted (sendBeacon sends text/plain); the body is read here, bounded.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => readCollectedBody(payload, (body) => done(null, body)));

  // Bug fix: Fastify answers 415 (with a JSON body) before any parser runs when the Content-Type
  // header does not parse as a media type (e.g. `;;;=== garbage`), which broke "always 202 with an
  // empty body". Any content type is accepted here, so the header is replaced before parsing.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  // Safety net: whatever fails in this scope still answers 202 with an empty body.
  app.setErrorHandler((err, request, reply) => {
    request.log.error({ err }, 'collection endpoint error');
    reply.code(202).send();
  });

  // The hottest route: no per-request log lines (errors are still logged).
  // It also shares the process logger instead of a per-request child (bindings built per event).
  app.post('/api/e', { logLevel: 'warn', childLoggerFactory: (logger) => logger }, async (request, reply) => {
    const collected: CollectedBody = (request.body as CollectedBody | undefined) ?? { kind: 'ok', body: Buffer.alloc(0) };
    if (collected.kind === 'overflow') {
      ctx.ingest.countDropped('too_large');
      reply.header('connection', 'close').code(202).send();
      request.raw.socket.once('finish', () => request.raw.socket.destroy());
      return reply;
    }
    reply.code(202).send();
    if (collected.kind === 'too_large') {
      ctx.ingest.countDropped('too_large');
      return reply;
    }
    const h = request.headers;
    // Errors are logged and counted by the ingestor; the answer has gone already.
    try {
      const outcome = ctx.ingest.collect({
        body: collected.body,
        origin: header(h.origin),
        userAgent: header(h['user-agent']),
        secGpc: header(h['sec-gpc']),
        socketIp: request.raw.socket.remoteAddress,
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
    } catch {
      // counted as svc_pipeline_errors_total
    }
    return reply;
  });
}
