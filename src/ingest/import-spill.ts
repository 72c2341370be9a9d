// An import's body on local disk rather than in memory, for a second reading in time order when
// its lines turn out not to be sorted: memory then holds a few numbers per accepted line, whatever
// the file's size. Each file is unlinked as soon as it is open, so a process that stops mid-import
// leaves nothing behind.
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EventLoopTurns } from '../core/turns.js';
import type { ImportLine, ImportLineFields } from './import.js';

/** Bytes written to, and read from, a spill file at a time. */
const BLOCK_BYTES = 64 * 1024;
/** Bytes read around a line when lines are read out of order: lines near each other in the file come in one read. */
const WINDOW_BYTES = 8 * 1024;
/** Sorted lines handed over at a time. */
const BATCH_LINES = 512;

/**
 * An unlinked file, appended to in order (small pieces, a line each from a converted export, are
 * written together, a block at a time) and read back at any offset. Written and read synchronously:
 * the blocks go to and come from the page cache.
 */
class SpillFile {
  /** Bytes appended so far, written or pending. */
  size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  private constructor(private readonly fd: number) {}

  static open(dir: string): SpillFile {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `import-${randomBytes(8).toString('hex')}.spill`);
    const fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return new SpillFile(fd);
  }

  append(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.size += bytes.length;
    if (this.pendingBytes >= BLOCK_BYTES) this.flush();
  }

  /** Writes what is pending. */
  flush(): void {
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    const position = this.size - this.pendingBytes;
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at, position + at);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Fills `buffer` from `position` (flushed bytes only), or fails. */
  read(buffer: Buffer, position: number): void {
    if (readSync(this.fd, buffer, 0, buffer.length, position) !== buffer.length) throw new Error('an import spill file read short');
  }

  /** Closes the file (its space is freed: it has no name). */
  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The chunks of an import's body, written to an unlinked file in `dir` as they stream through,
 * until they pass `limit` bytes: then the file is let go of, and the body is known to be over.
 */
export class SpilledBody {
  private file: SpillFile | null = null;
  private bytes = 0;

  constructor(
    private readonly dir: string,
    readonly limit: number,
  ) {}

  get overflowed(): boolean {
    return this.bytes > this.limit;
  }

  async *keep(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<Buffer | string> {
    for await (const chunk of stream) {
      if (!this.overflowed) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        this.bytes += bytes.length;
        if (this.overflowed) this.release();
        else (this.file ??= SpillFile.open(this.dir)).append(bytes);
      }
      yield chunk;
    }
    this.file?.flush();
  }

  /** The body as it came, read again from the file. */
  *chunks(): Generator<Buffer> {
    const file = this.file;
    if (!file) return;
    for (let position = 0; position < file.size; position += BLOCK_BYTES) {
      const buffer = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, file.size - position));
      file.read(buffer, position);
      yield buffer;
    }
  }

  /** Lets go of the file (once read again, or when not needed). */
  release(): void {
    this.file?.close();
    this.file = null;
  }
}

/**
 * The accepted lines of an import, in time order (ties in file order). The instants and line
 * numbers come from the first reading; the texts come from `again` (the import's lines read again,
 * in file order; a reader's fields written as NDJSON) and are written, in file order, to an unlinked
 * file, whose lines are then read in sorted order. `release` lets go of what `again` read from once
 * it is read. Memory holds the numbers of the lines (an offset, a length and an index each) and a
 * window of the file. Reading the lines again gives the event loop its turns, and so does the
 * caller between batches of sorted lines; the sort of the indices holds it in one stretch.
 */
export async function* sortedLines(
  again: AsyncIterable<Array<ImportLine<string | ImportLineFields>>>,
  release: () => void,
  dir: string,
  lines: readonly number[],
  instants: readonly number[],
  turns: EventLoopTurns,
): AsyncGenerator<string[]> {
  const count = lines.length;
  const offsets = new Float64Array(count);
  const lengths = new Uint32Array(count);
  const file = SpillFile.open(dir);
  try {
    let next = 0;
    for await (const batch of again) {
      for (const { line, number } of batch) {
        const turn = turns.step();
        if (turn) await turn;
        if (next < count && number === lines[next]) {
          const bytes = Buffer.from(typeof line === 'string' ? line : JSON.stringify(line));
          offsets[next] = file.size;
          lengths[next] = bytes.length;
          file.append(bytes);
          next++;
        }
      }
    }
    file.flush();
    if (next !== count) throw new Error('the import body read again lacks accepted lines');
    release();

    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => instants[a]! - instants[b]! || a - b);

    let window = Buffer.alloc(0);
    let windowStart = 0;
    let texts: string[] = [];
    for (let k = 0; k < count; k++) {
      const i = order[k]!;
      const start = offsets[i]!;
      const end = start + lengths[i]!;
      if (start < windowStart || end > windowStart + window.length) {
        window = Buffer.allocUnsafe(Math.min(Math.max(lengths[i]!, WINDOW_BYTES), file.size - start));
        windowStart = start;
        file.read(window, start);
      }
      texts.push(window.toString('utf8', start - windowStart, end - windowStart));
      if (texts.length === BATCH_LINES || k === count - 1) {
        yield texts;
        texts = [];
      }
    }
  } finally {
    file.close();
  }
}
