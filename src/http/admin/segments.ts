// A site's segments and annotations (docs/admin-api.md), for the operator and, through OrgAccess, for
// the organisation's members (/app/v1/manage). Segments: any member lists the shared ones and its own
// and makes personal ones; shared ones are made, changed and deleted by admins and owners; a
// personal one is seen, changed and deleted by its owner alone (another member gets 404, as for an
// unknown id). The operator acts on shared segments only. Annotations: admins and owners.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import { MAX_ANNOTATIONS_PER_SITE, MAX_SEGMENTS_PER_SITE } from '../../core/segments.js';
import type { ManagedSegment } from '../../core/answers.js';
import type { AppContext } from '../../context.js';
import { segmentVisibleTo, type Segment, type SegmentPatch } from '../../entities/segments.js';
import type { Site } from '../../entities/sites.js';
import { segmentFiltersOf, visibleSegment } from '../../segments/filters.js';
import { ANNOTATION_CHANGE, NEW_ANNOTATION, NEW_SEGMENT, SEGMENT_CHANGE } from '../bodies.js';
import { idParam, readBody } from '../validate.js';
import { siteFor } from './org-routes.js';

const managedSegment = (s: Segment): ManagedSegment => ({ id: s.id, name: s.name, filters: s.filters, shared: s.shared });

export async function segmentRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  /** The site for any member of its organisation, and who acts (undefined: the operator). */
  async function memberSite(request: FastifyRequest, siteId: string): Promise<{ site: Site; userId: number | undefined }> {
    const site = await siteFor(ctx, access, request, siteId, 'viewer');
    return { site, userId: await access.actingUserId(request) };
  }
  const requireAdmin = (request: FastifyRequest, site: Site) => access.require(request, site.orgId, 'admin', 'site');

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/segments', async (request) => {
    const { site, userId } = await memberSite(request, request.params.siteId);
    const segments = (await ctx.meta.listSegments(site.internalId)).filter((s) => segmentVisibleTo(s, { userId }));
    return { segments: segments.map(managedSegment) };
  });

  // Without `shared`, a member's segment is personal and the operator's shared.
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/segments', async (request, reply) => {
    const { site, userId } = await memberSite(request, request.params.siteId);
    const body = readBody(NEW_SEGMENT, request.body);
    const shared = body.shared ?? userId === undefined;
    if (shared) await requireAdmin(request, site);
    else if (userId === undefined) throw apiError('INVALID_PARAMS', 'personalSegment');
    const segment = { name: body.name, filters: await segmentFiltersOf(body.filters, ctx.meta, site), shared, ownerUserId: userId ?? null };
    const created = await ctx.meta.createSegment(site.internalId, segment, ctx.clock.now(), MAX_SEGMENTS_PER_SITE);
    reply.code(201).send(managedSegment(created));
  });

  // Sharing a personal segment, or taking a shared one back as one's own, is an admin's change.
  app.patch<{ Params: { siteId: string; segmentId: string } }>('/sites/:siteId/segments/:segmentId', async (request) => {
    const { site, userId } = await memberSite(request, request.params.siteId);
    const segment = await visibleSegment(ctx.meta, site, request.params.segmentId, { userId });
    const body = readBody(SEGMENT_CHANGE, request.body);
    const shared = body.shared;
    if (segment.shared || shared === true) await requireAdmin(request, site);
    const patch: SegmentPatch = { name: body.name, shared };
    if (body.filters !== undefined) patch.filters = await segmentFiltersOf(body.filters, ctx.meta, site);
    if (shared === false && segment.shared) {
      if (userId === undefined) throw apiError('INVALID_PARAMS', 'personalSegment');
      patch.ownerUserId = userId;
    }
    const updated = await ctx.meta.updateSegment(site.internalId, segment.id, patch);
    if (!updated) throw apiError('NOT_FOUND', 'segment');
    return managedSegment(updated);
  });

  app.delete<{ Params: { siteId: string; segmentId: string } }>('/sites/:siteId/segments/:segmentId', async (request, reply) => {
    const { site, userId } = await memberSite(request, request.params.siteId);
    const segment = await visibleSegment(ctx.meta, site, request.params.segmentId, { userId });
    if (segment.shared) await requireAdmin(request, site);
    if (!(await ctx.meta.deleteSegment(site.internalId, segment.id))) throw apiError('NOT_FOUND', 'segment');
    reply.code(204).send();
  });

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/annotations', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { annotations: await ctx.meta.listAnnotations(site.internalId) };
  });

  app.post<{ Params: { siteId: string } }>('/sites/:siteId/annotations', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    reply.code(201).send(await ctx.meta.createAnnotation(site.internalId, readBody(NEW_ANNOTATION, request.body), ctx.clock.now(), MAX_ANNOTATIONS_PER_SITE));
  });

  app.patch<{ Params: { siteId: string; annotationId: string } }>('/sites/:siteId/annotations/:annotationId', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const updated = await ctx.meta.updateAnnotation(site.internalId, idParam(request.params.annotationId), readBody(ANNOTATION_CHANGE, request.body));
    if (!updated) throw apiError('NOT_FOUND', 'annotation');
    return updated;
  });

  app.delete<{ Params: { siteId: string; annotationId: string } }>('/sites/:siteId/annotations/:annotationId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    if (!(await ctx.meta.deleteAnnotation(site.internalId, idParam(request.params.annotationId)))) throw apiError('NOT_FOUND', 'annotation');
    reply.code(204).send();
  });
}
