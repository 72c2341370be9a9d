// The event log: a write-ahead log of collected events, so that `kill -9` loses at most the events
// answered 202 within the last sync period (SVC_EVENT_LOG_SYNC_MS, 100 ms by default) instead of the
// write buffer's whole flush interval.
//
// The log is a series of segment files in SVC_DATA_DIR, `events.log.<n>`, one per batch of the write
// buffer; a segment's first record names its batch's id, drawn when the segment is. Events accepted since the last sync are written to the open segment as one framed record
// (framed-records.ts) and `fdatasync`'d together, every sync period; one write and one sync are under
// way at a time, and what arrives meanwhile goes in the next. When the write buffer takes a batch, the
// open segment is sealed (its last events written and synced) and a new one is opened: the sealed
// segment holds exactly the batch's events, in order. Once the batch is in the event store (or in the
// spool, which is synced too) its segment is deleted.
//
// At start, the segments left by a crash are read back (a torn last record ends a segment) and their
// batches go to the store again, each segment as one batch under its id: the store's append
// recognizes a batch it holds already by its id, so a crash between the store's commit and the
// segment's deletion does not count the batch twice.
import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredEvent } from '../storage/events/schema.js';
import { BIGINT_FIELDS, framedRecord, readRecord } from './framed-records.js';

export const EVENT_LOG_PREFIX = 'events.log.';
const SEGMENT = /^events\.log\.(\d{1,15})$/;

/** A batch of events left in the log by an earlier run, and the segment that holds it. */
export interface LoggedBatch {
  segment: number;
  id: string;
  rows: StoredEvent[];
}

export interface EventLogOptions {
  /** The longest an accepted event waits before it is written and synced. */
  syncMs: number;
  /** A write or sync failed: the events stay in memory (the write buffer) but a crash would lose them. */
  onError?: (err: unknown) => void;
}

interface Segment {
  n: number;
  /** The id of the batch the segment holds. */
  id: string;
  /** Events added and not yet handed to a write. */
  unwritten: StoredEvent[];
  handle: FileHandle | null;
  size: number;
}

export class EventLog {
  private active: Segment;
  private timer: NodeJS.Timeout | null = null;
  /** The writes, syncs and deletions, one after the other. */
  private tail: Promise<void> = Promise.resolve();
  private readonly released = new Set<number>();
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly options: EventLogOptions,
    /** Batches an earlier run left, oldest first: the write buffer stores them (then releases them). */
    readonly recovered: LoggedBatch[],
    next: number,
  ) {
    this.active = newSegment(next);
  }

  /** Opens the log in `dir`: reads back what an earlier run left; `torn` hears the bytes of a record cut short. */
  static open(dir: string, options: EventLogOptions, torn: (bytes: number) => void = () => undefined): EventLog {
    const numbers = readdirSync(dir)
      .map((name) => SEGMENT.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const recovered: LoggedBatch[] = [];
    for (const n of numbers) {
      const { id, rows } = readSegment(join(dir, `${EVENT_LOG_PREFIX}${n}`), torn);
      if (id !== undefined && rows.length > 0) recovered.push({ segment: n, id, rows });
      else unlinkSync(join(dir, `${EVENT_LOG_PREFIX}${n}`));
    }
    return new EventLog(dir, options, recovered, (numbers.at(-1) ?? 0) + 1);
  }

  /** Logs an accepted event: on disk within the sync period. */
  add(event: StoredEvent): void {
    this.active.unwritten.push(event);
    if (this.timer === null && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.writeUnwritten(this.active);
      }, this.options.syncMs);
      this.timer.unref();
    }
  }

  /**
   * Seals the open segment, which holds the events added since the last seal (the write buffer's
   * next batch), and opens the next. `written` resolves once all of the sealed segment is on disk
   * (or its write failed, reported through onError): the batch may then go to the store.
   */
  seal(): { segment: number; id: string; written: Promise<void> } {
    const sealed = this.active;
    this.writeUnwritten(sealed);
    this.enqueue(async () => {
      await sealed.handle?.close();
      sealed.handle = null;
    });
    this.active = newSegment(sealed.n + 1);
    return { segment: sealed.n, id: sealed.id, written: this.tail };
  }

  /** The batch of segment `n` is in the store or the spool: its segment is deleted. */
  release(n: number): void {
    if (this.released.has(n)) return;
    this.released.add(n);
    const recovered = this.recovered.findIndex((batch) => batch.segment === n);
    if (recovered >= 0) this.recovered.splice(recovered, 1);
    this.enqueue(async () => {
      await this.unlink(n);
      this.released.delete(n);
    });
  }

  /**
   * Graceful stop, once every batch is stored or spooled: the open segment, empty by then, is
   * deleted (one that holds events is written and kept, for the next start). Events added after
   * close are not logged.
   */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closed = true;
    const last = this.active;
    this.writeUnwritten(last);
    this.enqueue(async () => {
      await last.handle?.close();
      last.handle = null;
      if (last.size === 0) await this.unlink(last.n);
    });
    await this.tail;
  }

  /** Hands a segment's unwritten events to one write and one sync, behind those under way. */
  private writeUnwritten(segment: Segment): void {
    if (segment.unwritten.length === 0) return;
    const rows = segment.unwritten;
    segment.unwritten = [];
    this.enqueue(async () => {
      if (segment.handle === null) {
        segment.handle = await open(join(this.dir, `${EVENT_LOG_PREFIX}${segment.n}`), 'w', 0o600);
        syncFolder(this.dir); // the new file's entry survives a power cut too
      }
      // A segment's first write starts with its batch id.
      const group = framedRecord(encodeGroup(rows));
      const records = segment.size === 0 ? Buffer.concat([framedRecord({ batch: segment.id }), group]) : group;
      let written = 0;
      while (written < records.length) {
        written += (await segment.handle.write(records, written, records.length - written, segment.size + written)).bytesWritten;
      }
      segment.size += records.length;
      await segment.handle.datasync();
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.tail = this.tail.then(work).catch((err: unknown) => this.options.onError?.(err));
  }

  private unlink(n: number): Promise<void> {
    return rm(join(this.dir, `${EVENT_LOG_PREFIX}${n}`), { force: true });
  }
}

/**
 * A record of the log: the events of one sync, as the field names once and each event's values in
 * that order (half the bytes of an object per event, and faster to write), bigints as decimal strings.
 */
interface LoggedGroup {
  fields: string[];
  rows: unknown[][];
}

/** Every collected row has the same fields in the same order (the pipeline spells them out): the first names them for all. */
function encodeGroup(rows: readonly StoredEvent[]): LoggedGroup {
  const fields = Object.keys(rows[0]!);
  const bigints = BIGINT_FIELDS.map((field) => fields.indexOf(field));
  const values = new Array<unknown[]>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = Object.values(rows[i]!);
    for (const at of bigints) row[at] = String(row[at]);
    values[i] = row;
  }
  return { fields, rows: values };
}

function decodeGroup(group: LoggedGroup, into: StoredEvent[]): void {
  const { fields } = group;
  for (const values of group.rows) {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) row[fields[i]!] = values[i];
    for (const field of BIGINT_FIELDS) row[field] = BigInt(row[field] as string);
    into.push(row as unknown as StoredEvent);
  }
}

const newSegment = (n: number): Segment => ({ n, id: randomUUID(), unwritten: [], handle: null, size: 0 });

/** A segment's batch id and the events of its whole records; a torn tail is left out (the segment is deleted once its batch is stored). */
function readSegment(path: string, torn: (bytes: number) => void): { id: string | undefined; rows: StoredEvent[] } {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const rows: StoredEvent[] = [];
    let id: string | undefined;
    let offset = 0;
    for (let record = readRecord<LoggedGroup | { batch: string }>(fd, 0, fileSize); record; record = readRecord(fd, offset, fileSize - offset)) {
      if ('batch' in record.payload) id = record.payload.batch;
      else decodeGroup(record.payload, rows);
      offset += record.length;
    }
    if (offset < fileSize) torn(fileSize - offset);
    return { id, rows };
  } finally {
    closeSync(fd);
  }
}

function syncFolder(dir: string): void {
  const folder = openSync(dir, 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}
