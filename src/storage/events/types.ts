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
  /** Start a bulk write (imports): rows appended over time, stored together at commit or not at all. */
  beginBulk(): Promise<BulkAppend>;
  /** Run a read query with positional parameters (`?`), rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Run a statement that returns nothing of interest. Every exec runs in one session, in order: a
   * temporary table one exec creates is there for the next.
   */
  exec(sql: string, params?: readonly SqlValue[]): Promise<void>;
  close(): Promise<void>;
}

/** A bulk write in progress. Its rows are invisible to readers until `commit()`. */
export interface BulkAppend {
  append(rows: readonly StoredEvent[]): Promise<void>;
  /** Stores every appended row at once; the bulk write is over (a second commit is refused). */
  commit(): Promise<void>;
  /** Stores none of them; the bulk write is over. Does nothing once it is over. */
  rollback(): Promise<void>;
}
