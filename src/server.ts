// Starting and stopping the service in one process, with the roles of its configuration (SVC_ROLE),
// shared by main.ts and tests.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { runsRole, type Config } from './config.js';
import { createContext, type AppContext, type ContextOptions } from './context.js';
import { firstStartLines, noticeBlock, writeServerUrl } from './first-start.js';
import { buildApp } from './http/app.js';
import { Worker } from './worker.js';

export interface RunningService {
  ctx: AppContext;
  app: FastifyInstance;
  /** The local address it listens on. */
  url: string;
  /**
   * Graceful stop: stop accepting, close connections waiting for their client, give requests being
   * handled half of SVC_STOP_TIMEOUT_MS, flush every buffered event, close storage.
   */
  stop(): Promise<void>;
}

export interface ServiceOptions extends ContextOptions {
  logger?: FastifyBaseLogger;
  /**
   * Whether the worker role runs the maintenance tasks on their timers (default true). Tests on a
   * manual clock turn it off and run the tasks themselves: a timer fires in real time, and would
   * act on the manual clock's instant in the middle of a test.
   */
  maintenanceTimers?: boolean;
  /** Where the block for a person goes (the generated admin token); default stderr. */
  notice?: (text: string) => void;
}

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const ctx = await createContext(config, { log: options.logger, ...options });
  const app = await buildApp(ctx, { logger: options.logger });
  const worker = new Worker(ctx);
  await app.listen({ port: config.port, host: config.host });
  if (runsRole(config, 'collect')) ctx.ingest.start();
  if (runsRole(config, 'worker')) {
    ctx.alerts.start();
    // Jobs left queued, or put back by a worker that stopped, start again at once.
    ctx.imports.kick();
    if (options.maintenanceTimers ?? true) worker.start();
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Every link the service prints starts with where people reach it.
  const publicUrl = config.publicUrl ?? url;
  writeServerUrl(config.dataDir, url);
  if (ctx.adminTokenFile !== undefined) {
    const lines = firstStartLines({ token: ctx.adminToken, tokenFile: ctx.adminTokenFile, dataDir: config.dataDir, publicUrl, cwd: process.cwd() });
    (options.notice ?? ((text) => process.stderr.write(text)))(noticeBlock(lines));
  }
  let stopping: Promise<void> | undefined;
  return {
    ctx,
    app,
    url,
    stop() {
      stopping ??= (async () => {
        await app.connections.stop(() => app.close(), config.stopTimeoutMs / 2);
        await worker.stop();
        await ctx.close();
      })();
      return stopping;
    },
  };
}
