// How `svc import` splits a file into calls the server takes (at most MAX_IMPORT_LINES lines each).
//
// An import call hashes visitors with salts of its own, one per site-local day, so the same visitor
// on the same day in two calls would count as two. A cut between two lines is therefore made only
// where every day before it is earlier than every day after it: each day stays in one call, and every
// figure is what one call would give, except a session that crosses the cut (it counts as two).
// Lines whose `ts` the server will reject have no day and never hold a cut back. The plan is made,
// and checked, before anything is sent, so a file that cannot be split is refused whole.
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
// A line the server takes may end with a CR it ignores.
const KEPT_LINE_BYTES = MAX_IMPORT_LINE_BYTES + 1;

/**
 * Calls `onLine` for every line of a file with its number and byte offset, and its bytes (newline
 * excluded), or null for a line too long for the server (its bytes are not gathered: a file that is
 * one huge line costs no more than its reading). A final line without a newline counts; the empty
 * remainder after a final newline does not, as for the server. Synchronous per line: a step of an
 * async iterator per line would cost more than the line.
 */
export async function forEachLine(path: string, onLine: (number: number, start: number, line: Buffer | null) => void): Promise<{ lines: number; bytes: number }> {
  let number = 0;
  let offset = 0; // file offset of the chunk being read
  let lineStart = 0;
  let pending: Buffer[] = []; // the bytes of the current line from earlier chunks
  let pendingBytes = 0;
  let tooLong = false;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>;
  try {
    for await (const chunk of stream) {
      let from = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        const tail = chunk.subarray(from, nl);
        let line: Buffer | null = null;
        if (!tooLong && pendingBytes + tail.length <= KEPT_LINE_BYTES) line = pendingBytes === 0 ? tail : Buffer.concat([...pending, tail]);
        onLine(++number, lineStart, line);
        [pending, pendingBytes, tooLong] = [[], 0, false];
        from = nl + 1;
        lineStart = offset + from;
      }
      const rest = chunk.subarray(from);
      if (!tooLong && pendingBytes + rest.length > KEPT_LINE_BYTES) [pending, pendingBytes, tooLong] = [[], 0, true];
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
  if (lineStart < offset) onLine(++number, lineStart, tooLong ? null : Buffer.concat(pending));
  return { lines: number, bytes: offset };
}

const NO_DAY = -2147483648; // below every day: never raises a maximum
const NO_LATER_DAY = 2147483647;
const DAY_MS = 86_400_000;
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The site-local day of a line (days since 1970-01-01), or NO_DAY when the server will reject its `ts`. */
function lineDay(line: Buffer | null, timeZone: string, now: number): number {
  if (line === null) return NO_DAY;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return NO_DAY;
  }
  if (typeof parsed !== 'object' || parsed === null) return NO_DAY;
  const ts = parseImportTimestamp((parsed as { ts?: unknown }).ts, now);
  return ts === null ? NO_DAY : Date.parse(`${localDay(ts, timeZone)}T00:00:00Z`) / DAY_MS;
}

export interface PlanOptions {
  /** Lines a call may hold (the server's MAX_IMPORT_LINES, or fewer). */
  linesPerCall: number;
  /** The first line to import (earlier lines are skipped: going on with a stopped import). */
  fromLine: number;
  /** The site's time zone, asked for only when the days must be read (several calls, or --from-line). */
  siteTimeZone: () => Promise<string>;
  now: number;
}

/**
 * The calls that import lines fromLine… of a file: one when they fit, else the fewest the cuts
 * allow, each as full as it can be. Refuses a first line that would split a day, and a stretch of a
 * call's size with no place to cut (days out of order, or one day over a call).
 */
export async function planImport(path: string, options: PlanOptions): Promise<ImportCall[]> {
  const { linesPerCall, fromLine } = options;
  // A first, cheap pass: how many lines.
  const { lines, bytes } = await forEachLine(path, () => undefined);
  if (lines === 0 && fromLine === 1) return [{ firstLine: 1, lastLine: 0, start: 0, end: 0 }];
  if (fromLine > lines) throw new CliError(`--from-line ${fromLine} is past the end of ${path} (${lines} line${lines === 1 ? '' : 's'})`);
  if (fromLine === 1 && lines <= linesPerCall) return [{ firstLine: 1, lastLine: lines, start: 0, end: bytes }];

  // The second pass reads every line's day (index = line - 1) and where it starts.
  const timeZone = await options.siteTimeZone();
  const days = new Int32Array(lines);
  const starts = new Float64Array(lines + 1);
  starts[lines] = bytes;
  await forEachLine(path, (number, start, line) => {
    starts[number - 1] = start;
    days[number - 1] = lineDay(line, timeZone, options.now);
  });
  // earliestFrom[i]: the earliest day of lines i… (a cut before line i needs every day before it earlier).
  const earliestFrom = new Int32Array(lines + 1);
  earliestFrom[lines] = NO_LATER_DAY;
  for (let i = lines - 1; i >= 0; i--) earliestFrom[i] = days[i] === NO_DAY ? earliestFrom[i + 1]! : Math.min(days[i]!, earliestFrom[i + 1]!);

  let first = fromLine - 1; // index of the next call's first line
  let latest = NO_DAY; // the latest day before it
  for (let i = 0; i < first; i++) latest = Math.max(latest, days[i]!);
  if (latest >= earliestFrom[first]!) {
    throw new CliError(
      `--from-line ${fromLine} would split a site-local day (lines before it reach ${dayText(latest)}, lines from it on go back to ${dayText(earliestFrom[first]!)}): go on from the line a stopped import named`,
    );
  }
  const calls: ImportCall[] = [];
  const call = (from: number, to: number): ImportCall => {
    const planned: ImportCall = { firstLine: from + 1, lastLine: to, start: starts[from]!, end: starts[to]! };
    let [earliest, latestDay] = [NO_LATER_DAY, NO_DAY];
    for (let i = from; i < to; i++) if (days[i] !== NO_DAY) [earliest, latestDay] = [Math.min(earliest, days[i]!), Math.max(latestDay, days[i]!)];
    if (latestDay !== NO_DAY) planned.days = [dayText(earliest), dayText(latestDay)];
    return planned;
  };
  while (lines - first > linesPerCall) {
    // The furthest cut within a call's reach.
    let cut = -1;
    let latestAtCut = latest;
    let running = latest;
    for (let next = first + 1; next <= first + linesPerCall; next++) {
      running = Math.max(running, days[next - 1]!);
      if (running < earliestFrom[next]!) [cut, latestAtCut] = [next, running];
    }
    if (cut === -1) {
      const limit = first + linesPerCall;
      throw new CliError(
        `lines ${first + 1}-${limit} hold no place to end a call without putting a site-local day in two calls (lines up to ${limit} reach ${dayText(running)}, lines after go back to ${dayText(earliestFrom[limit]!)}): the file's days are out of order there, or one day has more than ${linesPerCall} lines; sort the file by ts first`,
      );
    }
    calls.push(call(first, cut));
    [first, latest] = [cut, latestAtCut];
  }
  calls.push(call(first, lines));
  return calls;
}
