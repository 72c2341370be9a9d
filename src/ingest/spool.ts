// The collection spool: batches of collected events the EventStore did not take, kept on local disk
// (`events.spool` in SVC_DATA_DIR) until it does. The file is append-only and every write is
// fsync'd before it returns. It holds two kinds of record, in order:
//
//   batch     {"batch": id, "rows": [...]}   events answered 202 and not yet stored
//   replayed  {"replayed": id}               the batch `id`, and every batch before it, is stored
//
// Each record is framed as [payload length: u32 BE][CRC-32 of the payload: u32 BE][payload, UTF-8
// JSON]. A record cut short by a crash (a length past the end of the file, or a checksum that does
// not match) ends the readable part: it and anything after it are dropped when the file is opened,
// so the next append follows the last whole record. Once every batch is replayed the file is
// emptied. Batches are replayed oldest first, each under its own stable id.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { StoredEvent } from '../storage/events/schema.js';

export const SPOOL_FILE = 'events.spool';

const HEADER_BYTES = 8;
/** Larger than any batch the write buffer makes (10 000 events of at most a few KB): a bigger length is a torn header. */
const MAX_RECORD_BYTES = 1 << 30;
/** The fields of StoredEvent that are bigints, written as decimal strings. */
const BIGINT_FIELDS = ['visitorId', 'sessionId'] as const;

export interface SpooledBatch {
  id: string;
  rows: StoredEvent[];
}

/** A batch record not yet replayed: where it is in the file, and what it holds. */
interface PendingRecord {
  id: string;
  offset: number;
  length: number;
  events: number;
}

type Payload = { batch: string; rows: Array<Record<string, unknown>> } | { replayed: string };

export class Spool {
  private readonly pending: PendingRecord[] = [];
  private pendingEvents = 0;
  private size = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  /** Opens (or creates) the spool in `dir`; a torn last record is dropped; `torn` hears its size in bytes. */
  static open(dir: string, torn: (bytes: number) => void = () => undefined): Spool {
    const path = join(dir, SPOOL_FILE);
    const spool = new Spool(path, openSync(path, 'a+', 0o600));
    spool.load(torn);
    // The folder's entry for the file is durable too (a power cut right after it was created).
    const folder = openSync(dir, 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
    return spool;
  }

  /** Batches waiting to be replayed. */
  get batches(): number {
    return this.pending.length;
  }

  /** Events waiting to be replayed. */
  get events(): number {
    return this.pendingEvents;
  }

  /** Bytes of the file (replayed records included, until it is emptied). */
  get bytes(): number {
    return this.size;
  }

  get empty(): boolean {
    return this.pending.length === 0;
  }

  /** Adds a batch behind the others; on disk when it returns. */
  append(batch: SpooledBatch): void {
    const rows = batch.rows.map((row) => {
      const out: Record<string, unknown> = { ...row };
      for (const field of BIGINT_FIELDS) out[field] = String(row[field]);
      return out;
    });
    const offset = this.size;
    const length = this.write({ batch: batch.id, rows });
    this.pending.push({ id: batch.id, offset, length, events: batch.rows.length });
    this.pendingEvents += batch.rows.length;
  }

  /** The oldest batch not yet replayed, read back from the file. */
  oldest(): SpooledBatch | undefined {
    const record = this.pending[0];
    if (!record) return undefined;
    const payload = this.read(record.offset, record.length)?.payload;
    if (!payload || !('batch' in payload)) throw new Error(`${this.path}: the record of batch ${record.id} no longer reads back`);
    return { id: payload.batch, rows: payload.rows.map(decodeRow) };
  }

  /**
   * Records that the oldest batch (`id`) is stored. The file is emptied once no batch is left;
   * otherwise a `replayed` record says so, on disk when it returns.
   */
  replayed(id: string): void {
    const record = this.pending[0];
    if (record?.id !== id) throw new Error(`batch ${id} is not the oldest in the spool`);
    this.pending.shift();
    this.pendingEvents -= record.events;
    if (this.pending.length === 0) {
      ftruncateSync(this.fd, 0);
      fsyncSync(this.fd);
      this.size = 0;
    } else {
      this.write({ replayed: id });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Writes one framed record at the end of the file and syncs it; returns its whole length. */
  private write(payload: Payload): number {
    const body = Buffer.from(JSON.stringify(payload));
    const record = Buffer.allocUnsafe(HEADER_BYTES + body.length);
    record.writeUInt32BE(body.length, 0);
    record.writeUInt32BE(crc32(body), 4);
    body.copy(record, HEADER_BYTES);
    let written = 0;
    while (written < record.length) written += writeSync(this.fd, record, written, record.length - written, this.size + written);
    fsyncSync(this.fd);
    this.size += record.length;
    return record.length;
  }

  /** The record at `offset` if it is whole (within `limit` bytes of the file): its payload and length; else undefined. */
  private read(offset: number, limit: number): { payload: Payload; length: number } | undefined {
    if (limit < HEADER_BYTES) return undefined;
    const header = Buffer.alloc(HEADER_BYTES);
    if (readSync(this.fd, header, 0, HEADER_BYTES, offset) < HEADER_BYTES) return undefined;
    const bodyLength = header.readUInt32BE(0);
    if (bodyLength > MAX_RECORD_BYTES || HEADER_BYTES + bodyLength > limit) return undefined;
    const body = Buffer.alloc(bodyLength);
    if (readSync(this.fd, body, 0, bodyLength, offset + HEADER_BYTES) < bodyLength) return undefined;
    if (crc32(body) !== header.readUInt32BE(4)) return undefined;
    try {
      return { payload: JSON.parse(body.toString('utf8')) as Payload, length: HEADER_BYTES + bodyLength };
    } catch {
      return undefined;
    }
  }

  /** Reads the file's whole records: the batches not replayed yet; a torn tail is cut off. */
  private load(torn: (bytes: number) => void): void {
    const fileSize = fstatSync(this.fd).size;
    let offset = 0;
    for (let record = this.read(0, fileSize); record; record = this.read(offset, fileSize - offset)) {
      const { payload, length } = record;
      if ('batch' in payload) {
        this.pending.push({ id: payload.batch, offset, length, events: payload.rows.length });
        this.pendingEvents += payload.rows.length;
      } else {
        // Batches are replayed in order: a replayed record covers every batch before it.
        const at = this.pending.findIndex((pending) => pending.id === payload.replayed);
        for (const done of this.pending.splice(0, at + 1)) this.pendingEvents -= done.events;
      }
      offset += length;
    }
    if (offset < fileSize) {
      ftruncateSync(this.fd, offset);
      fsyncSync(this.fd);
      torn(fileSize - offset);
    }
    this.size = offset;
  }
}

function decodeRow(row: Record<string, unknown>): StoredEvent {
  const event = { ...row } as unknown as StoredEvent;
  for (const field of BIGINT_FIELDS) event[field] = BigInt(row[field] as string);
  return event;
}
