// The thread that reads a raw-event export (GoatCounter's, Umami's): it reads and inflates the
// file, splits its CSV and maps its rows, and hands the lines to the importing thread as NDJSON
// text, which that thread parses as it parses an NDJSON import. The reading then runs beside the
// checks and the writes instead of before them on one thread (docs/architecture.md#import-throughput).
// A file still arriving is read as it grows, up to the size the importing thread last told.
// To the importing thread: `{kind: 'lines', text, bytes}` (lines joined by `\n`, the file's bytes
// read since the last), then `{kind: 'end', skips}` or `{kind: 'failed', refused, message}`.
// From it: 'taken' for each batch it took (at most BATCHES_AHEAD wait untaken), and, for a file
// arriving, `{size, state}` as it grows and once it ends.
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { csvBatches } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { RAW_EVENT_FORMATS } from './raw-event-formats.js';
import type { RawEventReading } from './raw-event-thread.js';
import { inflatedIfGzipped, newSkips, openCsvFile } from './raw-events.js';
import type { ArrivalState } from './upload-arrival.js';

/** Batches sent and not yet taken, at most: the lines waiting between the threads stay bounded. */
const BATCHES_AHEAD = 4;
/** Bytes of a growing file read at a time. */
const READ_BYTES = 256 * 1024;

const port = parentPort!;
const reading = workerData as RawEventReading;
const format = RAW_EVENT_FORMATS[reading.source];
const skips = newSkips();
let untaken = 0;
const arrival: { size: number; state: ArrivalState } = { size: 0, state: 'arriving' };
port.on('message', (message: 'taken' | typeof arrival) => {
  if (message === 'taken') untaken--;
  else Object.assign(arrival, message);
});

/** The bytes of the file at `path` as they arrive: read up to the size last told, then wait for more, until it is whole. */
async function* arriving(path: string, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
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
      else await once(port, 'message');
    }
  } finally {
    await file.close();
  }
}

/** The file's bytes, inflated when gzipped: read as they arrive when the upload is still under way. */
async function fileBytes(onRead: (bytes: number) => void): Promise<AsyncIterable<Buffer>> {
  if (!reading.arriving) return openCsvFile(reading.path, onRead);
  while (arrival.size < 2 && arrival.state === 'arriving') await once(port, 'message');
  const raw = Readable.from(arriving(reading.path, onRead), { objectMode: false });
  const head = Buffer.alloc(2);
  const file = await open(reading.path, 'r');
  try {
    await file.read(head, 0, Math.min(2, arrival.size), 0);
  } finally {
    await file.close();
  }
  return inflatedIfGzipped(raw, head, () => arrival.size);
}

try {
  let bytes = 0;
  const file = await fileBytes((n) => (bytes += n));
  for await (const batch of format.lines(csvBatches(file, format.columns), reading.domain, skips, reading.fileName)) {
    if (batch.length === 0) continue;
    while (untaken >= BATCHES_AHEAD) await once(port, 'message');
    untaken++;
    port.postMessage({ kind: 'lines', text: batch.map((line) => JSON.stringify(line)).join('\n'), bytes });
    bytes = 0;
  }
  const sourceLines = Uint32Array.from(skips.sourceLines);
  port.postMessage({ kind: 'end', skips: { ...skips, sourceLines } }, [sourceLines.buffer]);
} catch (err) {
  port.postMessage({ kind: 'failed', refused: err instanceof ImportRefused, message: err instanceof Error ? err.message : String(err) });
}
port.close();
