// The collection spool: batches of collected events the EventStore did not take, kept on local disk
// (`events.spool` in SVC_DATA_DIR) until it does. The file is append-only and every write is
// fsync'd before it returns. It holds two kinds of record, in order:
//
//   batch     {"batch": id, "rows": [...]}   events answered 202 and not yet stored
//   replayed  {"replayed": id}               the batch `id`, and every batch before it, is stored
//
// Each record is framed as [payload length: u32 BE][CRC-32 of the payload: u32 BE][payload, UTF-8
// JSON] (framed-records.ts). A record cut short by a crash (a length past the end of the file, or a
// checksum that does not match) ends the readable part: it and anything after it are dropped when the file is opened,
// so the next append follows the last whole record. Once every batch is replayed the file is
// emptied. Batches are replayed oldest first, each under its own stable id.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredEvent } from '../storage/events/schema.js';
import { decodeRow, encodeRow, framedRecord, readRecord } from './framed-records.js';

export const SPOOL_FILE = 'events.spool';

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
    const offset = this.size;
    const length = this.write({ batch: batch.id, rows: batch.rows.map(encodeRow) });
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
    const record = framedRecord(payload);
    let written = 0;
    while (written < record.length) written += writeSync(this.fd, record, written, record.length - written, this.size + written);
    fsyncSync(this.fd);
    this.size += record.length;
    return record.length;
  }

  /** The record at `offset` if it is whole (within `limit` bytes of the file). */
  private read(offset: number, limit: number): { payload: Payload; length: number } | undefined {
    return readRecord<Payload>(this.fd, offset, limit);
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
