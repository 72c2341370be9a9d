// Garbage left by long work (an import, the demo's traffic, a year's reads) stays on the heap while
// the process is idle: V8 collects when it allocates, and an idle process allocates little. After
// `svc demo` that held 92 MB of heap over 29 MB live. A check every `intervalMs` collects it when the
// event loop was idle for the interval and the used heap grew past the bound since the last
// collection, so that the pause (20 - 40 ms) never lands on busy traffic.
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
    if (utilization() < IDLE_UTILIZATION) bound.check();
  }, options.intervalMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}
