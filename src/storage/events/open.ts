// Chooses the EventStore adapter from the configuration: ClickHouse when SVC_CLICKHOUSE_URL is set
// (every process of a deployment on one database), else the process's own DuckDB file in the data folder.
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { ClickHouseEventStore } from './clickhouse.js';
import { DuckDbEventStore } from './duckdb.js';
import type { EventStore } from './types.js';

export function openEventStore(config: Pick<Config, 'clickhouseUrl' | 'dataDir' | 'duckdbMemoryLimit'>): Promise<EventStore> {
  if (config.clickhouseUrl !== undefined) return ClickHouseEventStore.open({ url: config.clickhouseUrl });
  return DuckDbEventStore.open({ path: join(config.dataDir, 'events.duckdb'), memoryLimit: config.duckdbMemoryLimit });
}
