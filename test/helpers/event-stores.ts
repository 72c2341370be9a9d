// The EventStore adapters every storage-level suite runs over (the EventStore contract, the rollup
// suite, the rollup == raw equivalence test). An adapter joins all of them with one line here.
import { join } from 'node:path';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventStore } from '../../src/storage/events/types.js';

export interface EventStoreAdapter {
  name: string;
  /** A fresh, empty store: in `dir` (kept across close and reopen), or in memory without one. */
  open(dir?: string): Promise<EventStore>;
}

export const EVENT_STORE_ADAPTERS: readonly EventStoreAdapter[] = [
  { name: 'duckdb', open: (dir) => DuckDbEventStore.open({ path: dir === undefined ? ':memory:' : join(dir, 'events.duckdb'), readers: 2 }) },
];
