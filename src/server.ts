// Starting and stopping the whole service in one process (every role), shared by main.ts and tests.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createContext, type AppContext, type ContextOptions } from './context.js';
import { buildApp } from './http/app.js';
import { Worker } from './worker.js';

export interface RunningService {
  ctx: AppContext;
  app: FastifyInstance;
  url: string;
  /** Graceful stop: stop accepting, finish requests, flush every buffered event, close storage. */
  stop(): Promise<void>;
}

export async function startService(config: Config, options: ContextOptions & { logger?: FastifyBaseLogger } = {}): Promise<RunningService> {
  const ctx = await createContext(config, { log: options.logger, ...options });
  const app = await buildApp(ctx, { logger: options.logger });
  const worker = new Worker(ctx);
  await app.listen({ port: config.port, host: config.host });
  ctx.ingest.start();
  await ctx.alerts.start();
  worker.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  return {
    ctx,
    app,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop() {
      stopping ??= (async () => {
        await app.close();
        await worker.stop();
        await ctx.close();
      })();
      return stopping;
    },
  };
}
