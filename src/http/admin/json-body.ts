// JSON bodies on the admin API. An empty (or blank) `application/json` body is no body, so that a
// bodiless action (revoke, test send, maintenance run) sent with that header is still performed;
// each route then says which fields it needs. Anything else is parsed as Fastify does by default
// (`__proto__` and `constructor.prototype` keys refused).
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
}
