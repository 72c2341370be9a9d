import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requireAdmin } from './auth/admin-token.js';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The process's roles, and, where it collects, the events waiting in the spool for the EventStore.
  app.get('/healthz', async () => {
    const spool = ctx.spool;
    return {
      ok: true,
      roles: ctx.config.role,
      ...(spool && { spool: { events: spool.events, batches: spool.batches, bytes: spool.bytes } }),
    };
  });

  // Prometheus text format, behind the admin token: drop reasons say something about the sites.
  app.get('/metrics', { onRequest: requireAdmin(ctx) }, async (_request, reply) => {
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(ctx.metrics.render());
  });
}
