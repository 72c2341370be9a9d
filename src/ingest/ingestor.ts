// The ingestion service: live collection, and the Importer (importer.ts) beside it; both share the
// steps, the enrichment and the store.
import { tmpdir } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { MaintenanceRegistry } from '../core/maintenance.js';
import type { PrometheusRegistry } from '../core/prometheus.js';
import type { RateLimit } from '../config.js';
import type { EventStore } from '../storage/events/types.js';
import type { MetaStore } from '../storage/meta/types.js';
import type { Counters } from '../storage/counters/open.js';
import type { LiveSessionStore } from '../storage/counters/live-sessions.js';
import type { RecentOutcomeLog } from '../storage/counters/recent-outcomes.js';
import { HostingNetworks } from './bots.js';
import { isPromise, type MaybePromise } from '../core/clock.js';
import type { DropReason, Outcome } from './drop-reasons.js';
import type { GeoLocator } from './geo.js';
import { Importer } from './importer.js';
import { parsePageUrl } from './url-values.js';
import {
  DropCounter,
  liveSteps,
  newCandidate,
  runSteps,
  type Candidate,
  type CollectRequest,
  type Step,
} from './pipeline.js';
import { normalizeIp } from './ip.js';
import { RelayKeys } from './relay.js';
import { SiteDirectory } from './sites.js';
import { SaltBook, oldestLiveSaltDay } from './visitor.js';
import type { EventLog } from './event-log.js';
import type { Spool } from './spool.js';
import { WriteBuffer } from './write-buffer.js';

export interface IngestorDeps {
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  geo: GeoLocator;
  metrics: PrometheusRegistry;
  collectRateLimit: RateLimit;
  /** Live sessions, the collection rate limit and the site directory's invalidations. */
  counters: Counters;
  /** The write buffer's period: events answered 202 within it are what a crash loses. */
  flushIntervalMs?: number;
  /** Where collected events wait while the EventStore refuses them (the collect role). */
  spool?: Spool;
  /** Where collected events are written ahead of the store (the collect role, unless SVC_EVENT_LOG_SYNC_MS=0). */
  eventLog?: EventLog;
  maxImportLines?: number;
  /** Bytes of body an unsorted import may be sorted from (tests lower it). */
  maxSortBytes?: number;
  /** Where an import's body waits on disk for a second reading; the system's temporary folder by default. */
  importSpillDir?: string;
  log?: { error(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
}

/** The period of the `salts` task, and of a collecting process's own forgetting of ended salts. */
const SALTS_EVERY_MS = 10 * 60_000;

export class Ingestor {
  readonly sites: SiteDirectory;
  readonly buffer: WriteBuffer;
  readonly drops: DropCounter;
  readonly sessions: LiveSessionStore;
  readonly salts: SaltBook;
  /** Each site's last collection outcomes, for installation verification. */
  readonly recent: RecentOutcomeLog;
  /** NDJSON imports, counted with collection's drops and judged by its hosting networks. */
  readonly imports: Importer;
  private readonly steps: Array<Step<CollectRequest>>;
  private readonly pipelineErrors: ReturnType<PrometheusRegistry['counter']>;
  private readonly aborted: ReturnType<PrometheusRegistry['counter']>;
  private readonly hosting = HostingNetworks.load();
  // Events answered 202 but still in the steps: flush and drain wait for them.
  private readonly inFlight = new Set<Promise<unknown>>();
  private forgetting: NodeJS.Timeout | null = null;

  constructor(private readonly deps: IngestorDeps) {
    this.sessions = deps.counters.liveSessions;
    this.recent = deps.counters.recentOutcomes;
    this.sites = new SiteDirectory(deps.meta, deps.counters.invalidations);
    this.salts = new SaltBook(deps.meta, deps.counters.shared);
    this.drops = new DropCounter(deps.metrics);
    this.imports = new Importer({
      clock: deps.clock,
      events: deps.events,
      geo: deps.geo,
      hosting: this.hosting,
      drops: this.drops,
      maxImportLines: deps.maxImportLines,
      maxSortBytes: deps.maxSortBytes,
      spillDir: deps.importSpillDir ?? tmpdir(),
      log: deps.log,
    });
    const flushes = deps.metrics.counter('svc_buffer_flushes_total', 'Write-buffer flushes to the EventStore');
    const flushSeconds = deps.metrics.counter('svc_buffer_flush_seconds_total', 'Time spent flushing the write buffer');
    const lastFlush = deps.metrics.gauge('svc_buffer_last_flush_seconds', 'Duration of the last write-buffer flush');
    const flushErrors = deps.metrics.counter('svc_buffer_flush_errors_total', 'Failed flushes (the batch is kept and retried)');
    const overflow = deps.metrics.counter('svc_buffer_overflow_total', 'Events refused because the buffer was full while storage failed');
    const spooled = deps.metrics.counter('svc_spool_events_total', 'Collected events written to the spool on local disk (the EventStore refused them, or older ones wait there)');
    const replayed = deps.metrics.counter('svc_spool_replayed_events_total', 'Spooled events the EventStore took');
    this.buffer = new WriteBuffer(deps.events, {
      intervalMs: deps.flushIntervalMs,
      spool: deps.spool,
      log: deps.eventLog,
      onSpooled: (n) => {
        if (deps.spool?.batches === 1) deps.log?.error({ events: n }, 'the event store refuses events: spooling them on local disk until it takes them');
        spooled.inc({}, n);
      },
      onReplayed: (n) => {
        if (deps.spool?.empty) deps.log?.info({}, 'the event store took every spooled event; the spool is empty');
        replayed.inc({}, n);
      },
      onFlush: (_n, ms) => {
        flushes.inc();
        flushSeconds.inc({}, ms / 1000);
        lastFlush.set(ms / 1000);
      },
      onError: (err, retryInMs) => {
        flushErrors.inc();
        deps.log?.error({ err, retryInMs }, deps.spool ? 'event flush failed; the batch is spooled and retried' : 'event flush failed; the batch is kept and retried');
      },
      onOverflow: () => {
        if (overflow.value() % 10_000 === 0) deps.log?.error({}, 'write buffer full while storage fails: refusing events');
        overflow.inc();
      },
    });
    const bufferSize = deps.metrics.gauge('svc_buffer_events', 'Events waiting in the write buffer');
    const spool = deps.spool;
    if (spool) {
      const spoolEvents = deps.metrics.gauge('svc_spool_events', 'Collected events in the spool on local disk, waiting for the EventStore');
      const spoolBatches = deps.metrics.gauge('svc_spool_batches', 'Batches in the spool, waiting for the EventStore');
      const spoolBytes = deps.metrics.gauge('svc_spool_bytes', 'Size of the spool file');
      deps.metrics.onCollect(() => {
        spoolEvents.set(spool.events);
        spoolBatches.set(spool.batches);
        spoolBytes.set(spool.bytes);
      });
    }
    const liveSessions = deps.metrics.gauge('svc_live_sessions', 'Sessions open in the live-session cache (in process; not shown with Redis)');
    deps.metrics.onCollect(() => {
      bufferSize.set(this.buffer.size);
      if (this.sessions.size !== undefined) liveSessions.set(this.sessions.size);
    });
    this.pipelineErrors = deps.metrics.counter('svc_pipeline_errors_total', 'Collected events lost to an internal error');
    this.aborted = deps.metrics.counter('svc_collect_aborted_total', 'Collection requests whose body never ended: the client went away, or the request timed out');
    this.steps = liveSteps({
      sites: this.sites,
      relayKeys: new RelayKeys(deps.meta),
      admission: deps.counters.admission('collect', deps.collectRateLimit.count, deps.collectRateLimit.windowMs),
      geo: deps.geo,
      hosting: this.hosting,
      salts: this.salts,
      accept: (event) => this.buffer.add(event),
    });
  }

  /**
   * Starts collecting: the write buffer's timer, and this process's own forgetting of ended dates'
   * salts and idle sessions (the `salts` task does it too, where the worker runs; a process that
   * only collects must not keep an ended date's salt in memory).
   */
  start(): void {
    this.buffer.start();
    this.forgetting ??= setInterval(() => this.forgetEnded(this.deps.clock.now()), SALTS_EVERY_MS);
    this.forgetting.unref();
  }

  /** Forgets the cached salts of dates that have ended everywhere, and sessions idle past the gap. */
  private forgetEnded(now: number): void {
    this.salts.forgetBefore(oldestLiveSaltDay(now));
    this.sessions.sweep(now);
  }

  /**
   * One collected event. Usually finishes synchronously; when a step has to wait (a first look-up of
   * a site, a relay key, a day's salt) the event is tracked until done so flush() can wait for it.
   */
  collect(req: CollectRequest): MaybePromise<Outcome> {
    const candidate = newCandidate(this.deps.clock.now(), req.userAgent, normalizeIp(req.socketIp));
    let result: MaybePromise<Outcome>;
    try {
      result = runSteps(this.steps, candidate, req);
    } catch (err) {
      return this.failed(err);
    }
    if (!isPromise(result)) return this.settled(candidate, result);
    // The event leaves inFlight in the handlers themselves: no further promise an event.
    const run: Promise<Outcome> = result.then(
      (outcome) => {
        this.inFlight.delete(run);
        return this.settled(candidate, outcome);
      },
      (err: unknown) => {
        this.inFlight.delete(run);
        return this.failed(err);
      },
    );
    this.inFlight.add(run);
    return run;
  }

  /** Counts a collected event's outcome, and keeps it in its site's recent outcomes once the site is known. */
  private settled(candidate: Candidate, stepsOutcome: Outcome): Outcome {
    const outcome = stepsOutcome === 'accepted' && candidate.event?.revenueDropped ? 'accepted_without_revenue' : stepsOutcome;
    this.drops.count(outcome, 'collect');
    if (candidate.site !== undefined) {
      // A drop before the page was located (origin mismatch) still shows the path the event named.
      const path = candidate.location?.path ?? (candidate.event ? (parsePageUrl(candidate.event.u)?.path ?? null) : null);
      this.recent.record(candidate.site.internalId, { ts: candidate.ts, outcome, path, name: candidate.event?.name ?? null, ua: candidate.ua });
    }
    return outcome;
  }

  // A failing look-up (storage down) must not lose an event silently: it is logged and counted.
  private failed(err: unknown): never {
    this.pipelineErrors.inc();
    this.deps.log?.error({ err }, 'collection pipeline failed');
    throw err;
  }

  /** Counts an event that never reached the steps (body too large). */
  countDropped(reason: DropReason): void {
    this.drops.count(reason, 'collect');
  }

  /** Counts a collection request whose client went away before its body ended (no event, no drop). */
  countAborted(): void {
    this.aborted.inc();
  }

  /**
   * Resolves once every event answered so far has left the steps (buffered or dropped). Events of
   * one visitor answered one after the other can finish their steps in another order while a step
   * waits on a shared store (Redis); a caller that needs arrival order kept waits here in between.
   */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Writes every accepted event to storage, including those still in the steps. */
  async flush(): Promise<void> {
    await this.settle();
    await this.buffer.flush();
  }

  /** Stops the timer and writes every buffered event to the store, or to the spool (graceful shutdown). */
  async drain(): Promise<void> {
    clearInterval(this.forgetting ?? undefined);
    this.forgetting = null;
    await this.settle();
    await this.buffer.drain();
  }

  /** Registers the `salts` task: delete salts of dates that have ended everywhere. */
  registerMaintenance(registry: MaintenanceRegistry): void {
    registry.register({
      name: 'salts',
      everyMs: SALTS_EVERY_MS,
      run: async (now) => {
        await this.deps.meta.deleteSaltsBefore(oldestLiveSaltDay(now));
        this.forgetEnded(now);
      },
    });
  }
}

