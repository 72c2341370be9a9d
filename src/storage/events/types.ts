import type { StoredEvent } from './schema.js';
import type { Dialect } from './dialect.js';

export type SqlValue = string | number | bigint | boolean | null;

/**
 * The EventStore port: raw events and (later) rollups. Queries are compiled elsewhere through the
 * adapter's `dialect`; the adapter only runs them. Every query over `events` must be bounded by
 * site and time (see src/stats).
 */
export interface EventStore {
  readonly dialect: Dialect;
  /** Create tables that do not exist yet. */
  init(): Promise<void>;
  /** Append a batch atomically: either every row is stored or none is (the caller retries). */
  append(rows: readonly StoredEvent[]): Promise<void>;
  /** Run a read query with positional parameters (`?`), rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Run a statement that returns nothing of interest. */
  exec(sql: string, params?: readonly SqlValue[]): Promise<void>;
  close(): Promise<void>;
}
