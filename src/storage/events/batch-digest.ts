// A batch of events' identity: a digest of its rows, column by column, in order. A batch read back
// from the event log or the spool after a crash has the same digest as when it was first appended,
// which is how a store that has it already recognizes it.
import { createHash } from 'node:crypto';
import { EVENT_COLUMNS, type StoredEvent } from './schema.js';

/** The first 8 bytes of SHA-256 over the rows, as a signed 64-bit integer. */
export function batchDigest(rows: readonly StoredEvent[]): bigint {
  const hash = createHash('sha256');
  // Separators no value holds (they are control characters, which collection never keeps).
  for (const row of rows) hash.update(EVENT_COLUMNS.map((c) => valueText(c.value(row))).join('\u0001') + '\u0002');
  return hash.digest().readBigInt64BE(0);
}

const valueText = (value: unknown): string => (value === null ? '\u0000' : `${typeof value}:${String(value)}`);
