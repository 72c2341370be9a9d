// The durable webhook queue's sender. Deliveries live in the MetaStore; this engine claims the due
// ones, attempts them with bounded concurrency (overall and per receiver host, so a stuck receiver
// holds at most its own slots), and records every attempt. Claims expire unless renewed, so any
// number of engines, in any number of processes, share one queue: a delivery is attempted by one
// engine at a time. A crash leaves its claimed rows pending: once their claims expire, an engine
// sends them again (at-least-once; receivers deduplicate on svc-delivery-id).
import type { Clock } from '../core/clock.js';
import type { PrometheusRegistry } from '../core/prometheus.js';
import { newHolderId } from '../storage/meta/leases.js';
import { isRetryable, sendWebhook, type AttemptStatus, type SenderOptions } from './sender.js';
import { deliveryHeaders } from './signing.js';
import type { AttemptOutcome, ClaimedDelivery } from '../entities/alerts.js';
import type { AlertStore } from '../storage/meta/alert-types.js';

/** Waits after the 1st, 2nd and 3rd failed attempt; the 4th failure is final (docs/webhooks.md). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 25 * 60_000] as const;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claim outlives its last renewal: how long a crashed engine's deliveries wait. */
export const CLAIM_TTL_MS = 15_000;

export interface DeliveryEngineOptions {
  store: AlertStore;
  clock: Clock;
  sender: SenderOptions;
  maxConcurrent?: number;
  maxPerHost?: number;
  /** How often due deliveries are looked for when nothing wakes the engine. */
  pollMs?: number;
  metrics?: PrometheusRegistry;
  warn?: (message: string) => void;
}

export function outcomeOf(status: AttemptStatus, attempt: number, finishedAt: number): AttemptOutcome {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return isRetryable(status) && delay !== undefined ? { next: 'retry', at: finishedAt + delay } : { next: 'done' };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class DeliveryEngine {
  private readonly store: AlertStore;
  private readonly clock: Clock;
  private readonly maxConcurrent: number;
  private readonly maxPerHost: number;
  /** Names this engine in the claims it makes. */
  private readonly holder = newHolderId();
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly hostLoad = new Map<string, number>();
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  private readonly attemptsTotal;

  constructor(private readonly options: DeliveryEngineOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.maxConcurrent = options.maxConcurrent ?? 32;
    this.maxPerHost = options.maxPerHost ?? 4;
    this.attemptsTotal = options.metrics?.counter('svc_webhook_attempts_total', 'Webhook attempts by outcome (succeeded, failed, rejected)', { labelled: true });
  }

  /** Polls for due deliveries, and keeps the claims of attempts in flight from expiring. */
  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.renewTimer = setInterval(() => this.renewClaims(), CLAIM_TTL_MS / 3);
    this.renewTimer.unref();
    this.wake();
  }

  private renewClaims(): void {
    if (this.inFlight.size === 0) return;
    this.store
      .renewClaims([...this.inFlight.keys()], this.holder, this.clock.now() + CLAIM_TTL_MS)
      .catch((err: unknown) => this.options.warn?.(`webhook queue: renewing claims: ${String(err)}`));
  }

  /**
   * Looks for due deliveries now (after an enqueue, or when a slot frees up). An engine that was
   * never started (a process without the worker role) sends nothing: the worker's poll finds the
   * deliveries this process queued.
   */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err: unknown) => this.options.warn?.(`webhook queue: ${String(err)}`))
      .finally(() => {
        this.pumping = undefined;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.wake();
        }
      });
  }

  /** Sends everything due now and waits for those attempts (tests and benchmarks drive time). */
  async runDue(): Promise<void> {
    for (;;) {
      await this.pumping; // a pump started by wake() may be leasing right now
      await this.pump();
      if (this.inFlight.size === 0 && this.pumping === undefined) return;
      await Promise.all(this.inFlight.values());
    }
  }

  /** Stops taking new work and waits for in-flight attempts to be recorded. */
  async drain(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pumping;
    await Promise.all(this.inFlight.values());
    // Renewed until the last attempt is recorded: no other engine may take an attempt still running.
    clearInterval(this.renewTimer);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private async pump(): Promise<void> {
    const free = this.maxConcurrent - this.inFlight.size;
    if (free <= 0) return;
    const now = this.clock.now();
    // Look past the first `free` rows so deliveries to a saturated host do not hide the others.
    const candidates = await this.store.dueCandidates(now, free * 4);
    const load = new Map(this.hostLoad);
    const chosen: number[] = [];
    for (const c of candidates) {
      if (chosen.length >= free) break;
      if (this.inFlight.has(c.seq)) continue;
      const host = hostOf(c.url);
      if ((load.get(host) ?? 0) >= this.maxPerHost) continue;
      load.set(host, (load.get(host) ?? 0) + 1);
      chosen.push(c.seq);
    }
    const claimed = await this.store.claim(chosen, this.holder, now, now + CLAIM_TTL_MS);
    for (const delivery of claimed) this.launch(delivery);
  }

  private launch(delivery: ClaimedDelivery): void {
    const host = hostOf(delivery.url);
    this.hostLoad.set(host, (this.hostLoad.get(host) ?? 0) + 1);
    const work = this.attempt(delivery)
      .catch((err: unknown) => this.options.warn?.(`webhook delivery ${delivery.id}: ${String(err)}`))
      .finally(() => {
        this.inFlight.delete(delivery.seq);
        const left = (this.hostLoad.get(host) ?? 1) - 1;
        if (left === 0) this.hostLoad.delete(host);
        else this.hostLoad.set(host, left);
        this.wake();
      });
    this.inFlight.set(delivery.seq, work);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    const startedAt = this.clock.now();
    const status = await sendWebhook(
      {
        url: delivery.url,
        body: delivery.body,
        headers: () => deliveryHeaders(delivery.secret, delivery.id, delivery.body, this.clock.now()),
      },
      this.options.sender,
    );
    this.attemptsTotal?.inc({ outcome: status.split(':')[0]! });
    const recorded = await this.store.recordAttempt(delivery.seq, this.holder, attempt, startedAt, status, outcomeOf(status, attempt, this.clock.now()));
    if (!recorded) this.options.warn?.(`webhook delivery ${delivery.id}: attempt ${attempt} (${status}) not recorded: its rule was deleted or its claim expired`);
  }
}
