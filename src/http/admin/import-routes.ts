// A site's imports and export (docs/admin-api.md, "Imports and export"), for the operator and,
// through OrgAccess, for the admins and owners of the site's organisation (/app/v1/manage).
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { MAX_IMPORT_BYTES } from '../../imports/service.js';
import { API_IMPORT_SOURCES, IMPORT_SOURCES } from '../../core/vocabulary.js';
import type { ImportSource } from '../../storage/meta/import-types.js';
import { siteFor } from './org-routes.js';
import { Readable } from 'node:stream';
import { isValidDay } from '../../core/period.js';
import { localDay } from '../../core/localtime.js';
import type { Site } from '../../entities/sites.js';
import { exportPlausible, siteHeldDays } from '../../imports/export.js';
import { IMPORT_DAYS } from '../../imports/plausible.js';
import { rollupKey } from '../../stats/rollups/key.js';
import { ga4ImportRoute } from './ga4-import-route.js';

/** The sources whose export is uploaded as a file (the others are read from their API). */
const FILE_SOURCES = IMPORT_SOURCES.filter((source) => !API_IMPORT_SOURCES.includes(source));

const todayOf = (ctx: AppContext, site: Site) => localDay(ctx.clock.now(), site.timezone);

/** The name an upload is known by (`name`, the file's own name): its last path segment, printable, bounded. */
function uploadName(raw: unknown): string {
  if (raw === undefined) return 'upload';
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 255 || /[\u0000-\u001f]/.test(raw)) throw apiError('INVALID_PARAMS', 'invalidRequest');
  return raw.slice(raw.replaceAll('\\', '/').lastIndexOf('/') + 1);
}

export async function importRoutes(app: FastifyInstance, ctx: AppContext, access: OrgAccess): Promise<void> {
  // The upload is read as it arrives (never held in memory), paced by the client as the event import is.
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (request, payload, done) => {
      done(null, scoped.connections.clientPacedBody(request.raw, payload as AsyncIterable<Buffer>));
    });
    scoped.post<{ Params: { siteId: string }; Querystring: { source?: string; name?: string } }>('/sites/:siteId/imports', async (request, reply) => {
      const site = await siteFor(ctx, access, request, request.params.siteId);
      // Refused before a byte of the body is read when it announces more than the limit.
      const announced = Number(request.headers['content-length'] ?? 0);
      if (announced > MAX_IMPORT_BYTES) throw apiError('PAYLOAD_TOO_LARGE', 'importFile', { max: MAX_IMPORT_BYTES });
      const source = request.query.source;
      if (!(FILE_SOURCES as readonly string[]).includes(source ?? '')) throw apiError('INVALID_IMPORT', 'source', { sources: FILE_SOURCES.join(', ') });
      const body = (request.body ?? request.raw) as AsyncIterable<Buffer>;
      const created = await ctx.imports.upload(site, source as ImportSource, uploadName(request.query.name), body, announced);
      reply.code(202).send(created);
    });
  });

  ga4ImportRoute(app, ctx, access);

  app.get<{ Params: { siteId: string } }>('/sites/:siteId/imports', async (request) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    return { imports: await ctx.imports.list(site) };
  });

  // The site's rolled-up and imported days as Plausible's export, streamed (docs/imports.md, "Export").
  app.get<{ Params: { siteId: string }; Querystring: { from?: string; to?: string } }>('/sites/:siteId/export', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const { from, to } = request.query;
    for (const [name, value] of [['from', from], ['to', to]] as const) {
      if (value !== undefined && !(isValidDay(value) && value >= IMPORT_DAYS.from && value <= IMPORT_DAYS.to)) {
        throw apiError('INVALID_PARAMS', 'day', { name, first: IMPORT_DAYS.from, last: IMPORT_DAYS.to });
      }
    }
    const rollup = await ctx.meta.getRollupState(rollupKey(ctx.events, site.id));
    const watermark = rollup?.watermark ?? null;
    const held = await siteHeldDays(ctx.events, site.id);
    const days = { from: from ?? held?.from ?? todayOf(ctx, site), to: to ?? held?.to ?? todayOf(ctx, site) };
    if (days.from > days.to) throw apiError('INVALID_PERIOD', 'reversed');
    reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="svc-export-${site.domain.replace(/[^A-Za-z0-9.-]/g, '_')}-${days.from}-${days.to}.zip"`)
      .send(Readable.from(exportPlausible(ctx.events, { siteId: site.id, domain: site.domain, days, held, watermark, annotations: await ctx.meta.listAnnotations(site.internalId) })));
    return reply;
  });

  app.delete<{ Params: { siteId: string; importId: string } }>('/sites/:siteId/imports/:importId', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    await ctx.imports.remove(site, request.params.importId);
    reply.code(204).send();
  });
}
