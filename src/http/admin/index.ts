import type { FastifyInstance } from 'fastify';
import { operatorAccess, type OrgAccess } from '../auth/authorization.js';
import type { AppContext } from '../../context.js';
import { alertRoutes } from './alerts.js';
import { requireAdmin } from '../auth/admin-token.js';
import { importRoutes } from './import-routes.js';
import { installationRoutes } from './installation-routes.js';
import { acceptEmptyJsonBody } from './json-body.js';
import { answerUnknownRoute } from '../errors.js';
import { memberRoutes } from './members.js';
import { segmentRoutes } from './segments.js';
import { sharedLinkRoutes } from './shared-links.js';
import { digestAdminRoutes, digestOperatorRoutes } from './digests.js';
import { operatorRoutes } from './operator-routes.js';
import { orgRoutes } from './org-routes.js';
import { siteRoutes } from './site-routes.js';
import { userRoutes } from './users.js';
import { statsRoutes } from '../v1/index.js';

/** The admin routes scoped to one organisation, site, key or alert rule, authorised by `access`. */
export async function orgScopedRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  await orgRoutes(app, ctx, access);
  await siteRoutes(app, ctx, access);
  await installationRoutes(app, ctx, access);
  await alertRoutes(app, ctx, access);
  await memberRoutes(app, ctx, access);
  await sharedLinkRoutes(app, ctx, access);
  await segmentRoutes(app, ctx, access);
  await digestAdminRoutes(app, ctx, access);
  await importRoutes(app, ctx, access);
}

/** /admin/v1: every route behind the operator token (checked before anything else). */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onRequest', requireAdmin(ctx));
  acceptEmptyJsonBody(app);
  await operatorRoutes(app, ctx);
  await userRoutes(app, ctx);
  await digestOperatorRoutes(app, ctx);
  await orgScopedRoutes(app, ctx, operatorAccess);
  // The read API's figures of any site, for `svc stats` (the operator reads every organisation).
  await statsRoutes(app, ctx, {
    prefix: '',
    authenticate: async () => ({ id: 'operator', orgIds: (await ctx.meta.listOrgs()).map((org) => org.id) }),
    operations: ['stats', 'timeseries', 'breakdown'],
    catchAll: [],
  });
  // Every request without the token gets 401, unknown paths included: an unauthenticated caller
  // cannot tell existing admin routes from missing ones.
  app.setNotFoundHandler({ preHandler: requireAdmin(ctx) }, answerUnknownRoute);
}
