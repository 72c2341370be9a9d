// Turns anything thrown in a route into the error envelope, without leaking internals: the read
// API's (docs/api.md: code and message) on /v1 and every path but two, and the same with the template's
// reason on /app/v1 and /admin/v1, whose clients (the dashboard, the CLI) branch on it. The reason
// also comes in a header there, its only place on the read routes /app/v1 mounts again, whose
// answers equal /v1's byte for byte. /app/v1's message is in the language of the request's
// Accept-Language (the dashboard sends its page's), English without one; /v1's and /admin/v1's,
// whose clients are programs, always English.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, apiError, envelope, envelopeWithReason, type ErrorEnvelope, type ReasonedErrorEnvelope } from '../core/errors.js';
import { REASON_HEADER } from '../core/answer-headers.js';
import { DEFAULT_LANGUAGE, type Language } from '../core/messages/language.js';
import { messageIn } from '../core/messages/errors.js';
import { requestLanguage } from './request-language.js';
import { storageRefusal } from './storage-errors.js';

/** The paths of the APIs whose error answers carry the reason (REASON_HEADER). */
const WITH_REASON = /^\/(?:app|admin)\/v1(?:[/?]|$)/;
/**
 * The read API's routes mounted again under /app/v1: their answers, refusals included, equal /v1's
 * byte for byte (docs/accounts.md), so their reason travels in the header alone.
 */
const READ_API_AGAIN = /^\/app\/v1\/sites\/[^/?]+\/(?:stats|timeseries|breakdown|journeys|annotations|goals|funnels|realtime)(?:[/?]|$)/;
/** The dashboard's API, whose messages are read by people: written in the request's language. */
const FOR_PEOPLE = /^\/app\/v1(?:[/?]|$)/;

/** The error body of an answer to a request for `url` in `language` (the request's Accept-Language). */
export function errorBody(url: string | undefined, refusal: ApiError, language: Language = DEFAULT_LANGUAGE): ErrorEnvelope | ReasonedErrorEnvelope {
  if (url === undefined || !WITH_REASON.test(url)) return envelope(refusal);
  const message = FOR_PEOPLE.test(url) ? messageIn(refusal, language) : refusal.message;
  return READ_API_AGAIN.test(url) ? envelope(refusal, message) : envelopeWithReason(refusal, message);
}

/** The headers of an answer to a request for `url` that refuses it: the refusal's own, and its reason where the API says it. */
function errorHeaders(url: string | undefined, refusal: ApiError): Record<string, string> {
  return url !== undefined && WITH_REASON.test(url) ? { ...refusal.headers, [REASON_HEADER]: refusal.reason } : refusal.headers;
}

/** Answers a request with a refusal: its status, its headers and the error body its path takes. */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, refusal: ApiError): void {
  reply.code(refusal.status).headers(errorHeaders(request.url, refusal)).send(errorBody(request.url, refusal, requestLanguage(request)));
}

/** The 404 of a path no route serves. */
export function answerUnknownRoute(request: FastifyRequest, reply: FastifyReply): void {
  sendRefusal(request, reply, apiError('NOT_FOUND', 'route', { method: request.method, path: request.url.split('?')[0]! }));
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
  const headers = Object.entries(errorHeaders(url, apiError)).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\n` +
        `${headers}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const refusal = err instanceof ApiError ? err : (storageRefusal(err) ?? fromFastify(err));
    if (refusal) {
      sendRefusal(request, reply, refusal);
      return;
    }
    request.log.error({ err }, 'unhandled error');
    sendRefusal(request, reply, apiError('INTERNAL', 'internal'));
  });
  app.setNotFoundHandler(answerUnknownRoute);
}
