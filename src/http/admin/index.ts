import type { FastifyInstance } from 'fastify';
import { envelope, notFound } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { alertRoutes } from './alerts.js';
import { requireAdmin } from './auth.js';
import { installationRoutes } from './installation-routes.js';
import { acceptEmptyJsonBody } from './json-body.js';
import { orgRoutes } from './org-routes.js';
import { siteRoutes } from './site-routes.js';

/** /admin/v1: every route behind the operator token (checked before anything else). */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onRequest', requireAdmin(ctx));
  acceptEmptyJsonBody(app);
  await orgRoutes(app, ctx);
  await siteRoutes(app, ctx);
  await installationRoutes(app, ctx);
  await alertRoutes(app, ctx);
  // Every request without the token gets 401, unknown paths included: an unauthenticated caller
  // cannot tell existing admin routes from missing ones.
  app.setNotFoundHandler({ preHandler: requireAdmin(ctx) }, (request, reply) => {
    reply.code(404).send(envelope(notFound(`no route ${request.method} ${request.url.split('?')[0]}`)));
  });
}
