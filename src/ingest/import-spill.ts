// An import's body on local disk rather than in memory, for a second reading in time order when
// its lines turn out not to be sorted: memory then holds a few numbers per accepted line, whatever
// the file's size. Each file is unlinked as soon as it is open, so a process that stops mid-import
// leaves nothing behind.
import { mkdirSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EventLoopTurns } from '../core/turns.js';
import { ndjsonLines } from './import.js';

/** Bytes read from a spill file at a time, when reading it through. */
const READ_BYTES = 64 * 1024;
/** Bytes read around a line when lines are read out of order: lines near each other in the file come in one read. */
const WINDOW_BYTES = 8 * 1024;
/** Accepted lines written to the second file, and handed over in sorted order, at a time. */
const WRITE_LINES = 512;

async function openUnlinked(dir: string): Promise<FileHandle> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `import-${randomBytes(8).toString('hex')}.spill`);
  const file = await open(path, 'wx+', 0o600);
  unlinkSync(path);
  return file;
}

/**
 * The chunks of an import's body, written to an unlinked file in `dir` as they stream through,
 * until they pass `limit` bytes: then the file is let go of, and the body is known to be over.
 */
export class SpilledBody {
  private file: Promise<FileHandle> | null = null;
  private bytes = 0;
  private released = false;

  constructor(
    private readonly dir: string,
    readonly limit: number,
  ) {}

  get overflowed(): boolean {
    return this.bytes > this.limit;
  }

  async *keep(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<Buffer | string> {
    // Small chunks (a line each, from a converted export) are written together, a read's worth at a time.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const write = async () => {
      this.file ??= openUnlinked(this.dir);
      const file = await this.file;
      const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      await file.write(bytes, 0, bytes.length, this.bytes - pendingBytes);
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of stream) {
      if (!this.overflowed && !this.released) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        this.bytes += bytes.length;
        if (this.overflowed) {
          pending = [];
          await this.release();
        } else {
          pending.push(bytes);
          pendingBytes += bytes.length;
          if (pendingBytes >= READ_BYTES) await write();
        }
      }
      yield chunk;
    }
    if (pendingBytes > 0 && !this.released) await write();
  }

  /** The body as it came, read again from the file. */
  async *chunks(): AsyncGenerator<Buffer> {
    if (!this.file) return;
    const file = await this.file;
    for (let position = 0; position < this.bytes; position += READ_BYTES) {
      const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, this.bytes - position));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
      if (bytesRead !== buffer.length) throw new Error('an import spill file read short');
      yield buffer;
    }
  }

  /** Closes the file (its space is freed: it has no name). */
  async release(): Promise<void> {
    this.released = true;
    const file = this.file;
    this.file = null;
    await (await file?.catch(() => null))?.close();
  }
}

/**
 * The accepted lines of a spilled body, in time order (ties in file order). The instants and line
 * numbers come from the first reading; the texts are read again from the body and written, in
 * file order, to a second unlinked file, whose lines are then read in sorted order. Memory holds
 * the numbers of the lines (an offset, a length and an index each) and a window of the file.
 * Reading the body again gives the event loop its turns, and so does the caller between batches of
 * sorted lines; the sort of the indices holds it in one stretch.
 */
export async function* sortedLines(
  body: SpilledBody,
  dir: string,
  lines: readonly number[],
  instants: readonly number[],
  turns: EventLoopTurns,
): AsyncGenerator<string[]> {
  const count = lines.length;
  const offsets = new Float64Array(count);
  const lengths = new Uint32Array(count);
  const file = await openUnlinked(dir);
  const fd = file.fd;
  try {
    let next = 0;
    let written = 0;
    let pending: string[] = [];
    let pendingBytes = 0;
    const flush = () => {
      const bytes = Buffer.from(pending.join(''));
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at, written + at);
      written += bytes.length;
      pending = [];
      pendingBytes = 0;
    };
    for await (const batch of ndjsonLines(body.chunks())) {
      for (const { line, number } of batch) {
        const turn = turns.step();
        if (turn) await turn;
        if (next < count && number === lines[next]) {
          const length = Buffer.byteLength(line);
          offsets[next] = written + pendingBytes;
          lengths[next] = length;
          pending.push(line);
          pendingBytes += length;
          next++;
          if (pending.length === WRITE_LINES) flush();
        }
      }
    }
    if (pending.length > 0) flush();
    if (next !== count) throw new Error('the import body read again lacks accepted lines');
    await body.release();

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
        window = Buffer.allocUnsafe(Math.max(lengths[i]!, WINDOW_BYTES));
        windowStart = start;
        const read = readSync(fd, window, 0, window.length, start);
        window = window.subarray(0, read);
        if (read < lengths[i]!) throw new Error('an import spill file read short');
      }
      texts.push(window.toString('utf8', start - windowStart, end - windowStart));
      if (texts.length === WRITE_LINES || k === count - 1) {
        yield texts;
        texts = [];
      }
    }
  } finally {
    await file.close();
  }
}
