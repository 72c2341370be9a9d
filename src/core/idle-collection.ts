// Garbage left by long work (an import, the demo's traffic, a year's reads) stays on the heap while
// the process is idle: V8 collects when it allocates, and an idle process allocates little. After
// `svc demo` V8 held 60 - 130 MB of heap for 29 MB used. A check every `intervalMs` collects it when
// the event loop was idle for the interval and the heap grew past the bound (HeapBound.checkIdle),
// so that the pause (20 - 40 ms) never lands on busy traffic, and gives what else waits for an idle
// moment its turn (`alsoWhenIdle`: the event store's cached blocks).
import { performance } from 'node:perf_hooks';
import { HeapBound } from './heap-bound.js';

/** The event loop's share of busy time under which an interval counts as idle. */
const IDLE_UTILIZATION = 0.05;

export interface IdleCollectionOptions {
  intervalMs?: number;
  growthBytes?: number;
  /** The event loop's utilization since the last check (tests give their own). */
  utilization?: () => number;
  bound?: HeapBound;
  /** Runs at each idle check, after the collection (its own work decides whether there is anything to give back). */
  alsoWhenIdle?: () => void;
}

function utilizationSinceLastCall(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}

/** Starts the checks; the returned function stops them. The timer never keeps the process alive. */
export function collectWhenIdle(options: IdleCollectionOptions = {}): () => void {
  const bound = options.bound ?? new HeapBound(options.growthBytes ?? 16 * 1024 * 1024);
  const utilization = options.utilization ?? utilizationSinceLastCall();
  const timer = setInterval(() => {
    if (utilization() >= IDLE_UTILIZATION) return;
    bound.checkIdle();
    options.alsoWhenIdle?.();
  }, options.intervalMs ?? 5_000);
  timer.unref();
  return () => clearInterval(timer);
}
