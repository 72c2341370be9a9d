// The dashboard: its HTML pages and their assets (the JSON they read lives under /app/v1).
import type { FastifyInstance } from 'fastify';
import { assetRoute } from './asset-route.js';
import { loadWebBuild } from './assets.js';
import { pageRoutes, type PageOptions } from './pages.js';

export async function dashboardRoutes(app: FastifyInstance, options: PageOptions): Promise<void> {
  const build = await loadWebBuild();
  assetRoute(app, build);
  pageRoutes(app, build, options);
}
