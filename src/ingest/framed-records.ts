// The framing of svc's append-only files on local disk (the spool, the event log): each record is
// [payload length: u32 BE][CRC-32 of the payload: u32 BE][payload, UTF-8 JSON]. A record cut short
// by a crash (a length past the end of the file, or a checksum that does not match) ends the
// readable part of a file. Collected events are written with their bigint fields as decimal strings.
import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { StoredEvent } from '../storage/events/schema.js';

export const HEADER_BYTES = 8;
/** Larger than any record svc writes (10 000 events of at most a few KB): a bigger length is a torn header. */
const MAX_RECORD_BYTES = 1 << 30;
/** The fields of StoredEvent that are bigints, written as decimal strings. */
export const BIGINT_FIELDS = ['visitorId', 'sessionId'] as const;

/** One framed record of `payload`. */
export function framedRecord(payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload));
  const record = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  record.writeUInt32BE(body.length, 0);
  record.writeUInt32BE(crc32(body), 4);
  body.copy(record, HEADER_BYTES);
  return record;
}

/** The record at `offset` of `fd` if it is whole (within `limit` bytes): its payload and length; else undefined. */
export function readRecord<P>(fd: number, offset: number, limit: number): { payload: P; length: number } | undefined {
  if (limit < HEADER_BYTES) return undefined;
  const header = Buffer.alloc(HEADER_BYTES);
  if (readSync(fd, header, 0, HEADER_BYTES, offset) < HEADER_BYTES) return undefined;
  const bodyLength = header.readUInt32BE(0);
  if (bodyLength > MAX_RECORD_BYTES || HEADER_BYTES + bodyLength > limit) return undefined;
  const body = Buffer.alloc(bodyLength);
  if (readSync(fd, body, 0, bodyLength, offset + HEADER_BYTES) < bodyLength) return undefined;
  if (crc32(body) !== header.readUInt32BE(4)) return undefined;
  try {
    return { payload: JSON.parse(body.toString('utf8')) as P, length: HEADER_BYTES + bodyLength };
  } catch {
    return undefined;
  }
}

/** A collected event as JSON can hold it. */
export function encodeRow(row: StoredEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const field of BIGINT_FIELDS) out[field] = String(row[field]);
  return out;
}

export function decodeRow(row: Record<string, unknown>): StoredEvent {
  const event = { ...row } as unknown as StoredEvent;
  for (const field of BIGINT_FIELDS) event[field] = BigInt(row[field] as string);
  return event;
}
