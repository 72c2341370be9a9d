// JSON bodies on the admin API. An empty (or blank) `application/json` body is no body, so that a
// bodiless action (revoke, test send, maintenance run) sent with that header is still performed;
// each route then says which fields it needs. Anything else is parsed as Fastify does by default
// (`__proto__` and `constructor.prototype` keys refused).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/errors.js';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function acceptEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (err, value) => {
      if (err && isJson(text)) done(apiError('INVALID_PARAMS', 'prototypeKey'), undefined);
      else done(err, value);
    });
  });
}
