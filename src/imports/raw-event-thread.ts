// The importing thread's side of raw-event-worker.ts: a raw-event export's lines as NDJSON text,
// read by a thread of their own.
import { Worker } from 'node:worker_threads';
import { ImportRefused } from './plausible-import.js';
import type { RawEventSource } from './raw-event-formats.js';
import { ThreadSignals } from './raw-event-signals.js';
import type { RawEventSkips } from './raw-events.js';
import type { UploadArrival } from './upload-arrival.js';

/** What the reading thread reads: the upload at `path`, `source`'s export, for a site on `domain`; `arriving`: read as it arrives. */
export interface RawEventReading {
  source: RawEventSource;
  path: string;
  domain: string;
  fileName: string;
  arriving: boolean;
  /** ThreadSignals' memory. */
  signals: SharedArrayBuffer;
}

type Message =
  | { kind: 'lines'; text: string; bytes: number }
  | { kind: 'end'; skips: Omit<RawEventSkips, 'sourceLines'> & { sourceLines: Uint32Array } }
  | { kind: 'failed'; refused: boolean; message: string };

/**
 * The reading thread's heap: its batches are bounded (a CSV record, a chunk's lines, four batches
 * ahead), so a file that would need more is refused by the thread's end rather than the process's.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 };

/** Run from source (the tests), the thread loads TypeScript as its parent does. */
function startThread(reading: RawEventReading): Worker {
  const options = { workerData: reading, resourceLimits: RESOURCE_LIMITS };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./raw-event-worker.js', import.meta.url), options);
  const entry = JSON.stringify(new URL('./raw-event-worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); })`, { ...options, eval: true });
}

/**
 * The lines of `reading` as NDJSON text, a batch at a time, read by a thread of their own; what the
 * reader left out is written into `skips` once it has read the whole file, `onRead` told the bytes
 * read as they are; `arrival`: the upload still arriving, told to the thread as it grows. Refused
 * (ImportRefused) as the reader refuses the file; the thread ends with the reading, or when the
 * importer stops taking lines.
 */
export async function* linesReadInThread(reading: Omit<RawEventReading, 'arriving' | 'signals'>, skips: RawEventSkips, onRead: (bytes: number) => void, arrival?: UploadArrival): AsyncGenerator<string[]> {
  const signals = new ThreadSignals();
  const tell = () => signals.arrived(arrival!.size, arrival!.state);
  if (arrival) tell();
  const stopTelling = arrival?.watch(tell);
  const thread = startThread({ ...reading, arriving: arrival !== undefined, signals: signals.memory });
  const inbox: Message[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    wake?.();
    wake = null;
  };
  thread.on('message', (message: Message) => {
    inbox.push(message);
    wakeUp();
  });
  thread.on('error', (err) => {
    failure = err;
    wakeUp();
  });
  thread.on('exit', () => {
    exited = true;
    wakeUp();
  });
  try {
    for (;;) {
      while (inbox.length === 0) {
        if (failure !== null) throw failure;
        if (exited) throw new Error('the thread reading the file stopped before its end');
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const message = inbox.shift()!;
      if (message.kind === 'failed') throw message.refused ? new ImportRefused(message.message) : new Error(message.message);
      if (message.kind === 'end') {
        Object.assign(skips, message.skips, { sourceLines: Array.from(message.skips.sourceLines) });
        return;
      }
      onRead(message.bytes);
      yield message.text.split('\n');
      signals.tookBatch();
    }
  } finally {
    stopTelling?.();
    await thread.terminate();
  }
}
