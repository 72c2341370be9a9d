// Turns anything thrown in a route into the error envelope, without leaking internals: the read
// API's (SPEC: code and message) on /v1 and every path but two, and the same with the template's
// reason on /app/v1 and /admin/v1, whose clients (the dashboard, the CLI) branch on it.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, apiError, envelope, envelopeWithReason, type ErrorEnvelope, type ReasonedErrorEnvelope } from '../core/errors.js';
import { storageRefusal } from './storage-errors.js';

/** The paths of the APIs whose error answers carry the reason. */
const WITH_REASON = /^\/(?:app|admin)\/v1(?:[/?]|$)/;

/** The error body of an answer to a request for `url`. */
export function errorBody(url: string | undefined, refusal: ApiError): ErrorEnvelope | ReasonedErrorEnvelope {
  return url !== undefined && WITH_REASON.test(url) ? envelopeWithReason(refusal) : envelope(refusal);
}

/** The 404 of a path no route serves. */
export function answerUnknownRoute(request: FastifyRequest, reply: FastifyReply): void {
  reply.code(404).send(errorBody(request.url, apiError('NOT_FOUND', 'route', { method: request.method, path: request.url.split('?')[0]! })));
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large) in our catalogue. */
function fromFastify(err: FastifyError): ApiError | undefined {
  const status = err.statusCode ?? 500;
  if (status === 413) return apiError('PAYLOAD_TOO_LARGE', 'body');
  if (status === 415) return apiError('UNSUPPORTED_MEDIA_TYPE', 'json');
  if (status >= 400 && status < 500) {
    return apiError('INVALID_PARAMS', err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'notJson' : 'invalidRequest');
  }
  return undefined;
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (a malformed request line or
 * header, headers over Node's 16 KB, a request that never finished arriving): answered with the
 * error envelope instead of Fastify's own body, and the connection closed, as Node does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset has nothing left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  answerAndClose(
    socket,
    err.code === 'HPE_HEADER_OVERFLOW'
      ? apiError('HEADERS_TOO_LARGE', 'headers')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? apiError('REQUEST_TIMEOUT', 'request')
        : apiError('INVALID_PARAMS', 'malformedRequest'),
  );
}

/**
 * Writes the error envelope straight to a socket nothing has been answered on (`no-store`, like
 * every read-API answer: the path may be unknown), then closes it. `url`: the request's, when it
 * arrived whole enough to have one.
 */
export function answerAndClose(socket: Duplex, apiError: ApiError, url?: string): void {
  const body = JSON.stringify(errorBody(url, apiError));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const refusal = err instanceof ApiError ? err : (storageRefusal(err) ?? fromFastify(err));
    if (refusal) {
      reply.code(refusal.status).headers(refusal.headers).send(errorBody(request.url, refusal));
      return;
    }
    request.log.error({ err }, 'unhandled error');
    reply.code(500).send(errorBody(request.url, apiError('INTERNAL', 'internal')));
  });
  app.setNotFoundHandler(answerUnknownRoute);
}
