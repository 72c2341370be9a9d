// In-memory write buffer in front of the EventStore: flushed every interval (1 s by default) or
// every 10 000 events, and by `flush()` (tests, import, shutdown). What a crash or `kill -9` loses
// is what it holds: the events of the last interval.
//
// With a spool (the collect role), a batch the store refuses goes to the spool on local disk, and
// while the spool holds batches every later batch goes behind them (events reach the store in the
// order they were collected); a replay takes the oldest spooled batch to the store, again and again,
// backing off while the store fails, until the spool is empty. Memory stays bounded however long
// the store is down. Without a spool (or when the spool cannot be written) a failed flush keeps its
// batch in memory and is retried with backoff; the buffer grows up to a cap, past which new events
// are refused and counted (the process must not run out of memory instead). Nothing is dropped
// silently.
import { randomUUID } from 'node:crypto';
import type { StoredEvent } from '../storage/events/schema.js';
import type { EventStore } from '../storage/events/types.js';
import type { Spool, SpooledBatch } from './spool.js';

export interface WriteBufferOptions {
  maxEvents?: number; // flush when this many are waiting
  intervalMs?: number;
  capacity?: number; // refuse events beyond this many waiting
  now?: () => number;
  /** Where batches the store refuses wait for it (collect role); without one they wait in memory. */
  spool?: Spool;
  onFlush?: (events: number, ms: number) => void;
  onError?: (err: unknown, retryInMs: number) => void;
  onOverflow?: () => void;
  /** A batch went to the spool (the store refused it, or older batches wait there). */
  onSpooled?: (events: number) => void;
  /** A spooled batch reached the store. */
  onReplayed?: (events: number) => void;
}

const MAX_BACKOFF_MS = 30_000;

export class WriteBuffer {
  private pending: StoredEvent[] = [];
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

  constructor(
    private readonly store: EventStore,
    private readonly options: WriteBufferOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.intervalMs = options.intervalMs ?? 1000;
    this.capacity = options.capacity ?? 250_000;
    this.now = options.now ?? Date.now;
    this.spool = options.spool;
  }

  /** Events waiting in memory. */
  get size(): number {
    return this.pending.length;
  }

  /** Starts the timer; a spool left non-empty by an earlier run is replayed from now on. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flushWhenDue(), this.intervalMs);
    this.timer.unref();
    this.replayWhenDue();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Buffers an event; false (and counted) when the buffer is full because storage is failing. */
  add(event: StoredEvent): boolean {
    if (this.pending.length >= this.capacity) {
      this.options.onOverflow?.();
      return false;
    }
    this.pending.push(event);
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
   * Writes everything buffered so far: resolves once it is stored, or, with a spool, once it is
   * stored or spooled; rejects if it is neither (the events stay buffered).
   */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    const batch = this.takeBatch();
    if (!batch) return;
    this.inFlight = this.spool?.empty === false ? this.toSpool(batch, undefined) : this.toStore(batch);
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  /** Everything buffered, as one batch under a new id; undefined when nothing is. */
  private takeBatch(): SpooledBatch | undefined {
    if (this.pending.length === 0) return undefined;
    const batch = { id: randomUUID(), rows: this.pending };
    this.pending = [];
    return batch;
  }

  private async toStore(batch: SpooledBatch): Promise<void> {
    const started = performance.now();
    const current = { batch, spooled: false };
    this.toStoreNow = current;
    try {
      await this.store.append(batch.rows);
    } catch (err) {
      if (current.spooled) return void this.failed(err);
      if (this.spool) return this.toSpool(batch, err);
      this.keep(batch);
      throw this.failed(err);
    } finally {
      this.toStoreNow = null;
    }
    // A stop spooled it while the store was taking it: the spool's oldest batch is stored.
    if (current.spooled) this.spool!.replayed(batch.id);
    this.failures = 0;
    this.retryAt = 0;
    this.options.onFlush?.(batch.rows.length, performance.now() - started);
  }

  /** Spools a batch (after `storeError`, when the store refused it); if the spool fails too, the batch stays buffered. */
  private async toSpool(batch: SpooledBatch, storeError: unknown): Promise<void> {
    if (storeError !== undefined) this.failed(storeError);
    try {
      this.spool!.append(batch);
    } catch (err) {
      this.keep(batch);
      throw this.failed(err);
    }
    this.options.onSpooled?.(batch.rows.length);
  }

  /** The batch goes back in front of the buffer, in order. */
  private keep(batch: SpooledBatch): void {
    this.pending = batch.rows.concat(this.pending);
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
        await this.store.append(batch.rows);
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
    if (!this.spool) return this.flush();
    if (this.toStoreNow && !this.toStoreNow.spooled) {
      this.spool.append(this.toStoreNow.batch);
      this.toStoreNow.spooled = true;
    }
    const batch = this.takeBatch();
    if (batch) await this.toSpool(batch, undefined);
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    await this.replayed().catch(() => undefined);
  }
}
