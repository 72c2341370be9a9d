// Shared links of a site (docs/accounts.md#shared-links): created, listed and revoked by the
// operator and by the organisation's admins and owners. The link is answered once.
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { publicBase } from '../auth/session-cookie.js';
import { apiError } from '../../core/errors.js';
import { isValidDay } from '../../core/period.js';
import type { AppContext } from '../../context.js';
import type { SharedLink } from '../../entities/accounts.js';
import type { ManagedSharedLink } from '../../core/management.js';
import { NEW_SHARED_LINK } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { parseDomain } from './domain.js';
import { siteFor } from './org-routes.js';
import { visibleSegment } from '../../segments/filters.js';

export const sharedLinkView = (link: SharedLink): ManagedSharedLink => ({
  id: link.id,
  filters: link.filters,
  expiresAt: link.expiresAt ?? null,
  hasPassword: link.passwordHash !== undefined,
  embedDomains: link.embedDomains,
  createdAt: link.createdAt,
  lastUsedAt: link.lastUsedAt ?? null,
});

export async function sharedLinkRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  const links = ctx.accounts.sharedLinks;

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/shared-links', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const body = readBody(NEW_SHARED_LINK, request.body);
    const expiresOn = body.expiresOn ?? undefined;
    if (expiresOn !== undefined && (typeof expiresOn !== 'string' || !isValidDay(expiresOn))) throw apiError('INVALID_PARAMS', 'sharedLinkExpired');
    const filters = [...(body.filters ?? [])];
    // A link locked to a segment locks the segment's filters as they are now (a later change of the segment leaves the link as made).
    if (body.segment !== undefined) {
      const segment = await visibleSegment(ctx.meta, site, String(body.segment), { userId: await access.actingUserId(request) });
      // A link's locked `page` value is a pattern (`*`, `**`), a segment's is text: locked, a `*` would select other pages.
      if (segment.filters.some((f) => f.startsWith('page:') && f.includes('*'))) throw apiError('INVALID_PARAMS', 'segmentPagePattern');
      filters.push(...segment.filters);
    }
    const embedDomains = (body.embedDomains ?? []).map(parseDomain);
    const password = body.password === null || body.password === '' ? undefined : body.password;
    const { link, token } = await links.create(site, { password, expiresOn, filters, embedDomains: [...new Set(embedDomains)] });
    const url = `${publicBase(request, ctx.config)}/share/${token}`;
    reply.code(201).send({ ...sharedLinkView(link), url, embedUrl: `${url}?embed=1` });
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/shared-links', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { sharedLinks: (await links.list(site)).map(sharedLinkView) };
  });

  app.delete<{ Params: { siteId: string; linkId: string } }>('/sites/:siteId/shared-links/:linkId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    await links.revoke(site, idParam(request.params.linkId));
    reply.code(204).send();
  });
}
