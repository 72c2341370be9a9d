// In-memory write buffer in front of the EventStore: flushed every interval (1 s by default) or
// every 10 000 events, and by `flush()` (tests, import, shutdown). What a crash or `kill -9` loses
// is what it holds: the events of the last interval. A failed flush keeps its batch and is retried with
// backoff; nothing is dropped silently. While storage stays down the buffer grows up to a cap, past
// which new events are refused and counted (the process must not run out of memory instead).
import type { StoredEvent } from '../storage/events/schema.js';
import type { EventStore } from '../storage/events/types.js';

export interface WriteBufferOptions {
  maxEvents?: number; // flush when this many are waiting
  intervalMs?: number;
  capacity?: number; // refuse events beyond this many waiting
  now?: () => number;
  onFlush?: (events: number, ms: number) => void;
  onError?: (err: unknown, retryInMs: number) => void;
  onOverflow?: () => void;
}

const MAX_BACKOFF_MS = 30_000;

export class WriteBuffer {
  private pending: StoredEvent[] = [];
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private retryAt = 0;
  private readonly maxEvents: number;
  private readonly intervalMs: number;
  private readonly capacity: number;
  private readonly now: () => number;

  constructor(
    private readonly store: EventStore,
    private readonly options: WriteBufferOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.intervalMs = options.intervalMs ?? 1000;
    this.capacity = options.capacity ?? 250_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.pending.length;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flushWhenDue(), this.intervalMs);
    this.timer.unref();
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

  /** A flush unless one is under way or a failure asked to wait (backoff). */
  private flushWhenDue(): void {
    if (this.inFlight || this.now() < this.retryAt) return;
    this.flush().catch(() => undefined); // reported through onError, retried later
  }

  /** Writes everything buffered so far; resolves once it is stored, rejects if the store failed. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const started = performance.now();
    this.inFlight = this.store.append(batch).then(
      () => {
        this.failures = 0;
        this.retryAt = 0;
        this.options.onFlush?.(batch.length, performance.now() - started);
      },
      (err) => {
        // The batch goes back in front, in order; the next attempt waits 1 s, 2 s, 4 s … 30 s.
        this.pending = batch.concat(this.pending);
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.failures++);
        this.retryAt = this.now() + wait;
        this.options.onError?.(err, wait);
        throw err;
      },
    );
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }
}
