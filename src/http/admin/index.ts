import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { alertRoutes } from './alerts.js';
import { requireAdmin } from './auth.js';
import { orgRoutes } from './org-routes.js';
import { siteRoutes } from './site-routes.js';

/** /admin/v1: every route behind the operator token (checked before anything else). */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onRequest', requireAdmin(ctx));
  await orgRoutes(app, ctx);
  await siteRoutes(app, ctx);
  await alertRoutes(app, ctx);
}
