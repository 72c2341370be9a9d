// The EventStore a process runs on: DuckDB in its data folder, or ClickHouse when given its URL.
// Each engine's module is loaded only by the process that runs on it: a process on DuckDB never holds
// the ClickHouse client, nor one on ClickHouse DuckDB's library (docs/performance.md, memory).
import { join } from 'node:path';
import type { EventStore } from './types.js';

export interface EventStoreLocation {
  dataDir: string;
  /** DuckDB's memory_limit (e.g. '512MiB'). */
  duckdbMemoryLimit?: string;
  /** DuckDB's memory_limit while an import rolls up (`EventStore.whileImporting`). */
  duckdbImportMemoryLimit?: string;
  /** Hears what the store carries on without (DuckDB: a change of its pool's limit it refused). */
  warn?: (err: unknown, message: string) => void;
  /** `http(s)://[user:password@]host:port/database`: ClickHouse (the database is created if missing); unset, DuckDB. */
  clickhouseUrl?: string | undefined;
}

export async function openEventStore(location: EventStoreLocation): Promise<EventStore> {
  if (location.clickhouseUrl !== undefined) {
    const { ClickHouseEventStore } = await import('./clickhouse.js');
    return ClickHouseEventStore.open({ url: location.clickhouseUrl });
  }
  const { DuckDbEventStore } = await import('./duckdb.js');
  return DuckDbEventStore.open({ path: join(location.dataDir, 'events.duckdb'), memoryLimit: location.duckdbMemoryLimit, importMemoryLimit: location.duckdbImportMemoryLimit, warn: location.warn });
}
