// In-memory write buffer in front of the EventStore: flushed every interval (1 s by default) or
// every 10 000 events, and by `flush()` (tests, import, shutdown). Without an event log, what a crash
// or `kill -9` loses is what it holds: the events of the last interval. With one (event-log.ts), every
// event added is also written to the log, each batch taken is a sealed segment of it, on disk before
// it goes to the store, and released once the store or the spool has it: a crash loses only the
// events of the log's last sync period, and the next start stores the batches the log still holds.
//
// With a spool (the collect role), a batch the store refuses goes to the spool on local disk, and
// while the spool holds batches every later batch goes behind them (events reach the store in the
// order they were collected); a replay takes the oldest spooled batch to the store, again and again,
// backing off while the store fails, until the spool is empty. Memory stays bounded however long
// the store is down. Without a spool (or when the spool cannot be written) a failed flush keeps its
// batch in memory, whole and in front of later ones (a batch keeps its id, by which the store
// recognizes one it holds already), and is retried with backoff; the buffer grows up to a cap, past which new events
// are refused and counted (the process must not run out of memory instead). Nothing is dropped
// silently.
import { randomUUID } from 'node:crypto';
import type { StoredEvent } from '../storage/events/schema.js';
import type { EventStore } from '../storage/events/types.js';
import type { EventLog } from './event-log.js';
import type { Spool, SpooledBatch } from './spool.js';

export interface WriteBufferOptions {
  maxEvents?: number; // flush when this many are waiting
  intervalMs?: number;
  capacity?: number; // refuse events beyond this many waiting
  now?: () => number;
  /** Where batches the store refuses wait for it (collect role); without one they wait in memory. */
  spool?: Spool;
  /** Where every event added is written ahead of its batch; the batches it recovered are stored first. */
  log?: EventLog;
  onFlush?: (events: number, ms: number) => void;
  onError?: (err: unknown, retryInMs: number) => void;
  onOverflow?: () => void;
  /** A batch went to the spool (the store refused it, or older batches wait there). */
  onSpooled?: (events: number) => void;
  /** A spooled batch reached the store. */
  onReplayed?: (events: number) => void;
}

const MAX_BACKOFF_MS = 30_000;

/** A batch, and with an event log the segment that holds it and its write to disk. */
interface Batch extends SpooledBatch {
  segment?: number;
  written?: Promise<void>;
}

export class WriteBuffer {
  private pending: StoredEvent[] = [];
  /** Batches taken and not stored (a failed flush, or recovered from the event log), oldest first. */
  private held: Batch[] = [];
  private heldEvents = 0;
  private inFlight: Promise<void> | null = null;
  /** The batch whose append to the store is under way, and whether a stop spooled it meanwhile. */
  private toStoreNow: { batch: SpooledBatch; spooled: boolean } | null = null;
  private replaying: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private retryAt = 0;
  private readonly maxEvents: number;
  private readonly intervalMs: number;
  private readonly capacity: number;
  private readonly now: () => number;
  private readonly spool: Spool | undefined;
  private readonly log: EventLog | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly options: WriteBufferOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.intervalMs = options.intervalMs ?? 1000;
    this.capacity = options.capacity ?? 250_000;
    this.now = options.now ?? Date.now;
    this.spool = options.spool;
    this.log = options.log;
    for (const { segment, id, rows } of this.log?.recovered ?? []) this.hold({ id, rows, segment });
  }

  /** Events waiting in memory. */
  get size(): number {
    return this.pending.length + this.heldEvents;
  }

  /** Starts the timer; a spool left non-empty by an earlier run is replayed from now on, and batches recovered from the event log are stored. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flushWhenDue(), this.intervalMs);
    this.timer.unref();
    if (this.held.length > 0) this.flushWhenDue();
    else this.replayWhenDue();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Buffers an event; false (and counted) when the buffer is full because storage is failing. */
  add(event: StoredEvent): boolean {
    if (this.pending.length + this.heldEvents >= this.capacity) {
      this.options.onOverflow?.();
      return false;
    }
    this.pending.push(event);
    this.log?.add(event);
    if (this.pending.length >= this.maxEvents) this.flushWhenDue();
    return true;
  }

  /**
   * A flush unless one is under way or a failure asked to wait (backoff: it delays attempts at the
   * store, not writes to a spool that holds batches already); a replay when one is due.
   */
  private flushWhenDue(): void {
    this.replayWhenDue();
    if (this.inFlight || (this.now() < this.retryAt && this.spool?.empty !== false)) return;
    this.flush().catch(() => undefined); // reported through onError, retried later
  }

  /**
   * Writes everything buffered so far, batch by batch (held ones first): resolves once it is stored,
   * or, with a spool, once it is stored or spooled; rejects at the first batch that is neither (it
   * and the later ones stay buffered).
   */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    for (let batches = this.held.length + 1; batches > 0; batches--) {
      const batch = this.takeBatch();
      if (!batch) return;
      this.inFlight = this.spool?.empty === false ? this.toSpool(batch, undefined) : this.toStore(batch);
      try {
        await this.inFlight;
      } finally {
        this.inFlight = null;
      }
    }
  }

  /** The oldest held batch, else everything buffered as one batch under a new id (a sealed segment of the log, and its id); undefined when nothing is. */
  private takeBatch(): Batch | undefined {
    const held = this.held.shift();
    if (held) {
      this.heldEvents -= held.rows.length;
      return held;
    }
    if (this.pending.length === 0) return undefined;
    const batch: Batch = this.log ? { rows: this.pending, ...this.log.seal() } : { id: randomUUID(), rows: this.pending };
    this.pending = [];
    return batch;
  }

  private async toStore(batch: Batch): Promise<void> {
    const started = performance.now();
    const current = { batch, spooled: false };
    this.toStoreNow = current;
    try {
      // Stored before its segment is whole on disk, a batch a crash cut short would be stored twice: in full, then its logged part.
      await batch.written;
      await this.store.append(batch.rows, batch.id);
    } catch (err) {
      if (current.spooled) return void this.failed(err);
      if (this.spool) return this.toSpool(batch, err);
      this.keep(batch);
      throw this.failed(err);
    } finally {
      this.toStoreNow = null;
    }
    this.release(batch);
    // A stop spooled it while the store was taking it: the spool's oldest batch is stored.
    if (current.spooled) this.spool!.replayed(batch.id);
    this.failures = 0;
    this.retryAt = 0;
    this.options.onFlush?.(batch.rows.length, performance.now() - started);
  }

  /** Spools a batch (after `storeError`, when the store refused it); if the spool fails too, the batch stays buffered. */
  private async toSpool(batch: Batch, storeError: unknown): Promise<void> {
    if (storeError !== undefined) this.failed(storeError);
    try {
      this.spool!.append(batch);
    } catch (err) {
      this.keep(batch);
      throw this.failed(err);
    }
    this.release(batch);
    this.options.onSpooled?.(batch.rows.length);
  }

  /** The batch goes back in front of the held ones, whole. */
  private keep(batch: Batch): void {
    this.held.unshift(batch);
    this.heldEvents += batch.rows.length;
  }

  /** A batch held behind the others. */
  private hold(batch: Batch): void {
    this.held.push(batch);
    this.heldEvents += batch.rows.length;
  }

  /** The store or the spool has the batch: the event log no longer needs its segment. */
  private release(batch: Batch): void {
    if (batch.segment !== undefined) this.log!.release(batch.segment);
  }

  /** Counts a failure: the next attempt waits 1 s, 2 s, 4 s … 30 s. */
  private failed(err: unknown): unknown {
    const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.failures++);
    this.retryAt = this.now() + wait;
    this.options.onError?.(err, wait);
    return err;
  }

  /** A replay unless the spool is empty, a flush is under way (it may be storing a spooled batch) or a failure asked to wait. */
  private replayWhenDue(): void {
    if (!this.spool || this.spool.empty || this.inFlight || this.now() < this.retryAt) return;
    this.replayNow().catch(() => undefined); // reported through onError, retried at a later tick
  }

  /** The replay under way, or a new one: never two at once. */
  private replayNow(): Promise<void> {
    this.replaying ??= this.replay().finally(() => (this.replaying = null));
    return this.replaying;
  }

  /** Takes spooled batches to the store, oldest first, until the spool is empty or the store fails. */
  private async replay(): Promise<void> {
    const spool = this.spool!;
    for (let batch = spool.oldest(); batch; batch = spool.oldest()) {
      try {
        await this.store.append(batch.rows, batch.id);
      } catch (err) {
        throw this.failed(err);
      }
      // A crash between the append and this record replays the batch again at the next start.
      spool.replayed(batch.id);
      this.failures = 0;
      this.retryAt = 0;
      this.options.onReplayed?.(batch.rows.length);
    }
  }

  /** Resolves once the spool is empty; rejects if the store refuses a replayed batch. */
  async replayed(): Promise<void> {
    while (this.spool && !this.spool.empty) await this.replayNow();
  }

  /**
   * Graceful stop: the timer stops. Without a spool, what is buffered goes to the store. With one,
   * it goes to the spool first, on disk whatever the store does: the batch whose append is under
   * way (it is the oldest), then the rest. Then the spool is replayed while the store takes it;
   * what is left waits there for the next start.
   */
  async drain(): Promise<void> {
    this.stop();
    try {
      if (!this.spool) return await this.flush();
      if (this.toStoreNow && !this.toStoreNow.spooled) {
        this.spool.append(this.toStoreNow.batch);
        this.toStoreNow.spooled = true;
        this.release(this.toStoreNow.batch);
      }
      for (let batch = this.takeBatch(); batch; batch = this.takeBatch()) await this.toSpool(batch, undefined);
      while (this.inFlight) await this.inFlight.catch(() => undefined);
      await this.replayed().catch(() => undefined);
    } finally {
      // What is neither stored nor spooled stays in the log's sealed segments, for the next start.
      await this.log?.close();
    }
  }
}
