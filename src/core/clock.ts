// Time is injected everywhere so that tests can move it (session gaps, salt rotation, retries).
export interface Clock {
  now(): number; // epoch milliseconds
}

/** A value now, or later: cache hits on the ingest hot path stay synchronous (no microtask hop). */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance by hand. */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
