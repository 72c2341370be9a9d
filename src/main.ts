// `npm start`: the service's process, with the roles of SVC_ROLE (every role by default).
import { ConfigError, loadConfig } from './config.js';
import { processLogger, resolveLogFormat } from './http/request-log.js';
import { startService } from './server.js';

async function main(): Promise<void> {
  // Every file the process creates (SQLite's and DuckDB's among them) is its user's only: 0600, folders 0700.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const logger = processLogger(config.logLevel, resolveLogFormat(config.logFormat, process.stdout.isTTY === true));
  const service = await startService(config, { logger });
  const log = service.app.log;
  if (config.webhookAllowPrivate) log.warn('SVC_WEBHOOK_ALLOW_PRIVATE is on: webhooks may target private addresses (development only)');
  const metadata = config.databaseUrl === undefined ? '' : ', metadata in PostgreSQL';
  log.info(`svc listening on ${service.url} (roles ${config.role.join(', ')}; data in ${config.dataDir}${metadata})`);

  // Spooled events are on disk: the next start on this data folder stores them.
  const spooled = () => {
    const events = service.ctx.spool?.events ?? 0;
    return events === 0 ? '' : `; ${events} events wait in the spool for the event store`;
  };
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    log.info(`${signal}: draining`);
    // The stop gives requests half of the deadline (server.ts); what overruns the rest is abandoned.
    setTimeout(() => {
      log.error(`${signal}: not drained within SVC_STOP_TIMEOUT_MS (${config.stopTimeoutMs} ms); exiting with ${service.ctx.ingest.buffer.size} events unwritten${spooled()}`);
      process.exit(1);
    }, config.stopTimeoutMs).unref();
    service.stop().then(
      () => {
        log.info(`${signal}: drained; every buffered event is stored or spooled${spooled()}`);
        process.exit(0);
      },
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error('svc failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
