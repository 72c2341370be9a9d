// The composition root: builds every service of the process from the configuration. Route modules
// and workers receive this object; tests build it with a temp dir and a manual clock.
import { AccountService } from './accounts/service.js';
import { resolveAdminToken } from './admin-token.js';
import { smtpMailSender } from './alerts/email.js';
import { AlertService, type AlertServiceOptions } from './alerts/service.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { MaintenanceRegistry } from './core/maintenance.js';
import { MetricsRegistry } from './core/metrics.js';
import { GeoDatabases, type GeoLocator } from './ingest/geo.js';
import { Ingestor } from './ingest/ingestor.js';
import { prepareDataDir } from './storage/data-dir.js';
import { openEventStore } from './storage/events/open.js';
import { commitImport, createRollupTables, recomputeRollups, registerRollupTasks, rollupSite } from './stats/rollups/job.js';
import type { MetaStore, Site } from './storage/meta/types.js';
import type { EventStore } from './storage/events/types.js';
import { metaLocationOf, openMetaStores } from './storage/meta/open.js';

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
  /** The file this start generated the admin token into (startService shows it once), else undefined. */
  adminTokenFile: string | undefined;
  meta: MetaStore;
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

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  const tightened = prepareDataDir(config.dataDir);
  if (tightened.length > 0) log.warn({ tightened }, 'the data folder was readable by other users: tightened (only svc\'s user may read it)');
  const { token: adminToken, generatedFile: adminTokenFile } = resolveAdminToken(config);
  const { meta, alerts: alertStore, accounts: accountStore } = await openMetaStores(metaLocationOf(config), (message) => log.warn({}, message));
  let events: EventStore;
  try {
    events = await openEventStore({ dataDir: config.dataDir, duckdbMemoryLimit: config.duckdbMemoryLimit, clickhouseUrl: config.clickhouseUrl });
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
  const ingest = new Ingestor({ clock, meta, events, geo, metrics, collectRateLimit: config.collectRateLimit, flushIntervalMs: config.flushIntervalMs, sessionCacheBytes: config.sessionCacheBytes, log });
  ingest.registerMaintenance(maintenance);
  const alerts = new AlertService({
    meta,
    store: alertStore,
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
  const accounts = new AccountService(meta, accountStore, clock);
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
    adminTokenFile,
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
