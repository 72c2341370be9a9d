// Work that one process at a time may do, whatever the number of processes on the MetaStore: a
// named lease in the MetaStore, renewed while the work runs and released after it. A process that
// stops without releasing holds it until it expires. Callers in the same process wait in turn
// (in order, without polling the database); callers in other processes poll until it is free.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { MetaStore } from './types.js';

export interface LeaseOptions {
  /** How long the lease outlives its last renewal. */
  ttlMs?: number;
  /** How often a waiting caller asks again while another process holds the lease. */
  retryMs?: number;
  /** Told when a renewal finds the lease taken over (the work had stalled past its expiry). */
  onLost?: (name: string) => void;
}

const DEFAULT_LEASE_TTL_MS = 30_000;
const DEFAULT_RETRY_MS = 100;

const PROCESS_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
let holders = 0;

/** A holder name no other holder has, in any process: host, pid, a per-process random part, a count. */
export function newHolderId(): string {
  return `${PROCESS_ID}:${++holders}`;
}

// The in-process queue in front of the database lease: one chain per store and lease name.
const queues = new WeakMap<MetaStore, Map<string, Promise<unknown>>>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` while holding the lease `name`, waiting for it first. */
export function withLease<T>(meta: MetaStore, name: string, work: () => Promise<T>, options: LeaseOptions = {}): Promise<T> {
  let byName = queues.get(meta);
  if (!byName) queues.set(meta, (byName = new Map()));
  const next = (byName.get(name) ?? Promise.resolve()).then(() => holding(meta, name, work, options));
  const settled = next.catch(() => undefined);
  byName.set(name, settled);
  // The chain entry goes once nothing is queued behind it, so names do not accumulate.
  void settled.then(() => {
    if (byName.get(name) === settled) byName.delete(name);
  });
  return next;
}

async function holding<T>(meta: MetaStore, name: string, work: () => Promise<T>, options: LeaseOptions): Promise<T> {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const holder = newHolderId();
  for (;;) {
    const now = Date.now();
    if (await meta.acquireLease(name, holder, now, now + ttlMs)) break;
    await sleep(options.retryMs ?? DEFAULT_RETRY_MS);
  }
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = meta.renewLease(name, holder, Date.now() + ttlMs).then(
      (held) => {
        if (!held) options.onLost?.(name);
      },
      () => undefined, // a failed renewal is retried at the next tick; the lease expires otherwise
    );
  }, Math.max(1, Math.floor(ttlMs / 3)));
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewing;
    await meta.releaseLease(name, holder);
  }
}
