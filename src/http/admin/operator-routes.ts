// The operator's own admin routes (docs/admin-api.md): organisations, relay keys, event import and
// maintenance. Never mounted for dashboard users.
import type { FastifyInstance } from 'fastify';
import { operatorAccess } from '../auth/authorization.js';
import { apiError } from '../../core/errors.js';
import { newRelayKey, sha256Hex } from '../../core/ids.js';
import type { AppContext } from '../../context.js';
import { MAINTENANCE_RUN, NEW_ORG, NEW_RELAY_KEY } from '../bodies.js';
import { readBody } from '../validate.js';
import { siteFor } from './org-routes.js';

export async function operatorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/orgs', async (request, reply) => {
    const org = await ctx.meta.createOrg(readBody(NEW_ORG, request.body).name, ctx.clock.now());
    reply.code(201).send(org);
  });

  app.get('/orgs', async () => ({ orgs: await ctx.meta.listOrgs() }));

  app.post('/relay-keys', async (request, reply) => {
    const { name = '' } = readBody(NEW_RELAY_KEY, request.body);
    const key = newRelayKey();
    const record = await ctx.meta.createRelayKey(name, sha256Hex(key), ctx.clock.now());
    reply.code(201).send({ id: record.id, key });
  });

  // NDJSON streamed from the request, validated and (while in time order) enriched line by line as
  // it arrives; the body is also kept (up to MAX_SORT_BYTES) in case its lines must be sorted. Once
  // the token is checked (parsers run after it), the body is timed by the client's pace only: the
  // time spent waiting for its bytes, summed, up to the request timeout.
  app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (request, payload, done) => {
      done(null, scoped.connections.clientPacedBody(request.raw, payload as AsyncIterable<Buffer>));
    });
    scoped.post<{ Params: { siteId: string } }>('/sites/:siteId/events/import', async (request) => {
      const site = await siteFor(ctx, operatorAccess, request, request.params.siteId);
      const stream = (request.body ?? request.raw) as AsyncIterable<Buffer>;
      return ctx.ingest.imports.importLines(site, stream);
    });
  });

  app.post('/maintenance/run', async (request) => {
    const { tasks } = readBody(MAINTENANCE_RUN, request.body);
    const known = ctx.maintenance.names();
    if (tasks !== undefined && (!Array.isArray(tasks) || tasks.some((t: unknown) => typeof t !== 'string' || !known.includes(t)))) {
      throw apiError('INVALID_PARAMS', 'tasks', { tasks: known.join(', ') });
    }
    return { ran: await ctx.maintenance.run(ctx.clock.now(), tasks) };
  });
}
