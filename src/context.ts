// The composition root: builds every service of the process from the configuration. Route modules
// and workers receive this object; tests build it with a temp dir and a manual clock.
import { join } from 'node:path';
import { IMPORTS_FOLDER } from './core/data-files.js';
import { SIGNIN_RATE_LIMIT } from './accounts/lockout.js';
import { AccountService } from './accounts/service.js';
import { SingleSignOn, type SingleSignOnOptions } from './accounts/single-sign-on.js';
import { CONFIRMATION_MAILS_PER_HOUR } from './accounts/email-confirmations.js';
import { resolveAdminToken } from './admin-token.js';
import { smtpMailSender } from './alerts/email.js';
import { DIGEST_SMTP_TIMEOUT_MS, DigestService } from './digests/service.js';
import { ALERT_MAILS_PER_HOUR, AlertService, type AlertServiceOptions } from './alerts/service.js';
import { runsRole, type Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { collectWhenIdle } from './core/idle-collection.js';
import { MaintenanceRegistry } from './core/maintenance.js';
import { PrometheusRegistry } from './core/prometheus.js';
import { GeoDatabases, type GeoLocator } from './ingest/geo.js';
import { Ingestor } from './ingest/ingestor.js';
import { EventLog } from './ingest/event-log.js';
import { Spool } from './ingest/spool.js';
import { openCounters, type CounterFallback, type Counters } from './storage/counters/open.js';
import { prepareDataDir } from './storage/data-dir.js';
import { openEventStore } from './storage/events/open.js';
import { createRollupTables } from './stats/rollups/write.js';
import { commitImport, recomputeRollups, removeImportedEvents } from './stats/rollups/imports.js';
import { registerRollupTasks } from './stats/rollups/tasks.js';
import type { MetaStore } from './storage/meta/types.js';
import { ImportService } from './imports/service.js';
import { addAnnotations } from './imports/annotations.js';
import type { Ga4Options } from './imports/ga4/import.js';
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
  metrics: PrometheusRegistry;
  /** Live sessions, rate limits and cache invalidations: in process, or shared in Redis (SVC_REDIS_URL). */
  counters: Counters;
  maintenance: MaintenanceRegistry;
  ingest: Ingestor;
  /** Collected events the EventStore refused, on local disk until it takes them (collect role only). */
  spool: Spool | undefined;
  alerts: AlertService;
  accounts: AccountService;
  /** Single sign-on's provider (SVC_OIDC_*), in a process of the `api` role. */
  singleSignOn: SingleSignOn | undefined;
  digests: DigestService;
  /** Import jobs: uploads, their queue and the worker that runs them. */
  imports: ImportService;
  /** Stops background work and releases storage, in reverse order of start. */
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  geo?: GeoLocator;
  /** What tests inject into webhook delivery: DNS, a test CA, a shorter timeout, a mail sender. */
  alerts?: Partial<Pick<AlertServiceOptions, 'resolve' | 'ca' | 'timeoutMs' | 'mail'>>;
  /** What tests give single sign-on: the provider's test CA, a shorter retry. */
  oidc?: Pick<SingleSignOnOptions, 'ca' | 'retryMs'>;
  /** What tests give GA4 imports: the stand-in's CA, shorter waits between retries, smaller pages. */
  ga4?: Pick<Ga4Options, 'ca' | 'retryBaseMs' | 'pageRows' | 'windowDays'>;
  /** What the process's EventStore is seen through (tests: a store whose writes fail on demand). */
  events?: (store: EventStore) => EventStore;
  /** What the Counters' Redis keys start with (tests that share one Redis give each service its own). */
  counterKeyPrefix?: string;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  const tightened = prepareDataDir(config.dataDir);
  if (tightened.length > 0) log.warn({ tightened }, 'the data folder was readable by other users: tightened (only svc\'s user may read it)');
  const { token: adminToken, generatedFile: adminTokenFile } = resolveAdminToken(config);
  const { meta, alerts: alertStore, accounts: accountStore, digests: digestStore, imports: importStore } = await openMetaStores(metaLocationOf(config), (message) => log.warn({}, message));
  let events: EventStore | undefined;
  let spool: Spool | undefined;
  let eventLog: EventLog | undefined;
  try {
    const opened = await openEventStore({ dataDir: config.dataDir, duckdbMemoryLimit: config.duckdbMemoryLimit, duckdbImportMemoryLimit: config.duckdbImportMemoryLimit, warn: (err, message) => log.warn({ err }, message), clickhouseUrl: config.clickhouseUrl });
    events = options.events?.(opened) ?? opened;
    if (runsRole(config, 'collect')) {
      // A torn record's events were still in the write buffer when the process died: the crash lost them, as it would without a spool.
      spool = Spool.open(config.dataDir, (bytes) => log.warn({ bytes }, 'the spool ended in a record cut short by a crash while it was written: dropped'));
      if (!spool.empty) log.warn({ events: spool.events, batches: spool.batches }, 'the spool holds events an earlier run could not store: replaying them');
      if (config.eventLogSyncMs > 0) {
        // A torn record holds the events of the last sync period before the crash: lost, as the period promises.
        eventLog = EventLog.open(
          config.dataDir,
          { syncMs: config.eventLogSyncMs, onError: (err) => log.error({ err }, 'the event log could not be written: a crash now loses the events of the write buffer') },
          (bytes) => log.warn({ bytes }, 'the event log ended in a record cut short by a crash while it was written: dropped'),
        );
        const recovered = eventLog.recovered.reduce((n, batch) => n + batch.rows.length, 0);
        if (recovered > 0) log.warn({ events: recovered, batches: eventLog.recovered.length }, 'the event log holds events answered before the last stop and not stored: storing them');
      }
    }
  } catch (err) {
    await events?.close();
    await meta.close();
    throw err;
  }
  const geo = options.geo ?? GeoDatabases.fromConfig(config.geoipDb).warm();
  const metrics = new PrometheusRegistry();
  const memory = metrics.gauge('svc_process_memory_bytes', 'Process memory by kind: rss, heap_total (what V8 holds for its heap), heap_used, external (buffers such as the GeoIP database)');
  metrics.onCollect(() => {
    const m = process.memoryUsage();
    memory.set(m.rss, { kind: 'rss' });
    memory.set(m.heapUsed, { kind: 'heap_used' });
    memory.set(m.external, { kind: 'external' });
    memory.set(m.heapTotal, { kind: 'heap_total' });
  });
  const store = events;
  const stopIdleCollection = collectWhenIdle({ alsoWhenIdle: () => void store.releaseIdleMemory() });
  const counters = await openCounters(config.redisUrl, { sessionCacheBytes: config.sessionCacheBytes, keyPrefix: options.counterKeyPrefix, onUnavailable: counterFallbacks(metrics, log) });
  const maintenance = new MaintenanceRegistry();
  const ingest = new Ingestor({ clock, meta, events, geo, metrics, counters, collectRateLimit: config.collectRateLimit, flushIntervalMs: config.flushIntervalMs, spool, eventLog, importSpillDir: join(config.dataDir, IMPORTS_FOLDER), log });
  ingest.registerMaintenance(maintenance);
  const alerts = new AlertService({
    meta,
    store: alertStore,
    events,
    clock,
    policy: { allowPrivate: config.webhookAllowPrivate },
    historyDays: config.alertHistoryDays,
    mail: config.smtpUrl ? smtpMailSender(config.smtpUrl, `svc alerts <${config.mailFrom}>`) : undefined,
    mailLimit: counters.rateLimiter('alert-mails', ALERT_MAILS_PER_HOUR, 3_600_000),
    metrics,
    warn: (message) => log.warn({}, message),
    ...options.alerts,
  });
  for (const task of alerts.maintenanceTasks()) maintenance.register(task);
  const accounts = new AccountService(meta, accountStore, clock, counters.rateLimiter('signin', SIGNIN_RATE_LIMIT.count, SIGNIN_RATE_LIMIT.windowMs), {
    mail: config.smtpUrl ? smtpMailSender(config.smtpUrl, `svc <${config.mailFrom}>`, INVITATION_MAIL_TIMEOUT_MS) : undefined,
    warn: (message) => log.warn({}, message),
    publicUrl: config.publicUrl?.replace(/\/+$/, ''),
    confirmationLimiter: counters.rateLimiter('email-confirmations', CONFIRMATION_MAILS_PER_HOUR, 3_600_000),
  });
  for (const task of accounts.maintenanceTasks()) maintenance.register(task);
  const singleSignOn =
    config.oidc && runsRole(config, 'api')
      ? new SingleSignOn(config.oidc, { accounts, store: accountStore, clock, warn: (message) => log.warn({}, message), ...options.oidc })
      : undefined;
  singleSignOn?.start();
  const digests = new DigestService({
    store: digestStore,
    accounts: accountStore,
    meta,
    events,
    clock,
    mail: config.smtpUrl ? smtpMailSender(config.smtpUrl, `svc reports <${config.mailFrom}>`, DIGEST_SMTP_TIMEOUT_MS) : undefined,
    publicBase: config.publicUrl,
    // The unsubscribe links' key: the admin token's secret is the service's own, and it stays.
    signingKey: adminToken,
    webhookSender: alerts.sender,
    checkWebhookUrl: (url) => alerts.readUrl(url),
    warn: (message) => log.warn({}, message),
  });
  for (const task of digests.maintenanceTasks()) maintenance.register(task);

  // Daily rollups: their tables, the `rollup` and `retention` tasks, and recomputation of the
  // closed days an import touched before the import call returns.
  await createRollupTables(events);
  const rollupDeps = { events, meta };
  registerRollupTasks(maintenance, rollupDeps);
  ingest.imports.wrapImportCommit((site, days, commit) => commitImport(rollupDeps, site.id, days, commit));
  ingest.imports.onImported((site, days) => recomputeRollups(rollupDeps, site.id, days, clock.now()));

  const imports = new ImportService({
    events,
    jobs: importStore,
    clock,
    dataDir: config.dataDir,
    runsJobs: runsRole(config, 'worker'),
    warn: (obj, message) => log.warn(obj, message),
    getSite: (siteId) => meta.getSite(siteId),
    importReadLines: (site, read, stamp) => ingest.imports.importReadLines(site, read, stamp),
    removeEvents: (siteId, importId) => removeImportedEvents(rollupDeps, siteId, importId, clock.now()),
    async addAnnotations(siteId, annotations) {
      const site = await meta.getSite(siteId);
      if (site) await addAnnotations(meta, site, annotations, clock.now());
    },
    ga4: { ...config.google, ...options.ga4 },
  });
  // The worker takes jobs queued by other processes, and those whose worker stopped, on this schedule.
  maintenance.register({ name: 'imports', everyMs: 15_000, run: () => imports.runNow() });

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
    counters,
    maintenance,
    ingest,
    spool,
    alerts,
    accounts,
    singleSignOn,
    digests,
    imports,
    async close() {
      stopIdleCollection();
      singleSignOn?.stop();
      await imports.stop();
      await ingest.drain();
      spool?.close();
      await alerts.drain();
      await events.close();
      await meta.close();
      await counters.close();
    },
  };
  return ctx;
}

/** An owner waits on the invitation mail's sending: an SMTP server that hangs fails it after this. */
const INVITATION_MAIL_TIMEOUT_MS = 10_000;

/** A warning at most once a minute for each kind of fallback. */
const FALLBACK_WARNING_EVERY_MS = 60_000;

/**
 * Counts what did without Redis in /metrics (`svc_counter_fallbacks_total`): connection failures,
 * sessions kept by this process alone, rate-limit hits let through, invalidations not sent.
 */
function counterFallbacks(metrics: PrometheusRegistry, log: Logger): (what: CounterFallback, err: unknown) => void {
  const fallbacks = metrics.counter('svc_counter_fallbacks_total', 'Redis did not answer: connection failures, sessions kept by this process alone, rate-limit hits let through, invalidations not sent', { labelled: true });
  const warnedAt = new Map<CounterFallback, number>();
  return (what, err) => {
    fallbacks.inc({ what });
    const now = Date.now();
    if (now - (warnedAt.get(what) ?? -Infinity) < FALLBACK_WARNING_EVERY_MS) return;
    warnedAt.set(what, now);
    log.warn({ err: err instanceof Error ? err.message : String(err), what }, 'Redis did not answer: falling back (svc_counter_fallbacks_total counts it)');
  };
}
