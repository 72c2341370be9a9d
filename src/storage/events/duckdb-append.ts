// Rows through a DuckDB appender a step at a time, the event loop given back between steps: how
// many rows a step builds and how often the appender hands them to its transaction.
import type { DuckDBAppender } from '@duckdb/node-api';
import type { StoredEvent } from './schema.js';
import { eventChunk } from './duckdb-chunk.js';

/**
 * Drops the rows an appender holds and closes it: closed or collected with rows, an appender hands
 * them to whatever transaction its connection has then, outside the one that failed.
 */
export function discard(appender: DuckDBAppender | null): void {
  try {
    appender?.clear();
    appender?.closeSync();
  } catch {
    // An appender left in a failed state refuses these too; the rollback that follows discards what it handed over.
  }
}

/** Rows built into one data chunk between two turns of the event loop (a DuckDB vector holds 2 048). */
export const APPEND_CHUNK_ROWS = 512;
/** The most rows the appender holds before it hands them to the transaction, on a live flush. */
export const LIVE_FLUSH_ROWS = 1024;
/**
 * The same on a bulk write: once per call of 2 048 rows, as an import makes them. A hand-over costs
 * about a millisecond however few its rows, which an import would otherwise pay twice as often.
 */
export const BULK_FLUSH_ROWS = 2048;

/** One step of an append: rows [offset, offset + count) built into a chunk, then flushed or not. */
export interface AppendStep {
  offset: number;
  count: number;
  flush: boolean;
}

/**
 * The steps of an append of `rows` rows: chunks of APPEND_CHUNK_ROWS, the rows flushed every
 * `flushRows` (a multiple of APPEND_CHUNK_ROWS, so that the appender never holds more) and after the
 * last chunk.
 */
export function appendSteps(rows: number, flushRows: number): AppendStep[] {
  const steps: AppendStep[] = [];
  for (let offset = 0; offset < rows; offset += APPEND_CHUNK_ROWS) {
    const end = Math.min(offset + APPEND_CHUNK_ROWS, rows);
    steps.push({ offset, count: end - offset, flush: end % flushRows === 0 || end === rows });
  }
  return steps;
}

/**
 * Appends rows and flushes them into the open transaction, a step at a time with a turn of the
 * event loop between steps, so that the requests arriving meanwhile are answered: the collection
 * endpoint's p99 follows the longest stretch. A second's events at 5 000 events/s take 15 – 30 ms
 * of the event loop to build and flush; a step takes 1 – 4 ms, a chunk of 2 048 rows with a flush
 * up to 10 ms.
 */
export async function appendChunks(appender: DuckDBAppender, rows: readonly StoredEvent[], flushRows: number): Promise<void> {
  for (const { offset, count, flush } of appendSteps(rows.length, flushRows)) {
    if (offset > 0) await new Promise((resolve) => setImmediate(resolve));
    appender.appendDataChunk(eventChunk(rows, offset, count));
    if (flush) appender.flushSync();
  }
}
