// Event rows into DuckDB data chunks, a column at a time, through DuckDB's C API.
//
// The node-api vector classes take one value at a time and write every string with its own native
// call: about 5 µs a row, most of an import's time. Here each column is laid out in a JS buffer in
// DuckDB's own vector format and copied in with one call. Strings of at most 12 bytes are stored
// inline in their 16-byte `duckdb_string_t` (a uint32 length, then the bytes, zero-padded: the
// layout duckdb.h documents), so only longer strings, or short ones that are not ASCII, take a
// native call each. Typed arrays use the platform's byte order, as DuckDB's vectors do.
import { endianness } from 'node:os';
import duckdb from '@duckdb/node-bindings';
import { BIGINT, BOOLEAN, DATE, DuckDBDataChunk, DuckDBDateValue, INTEGER, VARCHAR, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { EVENT_COLUMNS, type EventColumnValue, type StoredEvent } from './schema.js';
import type { ColumnType } from './table-spec.js';

const DAY_MS = 86_400_000;
const STRING_T_BYTES = 16;
const INLINE_STRING_BYTES = 12;

/** Days since 1970-01-01 of a 'YYYY-MM-DD' date, DuckDB's DATE; anything else is refused. */
export function dayToEpochDays(day: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  // Date.parse also takes a day past the end of its month (2026-02-30 → March 2): read it back.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) throw new RangeError(`not a calendar day: ${day}`);
  return ms / DAY_MS;
}

/** Scratch buffers of one chunk, reused from chunk to chunk (they are copied into DuckDB). */
class Scratch {
  readonly buffer: ArrayBuffer;
  readonly bytes: Uint8Array;
  readonly words: Uint32Array;
  readonly int32: Int32Array;
  readonly int64: BigInt64Array;
  readonly validity: Uint32Array;
  readonly validity64: BigUint64Array;
  readonly validityBuffer: ArrayBuffer;
  constructor(readonly rows: number) {
    const buffer = (this.buffer = new ArrayBuffer(rows * STRING_T_BYTES));
    this.bytes = new Uint8Array(buffer);
    this.words = new Uint32Array(buffer);
    this.int32 = new Int32Array(buffer);
    this.int64 = new BigInt64Array(buffer);
    const validityWords = Math.ceil(rows / 64);
    this.validity = new Uint32Array(validityWords * 2);
    this.validityBuffer = new ArrayBuffer(validityWords * 8);
    this.validity64 = new BigUint64Array(this.validityBuffer);
  }
}

type Value = EventColumnValue;

/** Reads a column's value off a row. */
type ValueOf = (row: StoredEvent) => Value;

/** Writes one column of rows [offset, offset + count) into `vector`; null values clear their validity bit. */
type ColumnWriter = (vector: duckdb.Vector, scratch: Scratch, rows: readonly StoredEvent[], offset: number, count: number, value: ValueOf) => void;

/**
 * Validity as DuckDB keeps it: bit `i % 64` of uint64 word `i / 64`, set when the row is valid.
 * Built as 32-bit halves, then joined into uint64 words so the byte order is the platform's.
 */
function writeValidity(vector: duckdb.Vector, scratch: Scratch, nulls: readonly number[], count: number): void {
  if (nulls.length === 0) return;
  const { validity, validity64 } = scratch;
  const words = Math.ceil(count / 64);
  validity.fill(0xffffffff, 0, words * 2);
  for (const i of nulls) validity[i >>> 5]! &= ~(1 << (i & 31));
  for (let w = 0; w < words; w++) validity64[w] = BigInt(validity[2 * w]!) | (BigInt(validity[2 * w + 1]!) << 32n);
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, scratch.validityBuffer, 0, words * 8);
}

// A BIGINT given as a JS number is written as two 32-bit halves, which spares a BigInt per value
// (timestamps, on every row); the halves go in the platform's order.
const [LOW_HALF, HIGH_HALF] = endianness() === 'LE' ? [0, 1] : [1, 0];
const TWO_32 = 2 ** 32;

function numberColumn(width: 1 | 4 | 8, toNumber: (v: NonNullable<Value>) => number | bigint): ColumnWriter {
  return (vector, scratch, rows, offset, count, value) => {
    const nulls: number[] = [];
    const { bytes, int32, int64 } = scratch;
    for (let i = 0; i < count; i++) {
      const v = value(rows[offset + i]!);
      if (v === null) {
        nulls.push(i);
        continue;
      }
      const n = toNumber(v);
      if (width === 8) {
        if (typeof n === 'bigint') int64[i] = n;
        else {
          int32[2 * i + LOW_HALF] = n % TWO_32 | 0;
          int32[2 * i + HIGH_HALF] = Math.floor(n / TWO_32);
        }
      } else if (width === 4) int32[i] = n as number;
      else bytes[i] = n as number;
    }
    duckdb.copy_data_to_vector(vector, 0, scratch.buffer, 0, count * width);
    writeValidity(vector, scratch, nulls, count);
  };
}

const int32Value = (v: NonNullable<Value>): number => {
  const n = v as number;
  // An Int32Array would wrap a value out of range silently; the ingest steps never produce one.
  if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw new RangeError(`not a 32-bit integer: ${n}`);
  return n;
};

const [INT64_MIN, INT64_END] = [-(2n ** 63n), 2n ** 63n];
const int64Value = (v: NonNullable<Value>): number | bigint => {
  if (typeof v === 'bigint') {
    // A BigInt64Array would wrap a value out of range silently.
    if (v < INT64_MIN || v >= INT64_END) throw new RangeError(`not a 64-bit integer: ${v}`);
    return v;
  }
  // Past 2^53 a number is no longer exact: such a value is a bug upstream, not a row to store.
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v as number}`);
  return v as number;
};

const writeString: ColumnWriter = (vector, scratch, rows, offset, count, value) => {
  const nulls: number[] = [];
  const long: number[] = [];
  const { bytes, words } = scratch;
  bytes.fill(0, 0, count * STRING_T_BYTES);
  for (let i = 0; i < count; i++) {
    const v = value(rows[offset + i]!) as string | null;
    if (v === null) {
      nulls.push(i);
      continue;
    }
    const n = v.length;
    let inline = n <= INLINE_STRING_BYTES;
    const base = i * STRING_T_BYTES + 4;
    for (let j = 0; inline && j < n; j++) {
      const c = v.charCodeAt(j);
      if (c > 0x7f) inline = false;
      else bytes[base + j] = c;
    }
    if (inline) words[i * 4] = n;
    else {
      bytes.fill(0, base, base + INLINE_STRING_BYTES);
      long.push(i);
    }
  }
  duckdb.copy_data_to_vector(vector, 0, scratch.buffer, 0, count * STRING_T_BYTES);
  for (const i of long) duckdb.vector_assign_string_element(vector, i, value(rows[offset + i]!) as string);
  writeValidity(vector, scratch, nulls, count);
};

function writerFor(type: ColumnType): ColumnWriter {
  switch (type) {
    case 'VARCHAR':
      return writeString;
    case 'BIGINT':
      return numberColumn(8, int64Value);
    case 'INTEGER':
      return numberColumn(4, int32Value);
    case 'BOOLEAN':
      return numberColumn(1, (v) => (v ? 1 : 0));
    case 'DATE': {
      // The rows of a chunk nearly always share their day: it is converted once.
      let day = '';
      let epochDays = 0;
      return numberColumn(4, (v) => (v === day ? epochDays : (epochDays = dayToEpochDays((day = v as string)))));
    }
  }
}

const DUCKDB_TYPES: Record<ColumnType, DuckDBType> = { VARCHAR, BIGINT, DATE, BOOLEAN, INTEGER };
const CHUNK_TYPES = EVENT_COLUMNS.map((c) => DUCKDB_TYPES[c.type]);
const COLUMNS = EVENT_COLUMNS.map((c) => ({ value: c.value as ValueOf, write: writerFor(c.type) }));
const MAX_CHUNK_ROWS = duckdb.vector_size();
const scratch = new Scratch(MAX_CHUNK_ROWS);

/** A data chunk holding rows [offset, offset + count) of `rows`; count is at most MAX_CHUNK_ROWS. */
export function eventChunk(rows: readonly StoredEvent[], offset: number, count: number): DuckDBDataChunk {
  if (count > MAX_CHUNK_ROWS) throw new RangeError(`a chunk holds at most ${MAX_CHUNK_ROWS} rows`);
  const chunk = DuckDBDataChunk.create(CHUNK_TYPES, count);
  COLUMNS.forEach((column, c) => {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
    column.write(vector, scratch, rows, offset, count, column.value);
  });
  return chunk;
}

/**
 * A row's values as a statement's parameters, each checked and typed as its column is in a chunk
 * (so that a row a bulk write sends by a statement is refused or stored exactly as the appender's).
 */
export function eventParams(row: StoredEvent): DuckDBValue[] {
  return EVENT_COLUMNS.map((column): DuckDBValue => {
    const v = column.value(row);
    if (v === null) return null;
    switch (column.type) {
      case 'VARCHAR':
        return v as string;
      case 'BIGINT':
        return BigInt(int64Value(v));
      case 'INTEGER':
        return int32Value(v);
      case 'BOOLEAN':
        return Boolean(v);
      case 'DATE':
        return new DuckDBDateValue(dayToEpochDays(v as string));
    }
  });
}
