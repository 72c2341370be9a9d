// Turns anything thrown in a route into the error envelope, without leaking internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, envelope } from '../core/errors.js';

/** Fastify's own client errors (bad JSON, wrong content type, body too large) in our catalogue. */
function fromFastify(err: FastifyError): ApiError | undefined {
  const status = err.statusCode ?? 500;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'request body too large');
  if (status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type: send application/json');
  if (status >= 400 && status < 500) {
    const message = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'body is not valid JSON' : 'invalid request';
    return new ApiError('INVALID_PARAMS', message);
  }
  return undefined;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const apiError = err instanceof ApiError ? err : fromFastify(err);
    if (apiError) {
      reply.code(apiError.status).headers(apiError.headers).send(envelope(apiError));
      return;
    }
    request.log.error({ err }, 'unhandled error');
    reply.code(500).send(envelope(new ApiError('INTERNAL', 'internal error; retrying is advised')));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(envelope(new ApiError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`)));
  });
}
