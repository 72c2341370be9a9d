// What the readers of raw-event exports (GoatCounter's, Umami's) share: each turns its CSV rows into
// lines of svc's NDJSON import (src/ingest/importer.ts, importReadLines), handed on as their fields a
// CSV chunk (or, Umami's, 128 lines) at a time, counting what it leaves out on the way, and reads its
// file from disk as it comes, gzipped or not, and an upload as it arrives.
import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ImportLineFields } from '../ingest/import.js';
import { csvRecords, detached, type CsvRecord } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { MAX_COMPRESSION_RATIO } from './zip.js';

/** What a reader handed on and left out of an export. */
export interface RawEventSkips {
  /** The CSV line of each line handed on, in order (the NDJSON import numbers its lines 1, 2, …). */
  sourceLines: number[];
  /** The first and last instant (epoch milliseconds) of the rows handed on. */
  first: number | null;
  last: number | null;
  /** Rows the export marks as a bot's, or whose browser is one. */
  bots: number;
  /** Rows that are not one of the export's (fields missing, a date that does not read), and rows of a kind svc does not take. */
  badRows: number;
  /** The first REPORTED of them, with their reason. */
  lines: Array<{ line: number; reason: string }>;
  /** Custom events kept under a name the event-name rule allows, other than the export's lowercased (Umami's `Download PDF` as `download_pdf`). */
  renamedEvents: number;
}

export function newSkips(): RawEventSkips {
  return { sourceLines: [], first: null, last: null, bots: 0, badRows: 0, lines: [], renamedEvents: 0 };
}

/** How many skipped rows the report lists. */
export const REPORTED = 100;

/** Counts a row left out, listing it with its reason while the list has room. */
export function skipRow(skips: RawEventSkips, line: number, reason: string): void {
  skips.badRows++;
  if (skips.lines.length < REPORTED) skips.lines.push({ line, reason });
}

/** Records a row handed on as an NDJSON line: its CSV line, and its instant in the export's span. */
export function handOn(skips: RawEventSkips, line: number, ms: number): void {
  skips.sourceLines.push(line);
  if (skips.first === null || ms < skips.first) skips.first = ms;
  if (skips.last === null || ms > skips.last) skips.last = ms;
}

/** The first and last day (UTC) of the rows handed on; null when there were none. */
export function daysOf(skips: RawEventSkips): { from: string; to: string } | null {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return skips.first === null || skips.last === null ? null : { from: day(skips.first), to: day(skips.last) };
}

/**
 * The positions of a header's columns by name, refused (ImportRefused, naming what was read and the
 * columns) when one of `required` is missing.
 */
export function columnsOf(names: readonly string[], required: readonly string[], what: string): Map<string, number> {
  const missing = required.filter((c) => !names.includes(c));
  if (missing.length > 0) throw new ImportRefused(`${what} has no column ${missing.join(', ')}`);
  return new Map(names.map((h, i) => [h, i]));
}

/**
 * Stand-in addresses, one per visitor of an export (in fd00::/8, unique local: no network, no place,
 * no hosting provider), so that its events share one visitor in svc; nothing of a key is stored.
 * A visitor's rows come close together: the addresses of the last few thousand are kept for the
 * import, not hashed again.
 */
export function standInAddresses(): (key: string) => string {
  const recent = new Map<string, string>();
  return (key) => {
    let address = recent.get(key);
    if (address === undefined) {
      const h = hash('sha256', key, 'hex');
      address = `fd${h.slice(0, 2)}:${h.slice(2, 6)}:${h.slice(6, 10)}:${h.slice(10, 14)}:${h.slice(14, 18)}:${h.slice(18, 22)}:${h.slice(22, 26)}:${h.slice(26, 30)}`;
      if (recent.size >= RECENT_ADDRESSES) recent.clear();
      recent.set(detached(key), address);
    }
    return address;
  };
}

const RECENT_ADDRESSES = 4096;

/** The bytes of a CSV file on disk, inflated when it is gzipped (`.csv.gz`), bounded like a ZIP entry. */
export async function openCsvFile(path: string, onRead: (bytes: number) => void = () => {}): Promise<AsyncIterable<Buffer>> {
  const { size } = await stat(path);
  const head = await fileHead(path);
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  raw.on('data', (chunk) => onRead(chunk.length));
  return inflatedIfGzipped(raw, head, () => size);
}

/** The first two bytes of the file at `path` (fewer when it is shorter): they tell gzip's. */
export async function fileHead(path: string): Promise<Buffer> {
  const head = Buffer.alloc(2);
  const file = await open(path, 'r');
  try {
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * A file's bytes (`raw`, whose first bytes are `head`) inflated when they are gzip's, refused as a
 * gzip bomb once they expand more than MAX_COMPRESSION_RATIO times the file's `size` (read as the
 * bytes come: a file still arriving grows).
 */
export function inflatedIfGzipped(raw: Readable, head: Buffer, size: () => number): AsyncIterable<Buffer> {
  if (head[0] !== 0x1f || head[1] !== 0x8b) return raw;
  return bounded(raw.pipe(createGunzip()), size);
}

async function* bounded(stream: AsyncIterable<Buffer> & { destroy(): void }, size: () => number): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > Math.max(size(), 1) * MAX_COMPRESSION_RATIO) throw new ImportRefused(`the gzipped file expands more than ${MAX_COMPRESSION_RATIO} times (a gzip bomb)`);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

/** One tool's export of raw events. */
export interface RawEventFormat {
  /** The positions of the columns its header (the file's first record) names; refused (ImportRefused) when it is not the format's. */
  header(record: CsvRecord, fileName: string): Map<string, number>;
  /** Its records (the header first), in batches, as import lines for a site on `domain`, counting what it leaves out in `skips`. */
  lines(records: AsyncIterable<CsvRecord[]>, domain: string, skips: RawEventSkips, fileName: string): AsyncGenerator<ImportLineFields[]>;
}

/** Refuses (ImportRefused) a file whose first record is not `format`'s header; reads nothing past it. */
export async function checkRawExport(path: string, format: RawEventFormat, fileName: string): Promise<void> {
  const records = csvRecords(await openCsvFile(path));
  const first = await records.next();
  await records.return(undefined);
  if (first.done) throw new ImportRefused('the file is empty');
  format.header(first.value, fileName);
}
