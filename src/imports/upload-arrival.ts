// An upload its import reads as it arrives (service.ts, receiveWhileImporting): the bytes on disk so
// far, and whether the upload arrived whole, for the thread that reads it (raw-event-worker.ts).
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

export type ArrivalState = 'arriving' | 'whole' | 'cut';

export class UploadArrival {
  /** Bytes written to the file so far. */
  size = 0;
  state: ArrivalState = 'arriving';
  private readonly watchers = new Set<() => void>();

  /** Calls `watcher` at every change; the returned function stops that. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  grew(size: number): void {
    this.size = size;
    for (const watcher of this.watchers) watcher();
  }

  ended(state: 'whole' | 'cut'): void {
    this.state = state;
    for (const watcher of this.watchers) watcher();
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
