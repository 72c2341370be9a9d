// The 2 000 000-line import that the memory test (test/ingest/import-memory.test.ts) and
// bench/memory run: two calls of the most a call takes, over five days of January 2026.
import { MAX_IMPORT_LINES } from '../src/ingest/import-contract.js';

export const IMPORT_DAYS = 5;
const FIRST_DAY = Date.UTC(2026, 0, 5);

/** One line of a call's traffic: its instant, its visitor's address, its page, and its visit. */
export interface TrafficLine {
  ts: number;
  ip: string;
  page: string;
  /** The visitor's visit (one a block of 256 lines: its four pageviews). */
  visit: string;
}

/**
 * A call's traffic: `MAX_IMPORT_LINES` lines over five days, sessions of four pageviews of visitors
 * 64 at a time, in the order of `days`, made as they are read.
 */
export function* callTraffic(days: number[], call: number): Generator<TrafficLine> {
  const perDay = MAX_IMPORT_LINES / IMPORT_DAYS;
  for (const day of days) {
    for (let i = 0; i < perDay; i++) {
      const visitor = ((i >> 8) << 6) | (i & 63);
      const ip = `10.${call * IMPORT_DAYS + day}.${(visitor >> 8) & 255}.${visitor & 255}`;
      yield { ts: FIRST_DAY + day * 86_400_000 + Math.floor((i * 86_400_000) / perDay), ip, page: `/page/${(visitor * 7 + (i >> 6)) % 300}`, visit: `${ip}/${i >> 8}` };
    }
  }
}

/**
 * A call's lines (callTraffic) as NDJSON, 4 096 lines a chunk. `days` gives the order of the days
 * (later first: not in time order).
 */
export function* importCallLines(days: number[], call: number, ua: string): Generator<string> {
  const lines: string[] = [];
  for (const { ts, ip, page } of callTraffic(days, call)) {
    lines.push(JSON.stringify({ ts, ua, ip, u: page }));
    if (lines.length === 4096) yield `${lines.splice(0).join('\n')}\n`;
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

/** Both calls' day orders: in time order, then the reverse (read again and sorted). */
export const IMPORT_CALLS: number[][] = [
  Array.from({ length: IMPORT_DAYS }, (_, d) => d),
  Array.from({ length: IMPORT_DAYS }, (_, d) => IMPORT_DAYS - 1 - d),
];
