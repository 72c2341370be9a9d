// How `svc import` splits a file into calls the server takes (at most MAX_IMPORT_LINES lines each).
//
// An import call hashes visitors with salts of its own, one per site-local day, so the same visitor
// on the same day in two calls would count as two. A cut between two lines is therefore made only
// where no site-local day has lines on both sides: each day stays in one call, and every figure is
// what one call would give, except a session that crosses the cut (it counts as two). Lines whose
// `ts` the server will reject have no day and never hold a cut back. The plan is made, and checked,
// before anything is sent, so a file that cannot be split is refused whole.
import { createReadStream } from 'node:fs';
import { localDay } from '../core/localtime.js';
import { MAX_IMPORT_LINE_BYTES, parseImportTimestamp } from '../ingest/import-contract.js';
import { CliError } from './errors.js';

/** One call: file lines [firstLine, lastLine] (numbered from 1), the bytes [start, end). */
export interface ImportCall {
  firstLine: number;
  lastLine: number;
  start: number;
  end: number;
  /** Its earliest and latest site-local day, when the days were read and any line has one. */
  days?: [string, string];
}

const NEWLINE = 0x0a;

/**
 * Calls `onLine` for every line of a file with its number and byte offset, and its bytes (newline
 * excluded), or null for a line the server rejects as too long, measured as it does (a CR included;
 * its bytes are not gathered, so a file that is one huge line costs no more than its reading).
 * Lines are numbered as the server numbers them: a final line without a newline counts unless it is
 * only blanks. Synchronous per line: a step of an async iterator per line would cost more than the
 * line. `chunkBytes` is the read size (tests make it small to cut lines across reads).
 */
export async function forEachLine(
  path: string,
  onLine: (number: number, start: number, line: Buffer | null) => void,
  chunkBytes = 1 << 20,
): Promise<{ lines: number; bytes: number }> {
  let number = 0;
  let offset = 0; // file offset of the chunk being read
  let lineStart = 0;
  let pending: Buffer[] = []; // the bytes of the current line from earlier chunks
  let pendingBytes = 0;
  let tooLong = false;
  const stream = createReadStream(path, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>;
  try {
    for await (const chunk of stream) {
      let from = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        const tail = chunk.subarray(from, nl);
        let line: Buffer | null = null;
        if (!tooLong && pendingBytes + tail.length <= MAX_IMPORT_LINE_BYTES) line = pendingBytes === 0 ? tail : Buffer.concat([...pending, tail]);
        onLine(++number, lineStart, line);
        [pending, pendingBytes, tooLong] = [[], 0, false];
        from = nl + 1;
        lineStart = offset + from;
      }
      const rest = chunk.subarray(from);
      if (!tooLong && pendingBytes + rest.length > MAX_IMPORT_LINE_BYTES) [pending, pendingBytes, tooLong] = [[], 0, true];
      else if (!tooLong && rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
      }
      offset += chunk.length;
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${path}: ${code ?? String(err)}`);
  }
  if (lineStart < offset) {
    const last = tooLong ? null : Buffer.concat(pending);
    if (last === null || last.toString('utf8').trim() !== '') onLine(++number, lineStart, last);
  }
  return { lines: number, bytes: offset };
}

const NO_DAY = -1;
const DAY_MS = 86_400_000;

/** The site-local day of a line ('YYYY-MM-DD'), or null when the server will reject its `ts`. */
function lineDay(line: Buffer | null, timeZone: string, now: number): string | null {
  if (line === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const ts = parseImportTimestamp((parsed as { ts?: unknown }).ts, now);
  return ts === null ? null : localDay(ts, timeZone);
}

export interface PlanOptions {
  /** Lines a call may hold (the server's MAX_IMPORT_LINES, or fewer). */
  linesPerCall: number;
  /** The first line to import (earlier lines are skipped: going on with a stopped import). */
  fromLine: number;
  /** The site's time zone, asked for only when the days must be read (several calls, or --from-line). */
  siteTimeZone: () => Promise<string>;
  now: number;
  /** Read size (tests make it small). */
  chunkBytes?: number;
}

/** A day of the file ('YYYY-MM-DD') and where its lines are: the indexes (line - 1) of its first and last line. */
interface DaySpan {
  day: string;
  first: number;
  last: number;
}

/**
 * The calls that import lines fromLine… of a file: one when they fit, else the fewest the cuts
 * allow, each as full as it can be. Refuses a first line that would split a day, and a stretch of a
 * call's size with no place to cut (days interleaved, or one day over a call).
 */
export async function planImport(path: string, options: PlanOptions): Promise<ImportCall[]> {
  const { linesPerCall, fromLine, chunkBytes } = options;
  // A first, cheap pass: how many lines. The file is read again below: it must not have changed.
  const { lines, bytes } = await forEachLine(path, () => undefined, chunkBytes);
  const read = async (onLine: Parameters<typeof forEachLine>[1]) => {
    const seen = await forEachLine(path, onLine, chunkBytes);
    if (seen.lines !== lines || seen.bytes !== bytes) throw new CliError(`${path} changed while it was read: import it once it no longer changes`);
  };
  if (lines === 0 && fromLine === 1) return [{ firstLine: 1, lastLine: 0, start: 0, end: 0 }];
  if (fromLine > lines) throw new CliError(`--from-line ${fromLine} is past the end of ${path} (${lines} line${lines === 1 ? '' : 's'})`);
  if (fromLine === 1 && lines <= linesPerCall) return [{ firstLine: 1, lastLine: lines, start: 0, end: bytes }];

  const timeZone = await options.siteTimeZone();
  // The server judges "at most a day ahead" by its own clock, later: a line it may take must have
  // its day here (a day given to a line it then rejects only adds a constraint).
  const serverNow = options.now + DAY_MS;
  // Second pass: each line's day, as an index into `spans` (4 bytes a line: reading the days once
  // more in the third pass would double the time planning takes), and where each day's lines are.
  const days = new Int32Array(lines);
  const spans: DaySpan[] = [];
  const spanOf = new Map<string, number>();
  await read((number, _start, line) => {
    const day = lineDay(line, timeZone, serverNow);
    if (day === null) {
      days[number - 1] = NO_DAY;
      return;
    }
    let id = spanOf.get(day);
    if (id === undefined) spanOf.set(day, (id = spans.push({ day, first: number - 1, last: number - 1 }) - 1));
    else spans[id]!.last = number - 1;
    days[number - 1] = id;
  });
  // Third pass: the cuts. A cut before line index i is possible when no day of the lines before it
  // has a line at i or after: when `reach`, the last line index of the days seen so far, is below i.
  const calls: ImportCall[] = [];
  let call = { first: fromLine - 1, start: 0 };
  let possible: { at: number; start: number } | null = null; // the furthest possible cut inside the call
  let reach = -1;
  let reachSpan: DaySpan | undefined; // the day whose last line is `reach`
  const close = (at: number, end: number) => {
    calls.push(withDays({ firstLine: call.first + 1, lastLine: at, start: call.start, end }, spans));
    call = { first: at, start: end };
    possible = null;
  };
  await read((number, start) => {
    const i = number - 1;
    if (i === fromLine - 1) {
      if (reach >= i) {
        throw new CliError(
          `--from-line ${fromLine} would split a site-local day (${reachSpan!.day} has lines before it and from it on): go on from the line a stopped import named`,
        );
      }
      call.start = start;
    } else if (i > call.first && reach < i) possible = { at: i, start };
    if (i >= fromLine - 1 && i - call.first === linesPerCall) {
      const cut: { at: number; start: number } | null = possible;
      if (!cut) {
        const span = reachSpan!;
        throw new CliError(
          `lines ${call.first + 1}-${i} hold no place to end a call without putting a site-local day in two calls (${span.day} runs from line ${span.first + 1} to ${span.last + 1}): days are interleaved there, or one day has more than ${linesPerCall} lines; sort the file by ts first`,
        );
      }
      close(cut.at, cut.start);
    }
    const span = days[i] === NO_DAY ? undefined : spans[days[i]!]!;
    if (span && span.last > reach) [reach, reachSpan] = [span.last, span];
  });
  close(lines, bytes);
  return calls;
}

/** A call with the range of its site-local days (no day spans two calls, so a day is in the call where its first line is). */
function withDays(call: ImportCall, spans: readonly DaySpan[]): ImportCall {
  // 'YYYY-MM-DD' texts sort as the days do.
  const inCall = spans.filter(({ first }) => first >= call.firstLine - 1 && first < call.lastLine).map(({ day }) => day).sort();
  return inCall.length === 0 ? call : { ...call, days: [inCall[0]!, inCall[inCall.length - 1]!] };
}
