// The composition root: builds every service of the process from the configuration. Route modules
// and workers receive this object; tests build it with a temp dir and a manual clock.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AccountService } from './accounts/service.js';
import { smtpMailSender } from './alerts/email.js';
import { AlertService, type AlertServiceOptions } from './alerts/service.js';
import { KyselyAlertStore } from './alerts/store.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { MaintenanceRegistry } from './core/maintenance.js';
import { MetricsRegistry } from './core/metrics.js';
import { GeoDatabases, type GeoLocator } from './ingest/geo.js';
import { Ingestor } from './ingest/ingestor.js';
import { DuckDbEventStore } from './storage/events/duckdb.js';
import { commitImport, createRollupTables, recomputeRollups, registerRollupTasks, rollupSite } from './storage/events/rollups.js';
import type { Site } from './storage/meta/types.js';
import type { EventStore } from './storage/events/types.js';
import type { KyselyMetaStore } from './storage/meta/kysely-store.js';
import { openSqliteMetaStore } from './storage/meta/sqlite.js';

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface AppContext {
  config: Config;
  clock: Clock;
  log: Logger;
  adminToken: string;
  meta: KyselyMetaStore;
  events: EventStore;
  geo: GeoLocator;
  metrics: MetricsRegistry;
  maintenance: MaintenanceRegistry;
  ingest: Ingestor;
  /** Brings a site's rollups up to date now (after its goals or funnels changed). */
  rollups: { refresh(site: Site): Promise<void> };
  alerts: AlertService;
  accounts: AccountService;
  /** Stops background work and releases storage, in reverse order of start. */
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  geo?: GeoLocator;
  /** What tests inject into webhook delivery: DNS, a test CA, a shorter timeout, a mail sender. */
  alerts?: Partial<Pick<AlertServiceOptions, 'resolve' | 'ca' | 'timeoutMs' | 'mail'>>;
}

const MIN_ADMIN_TOKEN = 16;

/** Where a person creates the first dashboard account: the public URL's /setup, else the local port's. */
function setupUrl(config: Config): string {
  const local = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
  return `${config.publicUrl ?? local}/setup`;
}

/**
 * The admin token: from SVC_ADMIN_TOKEN, else generated once and kept in the data dir. A token file
 * that is empty or short (truncated by hand, a crash) stops the start: it must never match the
 * empty credential of a request without a header.
 */
function resolveAdminToken(config: Config, log: Logger): string {
  if (config.adminToken) return config.adminToken;
  const file = join(config.dataDir, 'admin-token');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < MIN_ADMIN_TOKEN) {
      throw new Error(`${file} holds no usable admin token (under ${MIN_ADMIN_TOKEN} characters): delete it to generate a new one, or set SVC_ADMIN_TOKEN`);
    }
    return stored;
  }
  const token = 'svcadm_' + randomBytes(24).toString('base64url');
  // Written whole or not at all: a temp file renamed into place.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, token + '\n', { mode: 0o600 });
  renameSync(temp, file);
  log.warn({ file, setupUrl: setupUrl(config) }, `generated admin token (shown once; also stored in ${file}): ${token}; create the first dashboard account at ${setupUrl(config)} with it as the setup token`);
  return token;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  mkdirSync(config.dataDir, { recursive: true });
  const adminToken = resolveAdminToken(config, log);
  const meta = await openSqliteMetaStore(join(config.dataDir, 'meta.sqlite'));
  let events: EventStore;
  try {
    events = await DuckDbEventStore.open({ path: join(config.dataDir, 'events.duckdb'), memoryLimit: config.duckdbMemoryLimit });
  } catch (err) {
    await meta.close();
    throw err;
  }
  const geo = options.geo ?? GeoDatabases.fromConfig(config.geoipDb).warm();
  const metrics = new MetricsRegistry();
  const memory = metrics.gauge('svc_process_memory_bytes', 'Process memory by kind: rss, heap_used, external (buffers such as the GeoIP database)');
  metrics.onCollect(() => {
    const m = process.memoryUsage();
    memory.set(m.rss, { kind: 'rss' });
    memory.set(m.heapUsed, { kind: 'heap_used' });
    memory.set(m.external, { kind: 'external' });
  });
  const maintenance = new MaintenanceRegistry();
  const ingest = new Ingestor({ clock, meta, events, geo, metrics, collectRateLimit: config.collectRateLimit, log });
  ingest.registerMaintenance(maintenance);
  const alerts = new AlertService({
    meta,
    store: new KyselyAlertStore(meta.db),
    events,
    clock,
    policy: { allowPrivate: config.webhookAllowPrivate },
    historyDays: config.alertHistoryDays,
    mail: config.smtpUrl ? smtpMailSender(config.smtpUrl) : undefined,
    metrics,
    warn: (message) => log.warn({}, message),
    ...options.alerts,
  });
  for (const task of alerts.maintenanceTasks()) maintenance.register(task);
  const accounts = new AccountService(meta, clock);
  for (const task of accounts.maintenanceTasks()) maintenance.register(task);

  // Daily rollups: their tables, the `rollup` and `retention` tasks, and recomputation of the
  // closed days an import touched before the import call returns.
  await createRollupTables(events);
  const rollupDeps = { events, meta };
  registerRollupTasks(maintenance, rollupDeps);
  ingest.wrapImportCommit((site, days, commit) => commitImport(rollupDeps, site.id, days, commit));
  ingest.onImported((site, days) => recomputeRollups(rollupDeps, site.id, days, clock.now()));
  const rollups = { refresh: (site: Site) => rollupSite(rollupDeps, site, clock.now()) };

  const ctx: AppContext = {
    config,
    clock,
    log,
    adminToken,
    meta,
    events,
    geo,
    metrics,
    maintenance,
    ingest,
    rollups,
    alerts,
    accounts,
    async close() {
      await ingest.drain();
      await alerts.drain();
      await events.close();
      await meta.close();
    },
  };
  return ctx;
}
