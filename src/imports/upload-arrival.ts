// An upload its import reads as it arrives (service.ts, receiveWhileImporting): the bytes on disk so
// far, whether the upload arrived whole, and the file read as it grows.
import { open, type FileHandle } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { fileHead, inflatedIfGzipped } from './raw-events.js';

export type ArrivalState = 'arriving' | 'whole' | 'cut';

/** Bytes of a growing file read at a time. */
const READ_BYTES = 256 * 1024;
/**
 * The longest a reading waits for bytes before it reports again (`onRead(0)`): the job's report
 * renews its lease (5 minutes), which a client pausing longer (SVC_REQUEST_TIMEOUT_MS allows up to
 * an hour) would otherwise let lapse, and another worker would take the job from half a file.
 */
const QUIET_REPORT_MS = 60_000;

export class UploadArrival {
  /** Bytes written to the file so far. */
  size = 0;
  state: ArrivalState = 'arriving';
  /** What waits for the next change (`changed`). */
  private readonly waiting = new Set<() => void>();

  /** `quietReportMs`: how long its reading waits for bytes before it reports again (QUIET_REPORT_MS; tests shorten it). */
  constructor(readonly quietReportMs = QUIET_REPORT_MS) {}

  /** Resolves at the next change, or after `ms` without one. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  grew(size: number): void {
    this.size = size;
    this.wake();
  }

  ended(state: 'whole' | 'cut'): void {
    this.state = state;
    this.wake();
  }

  private wake(): void {
    for (const done of [...this.waiting]) done();
  }

  /** The file's writer: `arrival` grows as each write reaches the file (the handle is closed at the end). */
  static writer(file: FileHandle, arrival: UploadArrival): Writable {
    return new Writable({
      // Chunks that come while a write is under way go to disk in one call.
      writev(chunks, done) {
        const buffers = chunks.map((c) => c.chunk as Buffer);
        file.writev(buffers).then(({ bytesWritten }) => {
          arrival.grew(arrival.size + bytesWritten);
          done();
        }, done);
      },
      final(done) {
        file.close().then(() => done(), done);
      },
      destroy(err, done) {
        file.close().then(() => done(err), () => done(err));
      },
    });
  }
}

/**
 * The bytes of the file at `path` as `arrival` tells they reach it, until it is whole; an upload
 * cut fails the reading. `onRead` is told each read, and 0 after each quiet minute.
 */
async function* arrivingBytes(path: string, arrival: UploadArrival, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    let position = 0;
    for (;;) {
      if (position < arrival.size) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, arrival.size - position));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        position += bytesRead;
        onRead(bytesRead);
        yield buffer.subarray(0, bytesRead);
      } else if (arrival.state === 'whole') return;
      else if (arrival.state === 'cut') throw new Error('the upload did not arrive whole');
      else {
        await arrival.changed(arrival.quietReportMs);
        onRead(0);
      }
    }
  } finally {
    await file.close();
  }
}

/** openCsvFile's bytes of an upload still arriving: inflated when gzipped, read as they come. */
export async function openArrivingCsv(path: string, arrival: UploadArrival, onRead: (bytes: number) => void): Promise<AsyncIterable<Buffer>> {
  while (arrival.size < 2 && arrival.state === 'arriving') {
    await arrival.changed(arrival.quietReportMs);
    onRead(0);
  }
  return inflatedIfGzipped(Readable.from(arrivingBytes(path, arrival, onRead), { objectMode: false }), await fileHead(path), () => arrival.size);
}
