// ZIP archives (PKWARE APPNOTE, without ZIP64 or encryption): reading one from a file on disk by
// its central directory, each entry inflated as a stream (memory bounded by zlib's window, whatever
// the archive's size), and writing one as a stream (entries deflated as they come, sizes in data
// descriptors), for the export.
import { open, type FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createDeflateRaw, createInflateRaw, crc32 } from 'node:zlib';

/**
 * An entry's uncompressed size may be at most this many times its compressed size, and the
 * archive's in all this many times the file's size: past either the archive is refused as a ZIP
 * bomb (deflate reaches about 1 000 only on runs of one byte; CSV text deflates 5 to 20 times).
 */
export const MAX_COMPRESSION_RATIO = 100;
/** The most uncompressed bytes one archive may hold in all. */
export const MAX_UNCOMPRESSED_BYTES = 16 * 1024 ** 3;
/** The most entries one archive may list. */
export const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly crc: number;
  readonly localHeaderOffset: number;
  /** Where the next entry, or the central directory, starts: its local header and data end before it. */
  readonly spanEnd: number;
}

/** An entry as its directory record lists it, before its span is checked against the others'. */
type ListedEntry = Omit<ZipEntry, 'spanEnd'>;

/** An archive refused, with the reason said to the user. */
export class ZipRefused extends Error {}

// The records' signatures, and the sizes of their fixed parts (names and extra fields follow).
export const EOCD = 0x06054b50;
export const CENTRAL = 0x02014b50;
export const LOCAL = 0x04034b50;
export const END_OF_DIRECTORY = 22;
export const CENTRAL_HEADER = 46;
export const LOCAL_HEADER = 30;
const STORED = 0;
const DEFLATED = 8;

/** Whether a file starts as a ZIP archive does. */
export async function isZipFile(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === LOCAL;
  } finally {
    await file.close();
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Why an entry's name may not be used: absolute, a drive, a backslash, or a `..` segment (a path that
 * climbs out of the archive's folder); null when it is a plain relative path.
 */
export function unsafeName(name: string): string | null {
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return 'is not a relative path';
  if (name.split('/').includes('..')) return 'climbs out of the archive (..)';
  return null;
}

/**
 * The entries of an archive, from its central directory; refused when malformed, a bomb (an entry or
 * the whole past the compression ratio, or entries that share compressed bytes), or a name is unsafe.
 */
export async function readZipDirectory(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, END_OF_DIRECTORY + 0xffff);
    const tail = await readAt(file, size - tailLength, tailLength);
    let at = -1;
    for (let i = tail.length - END_OF_DIRECTORY; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    }
    if (at === -1) throw new ZipRefused('not a ZIP archive: no end of central directory');
    const count = tail.readUInt16LE(at + 10);
    const directorySize = tail.readUInt32LE(at + 12);
    const directoryOffset = tail.readUInt32LE(at + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipRefused('ZIP64 archives are not read: the archive must be under 4 GiB');
    if (count > MAX_ENTRIES) throw new ZipRefused(`the archive lists ${count} entries, more than ${MAX_ENTRIES}`);
    if (directoryOffset + directorySize > size) throw new ZipRefused('the central directory lies outside the file');
    const directory = await readAt(file, directoryOffset, directorySize);
    const entries: ListedEntry[] = [];
    // The whole is bounded by the file's size as each entry by its own: entries cannot add up past it.
    const maxTotal = Math.min(MAX_UNCOMPRESSED_BYTES, Math.max(size, 1) * MAX_COMPRESSION_RATIO);
    let total = 0;
    for (let p = 0; entries.length < count; ) {
      if (p + CENTRAL_HEADER > directory.length || directory.readUInt32LE(p) !== CENTRAL) throw new ZipRefused('the central directory is malformed');
      const flags = directory.readUInt16LE(p + 8);
      const nameLength = directory.readUInt16LE(p + 28);
      const entry: ListedEntry = {
        method: directory.readUInt16LE(p + 10),
        crc: directory.readUInt32LE(p + 16),
        compressedSize: directory.readUInt32LE(p + 20),
        uncompressedSize: directory.readUInt32LE(p + 24),
        localHeaderOffset: directory.readUInt32LE(p + 42),
        name: directory.toString('utf8', p + CENTRAL_HEADER, p + CENTRAL_HEADER + nameLength),
      };
      p += CENTRAL_HEADER + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
      const unsafe = unsafeName(entry.name);
      if (unsafe !== null) throw new ZipRefused(`entry ${JSON.stringify(entry.name)} ${unsafe}`);
      if (flags & 1) throw new ZipRefused(`entry ${entry.name} is encrypted`);
      if (entry.method !== STORED && entry.method !== DEFLATED) throw new ZipRefused(`entry ${entry.name} uses compression method ${entry.method}; only stored and deflate are read`);
      if (entry.uncompressedSize > Math.max(entry.compressedSize, 1) * MAX_COMPRESSION_RATIO) {
        throw new ZipRefused(`entry ${entry.name} would expand ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} times, past the limit of ${MAX_COMPRESSION_RATIO} (a ZIP bomb)`);
      }
      total += entry.uncompressedSize;
      if (total > MAX_UNCOMPRESSED_BYTES) throw new ZipRefused(`the archive holds more than ${MAX_UNCOMPRESSED_BYTES / 1024 ** 3} GiB uncompressed`);
      if (total > maxTotal) {
        throw new ZipRefused(`the archive's entries would expand to more than ${maxTotal} bytes, ${MAX_COMPRESSION_RATIO} times the archive's ${size} bytes (a ZIP bomb)`);
      }
      if (entry.localHeaderOffset + LOCAL_HEADER + entry.compressedSize > size) throw new ZipRefused(`entry ${entry.name} lies outside the file`);
      entries.push(entry);
    }
    return withSpans(entries, { start: directoryOffset, end: directoryOffset + directorySize }, size);
  } finally {
    await file.close();
  }
}

/**
 * The entries with the end of their span, in the directory's order; refused when two of them, or
 * one and the central directory, overlap. An entry's span runs from its local header over its
 * compressed bytes: two listings of one compressed stream would make one upload count many times
 * (openZipEntry checks the true span, past the local header's name, once it reads the header).
 */
function withSpans(entries: readonly ListedEntry[], directory: { start: number; end: number }, size: number): ZipEntry[] {
  const spans = entries.map((entry, index) => ({ index, start: entry.localHeaderOffset, end: entry.localHeaderOffset + LOCAL_HEADER + entry.compressedSize, what: `entry ${entry.name}` }));
  spans.push({ index: -1, ...directory, what: 'the central directory' });
  // Sorted by start (at most MAX_ENTRIES + 1 spans), each span must end before the next one starts.
  spans.sort((a, b) => a.start - b.start);
  const spanEnds: number[] = [];
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k]!;
    const next = spans[k + 1];
    if (next !== undefined && span.end > next.start) {
      throw new ZipRefused(`${span.what} and ${next.what} share bytes of the file: each entry must have compressed bytes of its own (a ZIP bomb lists one stream many times)`);
    }
    if (span.index >= 0) spanEnds[span.index] = next?.start ?? size;
  }
  return entries.map((entry, i) => ({ ...entry, spanEnd: spanEnds[i]! }));
}

/**
 * The uncompressed bytes of one entry, as a stream. Its output is counted: an entry that inflates
 * past the size its directory declares (a lying bomb) or whose CRC differs fails the stream.
 */
export async function openZipEntry(path: string, entry: ZipEntry): Promise<AsyncIterable<Buffer>> {
  const file = await open(path, 'r');
  let dataStart: number;
  try {
    const local = await readAt(file, entry.localHeaderOffset, LOCAL_HEADER);
    if (local.length < LOCAL_HEADER || local.readUInt32LE(0) !== LOCAL) throw new ZipRefused(`entry ${entry.name}: no local header where the directory says`);
    dataStart = entry.localHeaderOffset + LOCAL_HEADER + local.readUInt16LE(26) + local.readUInt16LE(28);
    // Its name and extra field pushed its data into the next entry's span (one stream shared otherwise).
    if (dataStart + entry.compressedSize > entry.spanEnd) {
      throw new ZipRefused(`entry ${entry.name} runs into the next entry: each entry must have compressed bytes of its own (a ZIP bomb lists one stream many times)`);
    }
  } finally {
    await file.close();
  }
  const raw = entry.compressedSize === 0 ? Readable.from([]) : createReadStream(path, { start: dataStart, end: dataStart + entry.compressedSize - 1 });
  const bytes = entry.method === DEFLATED ? raw.pipe(createInflateRaw()) : raw;
  return checked(bytes, entry);
}

async function* checked(stream: Readable, entry: ZipEntry): AsyncGenerator<Buffer> {
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize) throw new ZipRefused(`entry ${entry.name} inflates past its declared size of ${entry.uncompressedSize} bytes (a ZIP bomb)`);
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
  if (size !== entry.uncompressedSize || crc !== entry.crc) throw new ZipRefused(`entry ${entry.name} is damaged (its size or CRC differs from the directory's)`);
}

/** One entry to write: its name and its bytes as they come. */
export interface ZipSource {
  name: string;
  bytes: AsyncIterable<Buffer | string>;
}

function dosDateTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    day: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** A ZIP archive of `sources`, written as a stream: each entry deflated as its bytes come. */
export async function* zipStream(sources: AsyncIterable<ZipSource> | Iterable<ZipSource>, now = new Date()): AsyncGenerator<Buffer> {
  const { time, day } = dosDateTime(now);
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for await (const source of sources) {
    const name = Buffer.from(source.name, 'utf8');
    const local = Buffer.alloc(LOCAL_HEADER);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0808, 6); // sizes in the data descriptor; names in UTF-8
    local.writeUInt16LE(DEFLATED, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt16LE(name.length, 26);
    yield local;
    yield name;
    const headerOffset = offset;
    offset += LOCAL_HEADER + name.length;
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = createDeflateRaw();
    const feed = (async () => {
      for await (const piece of source.bytes) {
        const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        crc = crc32(chunk, crc);
        size += chunk.length;
        if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
      }
      deflate.end();
    })();
    feed.catch((err: unknown) => deflate.destroy(err as Error));
    for await (const out of deflate as AsyncIterable<Buffer>) {
      compressed += out.length;
      yield out;
    }
    await feed;
    if (size >= 0xffffffff || offset + compressed >= 0xffffffff) throw new Error('the archive would need ZIP64');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    offset += compressed + 16;
    const entry = Buffer.alloc(CENTRAL_HEADER);
    entry.writeUInt32LE(CENTRAL, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0808, 8);
    entry.writeUInt16LE(DEFLATED, 10);
    entry.writeUInt16LE(time, 12);
    entry.writeUInt16LE(day, 14);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(compressed, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(headerOffset, 42);
    central.push(entry, name);
    count++;
  }
  const directory = Buffer.concat(central);
  yield directory;
  const end = Buffer.alloc(END_OF_DIRECTORY);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield end;
}
