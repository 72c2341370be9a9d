// GET /assets/<hashed name>: the dashboard's scripts and stylesheet. A name changes with its content,
// so an answer is cached for a year and never revalidated; brotli or gzip when the client takes it.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/errors.js';
import { preferredEncoding } from '../encodings.js';
import { contentTypeOf, type WebBuild } from './assets.js';

export function assetRoute(app: FastifyInstance, build: WebBuild): void {
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const file = build.files.get(request.params.name);
    if (!file) throw apiError('NOT_FOUND', 'asset');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    reply
      .header('content-type', contentTypeOf(request.params.name))
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? file.brotli : encoding === 'gzip' ? file.gzip : file.body);
  });
}
