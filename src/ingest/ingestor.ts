// The ingestion service: live collection and import share the steps, the enrichment and the store.
import type { Clock } from '../core/clock.js';
import type { MaintenanceRegistry } from '../core/maintenance.js';
import type { MetricsRegistry } from '../core/metrics.js';
import type { RateLimit } from '../config.js';
import type { BulkAppend, EventStore } from '../storage/events/types.js';
import type { MetaStore, Site } from '../storage/meta/types.js';
import type { Counters } from '../storage/counters/open.js';
import type { LiveSessionStore } from '../storage/counters/live-sessions.js';
import type { RecentOutcomeLog } from '../storage/counters/recent-outcomes.js';
import { SessionCache } from '../storage/counters/memory-sessions.js';
import { HostingNetworks } from './bots.js';
import { isPromise, type MaybePromise } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { EventLoopTurns } from '../core/turns.js';
import type { DropReason } from './drop-reasons.js';
import type { GeoLocator } from './geo.js';
import { MAX_IMPORT_LINE_BYTES, MAX_IMPORT_LINES } from './import-contract.js';
import { ndjsonLines, parseImportLine, type ImportLineResult } from './import.js';
import { parsePageUrl } from './url-values.js';
import {
  DropCounter,
  botUaStep,
  datacenterStep,
  enrich,
  liveSteps,
  locate,
  newCandidate,
  runSteps,
  type Candidate,
  type CollectRequest,
  type Enricher,
  type Outcome,
  type Step,
} from './pipeline.js';
import { normalizeIp } from './ip.js';
import { RelayKeys } from './relay.js';
import { SiteDirectory } from './sites.js';
import { EphemeralSalts, SaltBook, oldestLiveSaltDay } from './visitor.js';
import type { Spool } from './spool.js';
import { WriteBuffer } from './write-buffer.js';
import type { StoredEvent } from '../storage/events/schema.js';

export interface ImportReport {
  accepted: number;
  rejected: number;
  errors: Array<{ line: number; reason: string }>;
}

/** Called after an import stored its events, before the call returns (rollups), with the site-local days it added to. */
export type ImportListener = (site: Site, days: string[]) => Promise<void>;

/**
 * Runs an import's commit (`commit`), with what must surround it: the rollups mark the days it
 * adds to pending and hold the site's rollup lock around the commit. A failure stores nothing.
 */
export type ImportCommit = (site: Site, days: string[], commit: () => Promise<void>) => Promise<void>;

export interface IngestorDeps {
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  geo: GeoLocator;
  metrics: MetricsRegistry;
  collectRateLimit: RateLimit;
  /** Live sessions, the collection rate limit and the site directory's invalidations. */
  counters: Counters;
  /** The write buffer's period: events answered 202 within it are what a crash loses. */
  flushIntervalMs?: number;
  /** Where collected events wait while the EventStore refuses them (the collect role). */
  spool?: Spool;
  maxImportLines?: number;
  /** Bytes of body an unsorted import may be sorted from (tests lower it). */
  maxSortBytes?: number;
  log?: { error(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
}

const MAX_REPORTED_ERRORS = 100;

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
  private readonly steps: Array<Step<CollectRequest>>;
  private readonly importListeners: ImportListener[] = [];
  private importCommit: ImportCommit = (_site, _days, commit) => commit();
  private readonly pipelineErrors: ReturnType<MetricsRegistry['counter']>;
  private readonly aborted: ReturnType<MetricsRegistry['counter']>;
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
      rateLimiter: deps.counters.rateLimiter('collect', deps.collectRateLimit.count, deps.collectRateLimit.windowMs),
      geo: deps.geo,
      hosting: this.hosting,
      salts: this.salts,
      sessions: this.sessions,
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
    const run = result.then(
      (outcome) => this.settled(candidate, outcome),
      (err: unknown) => this.failed(err),
    );
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run)).catch(() => undefined);
    return run;
  }

  /** Counts a collected event's outcome, and keeps it in its site's recent outcomes once the site is known. */
  private settled(candidate: Candidate, outcome: Outcome): Outcome {
    this.drops.count(outcome, 'collect');
    if (candidate.site !== undefined) {
      // A drop before the page was located (origin mismatch) still shows the path the event named.
      const path = candidate.location?.path ?? (candidate.event ? (parsePageUrl(candidate.event.u)?.path ?? null) : null);
      this.recent.record(candidate.site.internalId, candidate.ts, outcome, path, candidate.ua);
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

  /** Runs after an import stored its events, before the call returns; a failure fails the call, its events stored. */
  onImported(listener: ImportListener): void {
    this.importListeners.push(listener);
  }

  /** Sets what surrounds an import's commit (one at a time: the rollups'). */
  wrapImportCommit(importCommit: ImportCommit): void {
    this.importCommit = importCommit;
  }

  /**
   * Imports NDJSON lines for a site: validated and enriched like live events (origin, rate limit
   * and GPC do not apply; bots are dropped), sessionized in time order with salts that live only
   * for this call, stored in one bulk write, then handed to the import listeners before returning.
   * Nothing of a call that fails is stored.
   */
  async importLines(site: Site, stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): Promise<ImportReport> {
    const now = this.deps.clock.now();
    const maxLines = this.deps.maxImportLines ?? MAX_IMPORT_LINES;
    const errors: ImportReport['errors'] = [];
    let rejected = 0;
    const reject = (line: number, reason: DropReason, detail?: string) => {
      rejected++;
      this.drops.count(reason, 'import');
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason: detail ? `${reason}: ${detail}` : reason });
    };
    const importSteps: Array<Step<unknown>> = [{ name: 'locate', run: (c) => locate(c, false) }, botUaStep, datacenterStep(this.hosting)];
    /** A line through every check: its candidate, or why it is rejected (usually synchronous). */
    const check = (line: string): MaybePromise<ImportLineResult> => {
      const parsed = parseImportLine(line, site.id, now);
      if (!parsed.ok) return parsed;
      parsed.candidate.site = site;
      const result = runSteps(importSteps, parsed.candidate, undefined);
      // No closure on the usual, synchronous path: this runs for every line.
      if (!isPromise(result)) return result === 'accepted' ? parsed : { ok: false, reason: result };
      return result.then((outcome): ImportLineResult => (outcome === 'accepted' ? parsed : { ok: false, reason: outcome }));
    };
    // Sessions are only right in time order. While lines come in time order (ties in file order),
    // each is enriched right away. The body is kept as it came (its chunks, up to a bound) and each
    // accepted line's number and instant, so that a file that turns out not to be sorted can be read
    // again, its accepted lines sorted and enriched anew.
    const body = new KeptBody(this.deps.maxSortBytes ?? MAX_SORT_BYTES);
    const acceptedLines: number[] = [];
    const acceptedTs: number[] = [];
    const newWriter = () => new ImportWriter(this.deps.events, this.deps.geo, this.hosting);
    let writer = newWriter();
    const turns = new EventLoopTurns();
    try {
      let inOrder = true;
      for await (const lines of ndjsonLines(body.keep(stream))) {
        for (const { line, number, tooLong } of lines) {
          const turn = turns.step();
          if (turn) await turn;
          if (number > maxLines) {
            throw new ApiError('PAYLOAD_TOO_LARGE', `an import takes at most ${maxLines} lines: split the file, where no site-local day has lines on both sides (svc import does this itself; nothing of this call was stored)`);
          }
          if (tooLong) {
            reject(number, 'too_large', `a line is limited to ${MAX_IMPORT_LINE_BYTES} bytes`);
            continue;
          }
          if (line.trim() === '') continue;
          let checked = check(line);
          if (isPromise(checked)) checked = await checked;
          if (!checked.ok) {
            reject(number, checked.reason, checked.detail);
            continue;
          }
          const candidate = checked.candidate;
          if (inOrder && acceptedTs.length > 0 && candidate.ts < acceptedTs[acceptedTs.length - 1]!) {
            inOrder = false;
            await writer.abandon();
          }
          acceptedLines.push(number);
          acceptedTs.push(candidate.ts);
          if (inOrder) {
            const added = writer.add(candidate);
            if (added) await added;
          }
        }
      }
      if (!inOrder) {
        if (body.overflowed) {
          throw new ApiError(
            'PAYLOAD_TOO_LARGE',
            `an import that is not sorted by time is limited to ${body.limit} bytes: sort the file by ts, or split it (nothing of this call was stored)`,
          );
        }
        const texts = await sortedTexts(body.chunks, acceptedLines, acceptedTs, turns);
        body.release();
        writer = newWriter();
        for (const text of texts) {
          const turn = turns.step();
          if (turn) await turn;
          // The line passed every check above, so it parses the same way.
          const parsed = parseImportLine(text, site.id, now);
          if (!parsed.ok) throw new Error('an accepted import line no longer parses');
          parsed.candidate.site = site;
          locate(parsed.candidate, false);
          const added = writer.add(parsed.candidate);
          if (added) await added;
        }
      }
      body.release();
      await this.importCommit(site, writer.days(), () => writer.commit());
    } finally {
      await writer.abandon();
    }
    const accepted = acceptedLines.length;
    this.drops.count('accepted', 'import', accepted);
    try {
      for (const listener of this.importListeners) await listener(site, writer.days());
    } catch (err) {
      // The events are stored: the caller must not send them again, and learns how they complete.
      this.deps.log?.error({ err, site: site.id }, 'rollups after an import failed; the rollup task completes them');
      throw new ApiError(
        'IMPORT_ROLLUPS_PENDING',
        // The start of the cause's first line only (a database error goes on with its statement; the log has it all).
        `the ${accepted} accepted events are stored, but rolling up their days failed (${(err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200)}): the rollup task completes them (every 10 minutes, or POST /admin/v1/maintenance/run); do not send this import again`,
      );
    }
    return { accepted, rejected, errors };
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

/** Unsorted imports are sorted from their kept body, which is kept up to this size. */
export const MAX_SORT_BYTES = 512 * 1024 * 1024;

/**
 * The chunks of an import's body, kept while they stream through (for a second reading), until
 * they pass `limit` bytes: then none is kept, and the body is known to be over.
 */
class KeptBody {
  chunks: Array<Buffer | string> = [];
  private bytes = 0;

  constructor(readonly limit: number) {}

  get overflowed(): boolean {
    return this.bytes > this.limit;
  }

  async *keep(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<Buffer | string> {
    for await (const chunk of stream) {
      if (!this.overflowed) {
        this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        if (this.overflowed) this.release();
        else this.chunks.push(chunk);
      }
      yield chunk;
    }
  }

  /** Lets go of the chunks (once read again, or when not needed). */
  release(): void {
    this.chunks = [];
  }
}

/**
 * The accepted lines of a body, read again, in time order (ties in file order). The instants and
 * line numbers come from the first reading; only the texts are taken from this one. Reading gives
 * the event loop its turns; the sort holds it in one stretch (about 70 ms for 200 000 lines).
 */
async function sortedTexts(
  chunks: ReadonlyArray<Buffer | string>,
  lines: readonly number[],
  instants: readonly number[],
  turns: EventLoopTurns,
): Promise<string[]> {
  const texts: string[] = new Array(lines.length);
  let next = 0;
  for await (const batch of ndjsonLines(chunks)) {
    for (const { line, number } of batch) {
      const turn = turns.step();
      if (turn) await turn;
      if (next < lines.length && number === lines[next]) texts[next++] = line;
    }
  }
  if (next !== lines.length) throw new Error('the import body read again lacks accepted lines');
  const order = Array.from(texts.keys()).sort((a, b) => instants[a]! - instants[b]! || lines[a]! - lines[b]!);
  return order.map((i) => texts[i]!);
}

/** Rows handed to the store at a time: small enough that they never outlive the young generation. */
const IMPORT_WRITE_ROWS = 2048;

/**
 * Enriches one import's candidates, in time order, into a bulk write of the EventStore: its own
 * salts (random per date, never stored) and its own sessions.
 */
class ImportWriter {
  private readonly enricher: Enricher;
  private readonly touchedDays = new Set<string>();
  private rows: StoredEvent[] = [];
  private bulk: Promise<BulkAppend> | null = null;
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: EventStore,
    geo: GeoLocator,
    hosting: HostingNetworks,
  ) {
    // Its sessions are bounded by the import's size (at most MAX_IMPORT_LINES), not the live cap.
    this.enricher = { geo, hosting, salts: new SaltBook(new EphemeralSalts()), sessions: new SessionCache({ maxSessions: MAX_IMPORT_LINES }) };
  }

  /** Usually synchronous: it waits only for a new date's salt or for the store to catch up. */
  add(candidate: Candidate): MaybePromise<void> {
    const stored = enrich(candidate, this.enricher);
    return isPromise(stored) ? stored.then((s) => this.keep(s)) : this.keep(stored);
  }

  private keep(stored: StoredEvent): MaybePromise<void> {
    this.touchedDays.add(stored.day);
    this.rows.push(stored);
    if (this.rows.length < IMPORT_WRITE_ROWS) return;
    // Sessions idle for longer than the gap can only end: memory follows the sessions open at once.
    this.enricher.sessions.sweep(stored.ts);
    return this.write();
  }

  /** Rows go to the store while the next ones are enriched; at most one write is under way. */
  private async write(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    await this.written;
    this.bulk ??= this.events.beginBulk();
    const bulk = await this.bulk;
    this.written = bulk.append(rows);
    // Awaited by the next write or by commit; until then a failure must not count as unhandled
    // (the import gives the event loop turns meanwhile, and an unhandled rejection ends the process).
    this.written.catch(() => undefined);
  }

  async commit(): Promise<void> {
    if (this.rows.length > 0) await this.write();
    await this.written;
    if (this.bulk) await (await this.bulk).commit();
  }

  /** Drops what was written so far (nothing, after a commit). */
  async abandon(): Promise<void> {
    this.rows = [];
    await this.written.catch(() => undefined);
    const bulk = await this.bulk?.catch(() => null);
    await bulk?.rollback();
  }

  /** Site-local days the import wrote to, in order. */
  days(): string[] {
    return [...this.touchedDays].sort();
  }
}
