// The EventStore adapters every storage-level suite runs over (the EventStore contract, the rollup
// suite, the rollup == raw equivalence test, the alert rule metrics). An adapter joins all of them with one line here.
import { join } from 'node:path';
import { ClickHouseEventStore } from '../../src/storage/events/clickhouse.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';

export interface EventStoreAdapter {
  name: string;
  /**
   * A fresh, empty store: in `dir` (kept across close and reopen), or in memory without one. A
   * server-backed adapter keeps the store of a `dir` on its server, found again by the same `dir`.
   */
  open(dir?: string): Promise<EventStore>;
}

export const EVENT_STORE_ADAPTERS: readonly EventStoreAdapter[] = [
  { name: 'duckdb', open: (dir) => DuckDbEventStore.open({ path: dir === undefined ? ':memory:' : join(dir, 'events.duckdb'), readers: 2 }) },
  { name: 'clickhouse', open: async (dir) => ClickHouseEventStore.open({ url: await clickhouseDatabaseOf(dir) }) },
];

/** One database of the test process's ClickHouse server per directory (a new one without). */
const clickhouseDatabases = new Map<string, Promise<string>>();
function clickhouseDatabaseOf(dir: string | undefined): Promise<string> {
  if (dir === undefined) return freshDatabaseUrl();
  let url = clickhouseDatabases.get(dir);
  if (!url) clickhouseDatabases.set(dir, (url = freshDatabaseUrl()));
  return url;
}
