// How `svc import` splits a file into calls the server takes (at most MAX_IMPORT_LINES lines each).
//
// An import call hashes visitors with salts of its own, one per site-local day, so the same visitor
// on the same day in two calls would count as two. Calls are therefore cut only at site-local
// midnights, which keeps every figure exact except a session that crosses the cut: it counts as two
// sessions, one on each side. Cutting at midnights needs the file's days in order (lines within a
// day may be in any order: the server sorts each call); the plan is made, and checked, before
// anything is sent, so a file that cannot be split is refused whole.
import { createReadStream } from 'node:fs';
import { localDay } from '../core/localtime.js';
import { parseImportTimestamp } from '../ingest/import-contract.js';
import { CliError } from './errors.js';

/** One call: file lines [firstLine, lastLine] (numbered from 1), the bytes [start, end). */
export interface ImportCall {
  firstLine: number;
  lastLine: number;
  start: number;
  end: number;
}

const NEWLINE = 0x0a;

/**
 * Calls `onLine` for every line of a file, with its number and byte range (newline excluded).
 * A final line without a newline counts; the empty remainder after a final newline does not.
 * Synchronous per line: a step of an async iterator per line would cost more than the line.
 */
export async function forEachLine(path: string, onLine: (number: number, start: number, line: Buffer) => void): Promise<{ lines: number; bytes: number }> {
  let number = 0;
  let offset = 0; // bytes before `carry`
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let from = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, from)) {
      onLine(++number, offset + from, data.subarray(from, nl));
      from = nl + 1;
    }
    offset += from;
    carry = data.subarray(from);
  }
  if (carry.length > 0) onLine(++number, offset, carry);
  return { lines: number, bytes: offset + carry.length };
}

/** The site-local day of a line, or null when its `ts` would be rejected (such a line stays with its neighbours). */
function lineDay(line: Buffer, timeZone: string, now: number): string | null {
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
  /** The first line to import (earlier lines are skipped: resuming a stopped import). */
  fromLine: number;
  /** The site's time zone, asked for only when the file needs several calls (cut at its midnights). */
  siteTimeZone: () => Promise<string>;
  now: number;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The calls that import lines fromLine… of a file: one when they fit, else whole site-local days
 * packed in file order. Refuses a file whose days go back in time, and a day with more lines than
 * a call holds.
 */
export async function planImport(path: string, options: PlanOptions): Promise<ImportCall[]> {
  const { linesPerCall, fromLine } = options;
  // A first, cheap pass: how many lines, and where the first one to import starts.
  let start = -1;
  const { lines, bytes } = await forEachLine(path, (number, at) => {
    if (number === fromLine) start = at;
  });
  if (lines === 0 && fromLine === 1) return [{ firstLine: 1, lastLine: 0, start: 0, end: 0 }];
  if (start === -1) throw new CliError(`--from-line ${fromLine} is past the end of ${path} (${count(lines)} line${lines === 1 ? '' : 's'})`);
  if (lines - fromLine + 1 <= linesPerCall) return [{ firstLine: fromLine, lastLine: lines, start, end: bytes }];
  const timeZone = await options.siteTimeZone();

  const calls: ImportCall[] = [];
  // The call being filled holds whole days [callFirst, dayFirst); the day being read starts at dayFirst.
  let call = { firstLine: fromLine, start, lines: 0 };
  let day = { value: null as string | null, firstLine: fromLine, start, lines: 0 };
  const closeDay = () => {
    if (day.lines > linesPerCall) {
      throw new CliError(
        `${day.value} has ${count(day.lines)} lines from line ${count(day.firstLine)} on, more than one import call takes (${count(linesPerCall)}); a day cannot be split without counting its visitors twice`,
      );
    }
    if (call.lines + day.lines <= linesPerCall) {
      call.lines += day.lines;
      return;
    }
    calls.push({ firstLine: call.firstLine, lastLine: day.firstLine - 1, start: call.start, end: day.start });
    call = { firstLine: day.firstLine, start: day.start, lines: day.lines };
  };
  await forEachLine(path, (number, at, line) => {
    if (number < fromLine) return;
    const lineDayValue = lineDay(line, timeZone, options.now);
    if (lineDayValue !== null && day.value !== null && lineDayValue !== day.value) {
      if (lineDayValue < day.value) {
        throw new CliError(
          `${path} is not in time order (line ${count(number)} is on ${lineDayValue}, after lines on ${day.value}): a file over ${count(linesPerCall)} lines is imported in several calls, cut at midnights, so sort it by ts first`,
        );
      }
      closeDay();
      day = { value: lineDayValue, firstLine: number, start: at, lines: 0 };
    }
    day.value ??= lineDayValue;
    day.lines++;
  });
  closeDay();
  calls.push({ firstLine: call.firstLine, lastLine: lines, start: call.start, end: bytes });
  return calls;
}
