// The thread that reads a raw-event export (GoatCounter's, Umami's): it reads and inflates the
// file, splits its CSV and maps its rows, and hands the lines to the importing thread as NDJSON
// text, which that thread parses as it parses an NDJSON import. The reading then runs beside the
// checks and the writes instead of before them on one thread (docs/architecture.md#import-throughput).
// A file still arriving is read as it grows, up to the size the importing thread last told.
// To the importing thread: `{kind: 'lines', text, bytes}` (lines joined by `\n`, the file's bytes
// read since the last), then `{kind: 'end', skips}` or `{kind: 'failed', refused, message}`. Back
// from it, through memory both threads share (ThreadSignals): the batches it took (at most
// BATCHES_AHEAD wait untaken), and, for a file arriving, its size and state as it grows and ends.
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { csvBatches } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { RAW_EVENT_FORMATS } from './raw-event-formats.js';
import { ThreadSignals } from './raw-event-signals.js';
import type { RawEventReading } from './raw-event-thread.js';
import { inflatedIfGzipped, newSkips, openCsvFile } from './raw-events.js';

/** Batches sent and not yet taken, at most: the lines waiting between the threads stay bounded. */
const BATCHES_AHEAD = 8;
/**
 * Characters of text a batch holds, about: a string this short is made in V8's young generation,
 * while a longer one (over 128 KiB) would go where only a full collection frees it.
 */
const BATCH_CHARS = 48 * 1024;
/** Bytes of a growing file read at a time. */
const READ_BYTES = 256 * 1024;

const port = parentPort!;
const reading = workerData as RawEventReading;
const format = RAW_EVENT_FORMATS[reading.source];
const skips = newSkips();
const signals = new ThreadSignals(reading.signals);
// A wait on the shared memory does not keep a thread alive; a port listened to does, until it closes.
port.on('message', () => {});

/** The bytes of the file at `path` as they arrive: read up to the size last told, then wait for more, until it is whole. */
async function* arriving(path: string, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    let position = 0;
    for (;;) {
      const seen = signals.arrivalChanges();
      const size = signals.arrivedBytes();
      const state = signals.arrivalState();
      if (position < size) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, size - position));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        position += bytesRead;
        onRead(bytesRead);
        yield buffer.subarray(0, bytesRead);
      } else if (state === 'whole') return;
      else if (state === 'cut') throw new Error('the upload did not arrive whole');
      else await signals.arrivalChange(seen);
    }
  } finally {
    await file.close();
  }
}

/** The file's bytes, inflated when gzipped: read as they arrive when the upload is still under way. */
async function fileBytes(onRead: (bytes: number) => void): Promise<AsyncIterable<Buffer>> {
  if (!reading.arriving) return openCsvFile(reading.path, onRead);
  for (let seen = signals.arrivalChanges(); signals.arrivedBytes() < 2 && signals.arrivalState() === 'arriving'; seen = signals.arrivalChanges()) await signals.arrivalChange(seen);
  const raw = Readable.from(arriving(reading.path, onRead), { objectMode: false });
  const head = Buffer.alloc(2);
  const file = await open(reading.path, 'r');
  try {
    await file.read(head, 0, Math.min(2, signals.arrivedBytes()), 0);
  } finally {
    await file.close();
  }
  return inflatedIfGzipped(raw, head, () => signals.arrivedBytes());
}

let bytes = 0;
let sent = 0;
let texts: string[] = [];
let chars = 0;

/** Sends the lines gathered, with fewer than BATCHES_AHEAD batches waiting untaken. */
async function send(): Promise<void> {
  if (texts.length === 0) return;
  // Once BATCHES_AHEAD wait, the thread waits until half of them are taken: woken once, not at each.
  if (sent - signals.batchesTaken() >= BATCHES_AHEAD) await signals.taken(sent - BATCHES_AHEAD / 2);
  port.postMessage({ kind: 'lines', text: texts.join('\n'), bytes });
  sent++;
  bytes = 0;
  texts = [];
  chars = 0;
}

try {
  const file = await fileBytes((n) => (bytes += n));
  for await (const batch of format.lines(csvBatches(file, format.columns), reading.domain, skips, reading.fileName)) {
    for (const line of batch) {
      const text = JSON.stringify(line);
      texts.push(text);
      chars += text.length + 1;
      if (chars >= BATCH_CHARS) await send();
    }
  }
  await send();
  const sourceLines = Uint32Array.from(skips.sourceLines);
  port.postMessage({ kind: 'end', skips: { ...skips, sourceLines } }, [sourceLines.buffer]);
} catch (err) {
  port.postMessage({ kind: 'failed', refused: err instanceof ImportRefused, message: err instanceof Error ? err.message : String(err) });
}
port.close();
