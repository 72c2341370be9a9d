// Cache invalidation across processes: the port, and its in-process implementation (one process,
// whose caches hear their own invalidations). The Redis one is redis-invalidations.ts.

export interface Invalidations {
  /** Tells every listener of `topic`, in this process and in every other one, that `key` changed. */
  publish(topic: string, key: string): void;
  /** Calls `listener` with each key of `topic` that changed, wherever it was published. */
  subscribe(topic: string, listener: (key: string) => void): void;
}

export class LocalInvalidations implements Invalidations {
  private readonly listeners = new Map<string, Array<(key: string) => void>>();

  publish(topic: string, key: string): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(key);
  }

  subscribe(topic: string, listener: (key: string) => void): void {
    const list = this.listeners.get(topic);
    if (list) list.push(listener);
    else this.listeners.set(topic, [listener]);
  }
}
