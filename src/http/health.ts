import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requireAdmin } from './admin/auth.js';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/healthz', async () => ({ ok: true }));

  // Prometheus text format, behind the admin token: drop reasons say something about the sites.
  app.get('/metrics', { onRequest: requireAdmin(ctx) }, async (_request, reply) => {
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(ctx.metrics.render());
  });
}
