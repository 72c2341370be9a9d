// In-memory write buffer in front of the EventStore: flushed every second or every 10 000 events,
// and by `flush()` (tests, import, shutdown). A failed flush keeps its batch and is retried; nothing
// is dropped silently.
import type { StoredEvent } from '../storage/events/schema.js';
import type { EventStore } from '../storage/events/types.js';

export interface WriteBufferOptions {
  maxEvents?: number;
  intervalMs?: number;
  onFlush?: (events: number, ms: number) => void;
  onError?: (err: unknown) => void;
}

export class WriteBuffer {
  private pending: StoredEvent[] = [];
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly maxEvents: number;
  private readonly intervalMs: number;

  constructor(
    private readonly store: EventStore,
    private readonly options: WriteBufferOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.intervalMs = options.intervalMs ?? 1000;
  }

  get size(): number {
    return this.pending.length;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.flush().catch(() => undefined); // failures are reported through onError and retried
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  add(event: StoredEvent): void {
    this.pending.push(event);
    if (this.pending.length >= this.maxEvents && !this.inFlight) this.flush().catch(() => undefined);
  }

  /** Writes everything buffered so far; resolves once it is stored, rejects if the store failed. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const started = performance.now();
    this.inFlight = this.store.append(batch).then(
      () => this.options.onFlush?.(batch.length, performance.now() - started),
      (err) => {
        // Put the batch back in front, in order, for the next attempt.
        this.pending = batch.concat(this.pending);
        this.options.onError?.(err);
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
