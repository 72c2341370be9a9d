// How `svc import` cuts a file into calls (src/cli/import-plan.ts), on real files in a scratch dir:
// where the cuts fall for several time zones, that the byte ranges give back the file's lines,
// and every file that cannot be split is refused before anything is sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachLine, planImport, type ImportCall, type PlanOptions } from '../../src/cli/import-plan.js';
import { CliError } from '../../src/cli/errors.js';
import { MAX_IMPORT_LINE_BYTES } from '../../src/ingest/import-contract.js';
import { ndjsonLines } from '../../src/ingest/import.js';

let scratch: string;
let files = 0;
before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-plan-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 22);
const HOUR = 3_600_000;

/** A file of the given lines (objects are written as JSON, strings as they are). */
function fileOf(lines: Array<Record<string, unknown> | string>, ending = '\n', finalNewline = true): string {
  const path = join(scratch, `f${++files}.ndjson`);
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join(ending);
  writeFileSync(path, text + (finalNewline && lines.length > 0 ? ending : ''));
  return path;
}

/** An import line at an instant. */
const at = (ts: number | string) => ({ ts, ua: 'Mozilla/5.0', u: '/' });

function plan(path: string, options: Partial<PlanOptions> & { timeZone?: string } = {}): Promise<ImportCall[]> {
  return planImport(path, {
    linesPerCall: options.linesPerCall ?? 1_000_000,
    fromLine: options.fromLine ?? 1,
    siteTimeZone: options.siteTimeZone ?? (async () => options.timeZone ?? 'UTC'),
    now: NOW,
    // Reads of a few bytes: every line is gathered across reads.
    chunkBytes: 5,
  });
}

/** The calls as [firstLine, lastLine] pairs. */
const ranges = (calls: ImportCall[]) => calls.map((c) => [c.firstLine, c.lastLine]);

/** The bytes of every call, read back from the file: together, the file from the first call on. */
function assertBytesCover(path: string, calls: ImportCall[]): void {
  const bytes = readFileSync(path);
  calls.forEach((c, i) => {
    const slice = bytes.subarray(c.start, c.end).toString();
    const lines = slice.split('\n').filter((l, j, all) => j < all.length - 1 || l !== '');
    assert.equal(lines.length, c.lastLine - c.firstLine + 1, `call ${i + 1} holds its lines`);
    if (i > 0) assert.equal(c.start, calls[i - 1]!.end, 'calls are contiguous');
  });
  assert.equal(calls[calls.length - 1]!.end, bytes.length, 'the last call ends with the file');
}

describe('a file that fits in one call', () => {
  test('is one call over the whole file, and the site is not looked up', async () => {
    const path = fileOf([at(NOW - 3 * 86_400_000), at(NOW - 86_400_000), '{broken']);
    let asked = false;
    const calls = await plan(path, { linesPerCall: 3, siteTimeZone: async () => ((asked = true), 'UTC') });
    assert.deepEqual(ranges(calls), [[1, 3]]);
    assertBytesCover(path, calls);
    assert.equal(asked, false);
  });

  test('from a line on: the call starts at that line, which must begin a day', async () => {
    const lines = [at(Date.UTC(2026, 2, 10, 9)), at(Date.UTC(2026, 2, 11, 9)), at(Date.UTC(2026, 2, 11, 10)), at(Date.UTC(2026, 2, 12, 9))];
    const path = fileOf(lines);
    const calls = await plan(path, { fromLine: 2 });
    assert.deepEqual(ranges(calls), [[2, 4]]);
    assert.equal(readFileSync(path).subarray(calls[0]!.start, calls[0]!.end).toString(), lines.slice(1).map((l) => JSON.stringify(l) + '\n').join(''));
    assert.deepEqual(calls[0]!.days, ['2026-03-11', '2026-03-12']);
    await assert.rejects(plan(path, { fromLine: 3 }), (err: unknown) =>
      err instanceof CliError && /^--from-line 3 would split a site-local day \(2026-03-11 has lines before it and from it on\)/.test(err.message),
    );
  });

  test('an empty file is one empty call', async () => {
    assert.deepEqual(await plan(fileOf([])), [{ firstLine: 1, lastLine: 0, start: 0, end: 0 }]);
  });
});

describe('a file over a call is cut at the site-local midnights', () => {
  // Three local days of a zone: 3, 2 and 4 lines, each at noon-ish local time.
  const days = (offsetHours: number) => {
    const day = (d: number, h: number) => Date.UTC(2026, 2, 10 + d, 12 + h) - offsetHours * HOUR;
    return [day(0, 0), day(0, 1), day(0, 2), day(1, 0), day(1, 1), day(2, 0), day(2, 1), day(2, 2), day(2, 3)].map((ts) => at(ts));
  };
  for (const [timeZone, offsetHours] of [
    ['UTC', 0],
    ['Asia/Kathmandu', 5.75],
    ['America/St_Johns', -2.5],
    ['Pacific/Kiritimati', 14],
  ] as const) {
    test(`whole days packed in order (${timeZone})`, async () => {
      const path = fileOf(days(offsetHours));
      const calls = await plan(path, { linesPerCall: 5, timeZone });
      assert.deepEqual(ranges(calls), [[1, 5], [6, 9]]);
      assertBytesCover(path, calls);
      assert.deepEqual(ranges(await plan(path, { linesPerCall: 4, timeZone })), [[1, 3], [4, 5], [6, 9]]);
    });
  }

  test('the cut follows the zone: the same instants cut elsewhere in another zone', async () => {
    // 03:00 UTC on two days is 22:00 or 23:00 the evening before in New York.
    const path = fileOf([Date.UTC(2026, 0, 5, 20), Date.UTC(2026, 0, 6, 3), Date.UTC(2026, 0, 6, 20), Date.UTC(2026, 0, 7, 3)].map((ts) => at(ts)));
    assert.deepEqual(ranges(await plan(path, { linesPerCall: 2, timeZone: 'UTC' })), [[1, 1], [2, 3], [4, 4]]);
    assert.deepEqual(ranges(await plan(path, { linesPerCall: 2, timeZone: 'America/New_York' })), [[1, 2], [3, 4]]);
  });

  test('lines the server will reject are no day of their own; ISO instants and CRLF are read', async () => {
    const lines = [at('2026-03-10T10:00:00Z'), '', '{broken', at('2026-03-10T11:00:00+01:00'), at('yesterday'), at('2026-03-11T10:00:00.5Z'), at(NOW + 5 * 86_400_000)];
    const path = fileOf(lines, '\r\n', false);
    const calls = await plan(path, { linesPerCall: 5 });
    assert.deepEqual(ranges(calls), [[1, 5], [6, 7]]);
    assert.equal(readFileSync(path).subarray(calls[1]!.start, calls[1]!.end).toString(), `${JSON.stringify(lines[5])}\r\n${JSON.stringify(lines[6])}`);
  });

  test('from a line on: only the lines from there are planned', async () => {
    const path = fileOf(days(0));
    const calls = await plan(path, { linesPerCall: 4, fromLine: 4 });
    assert.deepEqual(ranges(calls), [[4, 5], [6, 9]]);
    assertBytesCover(path, calls);
  });

  test('a line that strays over midnight stays with its day: the cut waits until no day is on both sides', async () => {
    const [a, b, c] = [Date.UTC(2026, 2, 10, 23, 59, 59), Date.UTC(2026, 2, 11, 0, 0, 1), Date.UTC(2026, 2, 12, 12)];
    const path = fileOf([a - 2000, a - 1000, a - 500, b, a, b + 1000, b + 2000, c, c + 1000].map((ts) => at(ts)));
    const calls = await plan(path, { linesPerCall: 7 });
    assert.deepEqual(ranges(calls), [[1, 7], [8, 9]]);
    assert.deepEqual(calls.map((call) => call.days), [['2026-03-10', '2026-03-11'], ['2026-03-12', '2026-03-12']]);
    assertBytesCover(path, calls);
  });

  test('lines with no day the server reads can be cut anywhere', async () => {
    // ts in seconds: every line will be rejected, none is stored, so no cut can split a day.
    const path = fileOf([1, 2, 3, 4, 5].map((i) => at(1_773_000_000 + i)));
    const calls = await plan(path, { linesPerCall: 2 });
    assert.deepEqual(ranges(calls), [[1, 2], [3, 4], [5, 5]]);
    assert.equal(calls[0]!.days, undefined);
  });
});

describe('a file that cannot be split is refused before anything is sent', () => {
  const refused = async (promise: Promise<unknown>, message: RegExp) => {
    await assert.rejects(promise, (err: unknown) => err instanceof CliError && message.test(err.message));
  };

  test('days out of order', async () => {
    const path = fileOf([at(Date.UTC(2026, 2, 11)), at(Date.UTC(2026, 2, 12)), at(Date.UTC(2026, 2, 11, 5))]);
    await refused(plan(path, { linesPerCall: 2 }), /^lines 1-2 hold no place to end a call without putting a site-local day in two calls \(2026-03-11 runs from line 1 to 3\).*sort the file by ts first$/);
    // Whole days in any order can be cut (a newest-first export), and so can a day out of order within one.
    const newestFirst = fileOf([12, 12, 11, 11, 10, 10].map((d) => at(Date.UTC(2026, 2, d, 9))));
    assert.deepEqual(ranges(await plan(newestFirst, { linesPerCall: 2 })), [[1, 2], [3, 4], [5, 6]]);
    const sameDay = fileOf([at(Date.UTC(2026, 2, 11, 9)), at(Date.UTC(2026, 2, 11, 8)), at(Date.UTC(2026, 2, 12))]);
    assert.deepEqual(ranges(await plan(sameDay, { linesPerCall: 2 })), [[1, 2], [3, 3]]);
  });

  test('a day with more lines than a call', async () => {
    const path = fileOf([at(Date.UTC(2026, 2, 11)), at(Date.UTC(2026, 2, 12, 1)), at(Date.UTC(2026, 2, 12, 2)), at(Date.UTC(2026, 2, 12, 3))]);
    await refused(plan(path, { linesPerCall: 2 }), /^lines 2-3 hold no place .*\(2026-03-12 runs from line 2 to 4\).*one day has more than 2 lines/);
  });

  test('a first line past the end', async () => {
    await refused(plan(fileOf([at(NOW)]), { fromLine: 3 }), /--from-line 3 is past the end of .* \(1 line\)/);
  });
});

test('forEachLine numbers lines and their byte ranges across read chunks; a line too long for the server (its CR included) is not gathered', async () => {
  const long = 'x'.repeat(1_500_000); // longer than a read chunk (1 MiB)
  const kept = 'k'.repeat(MAX_IMPORT_LINE_BYTES); // the longest line the server reads
  const path = fileOf(['a', long, '', 'é', kept, kept + '\r', 'last', '  '], '\n', false);
  const seen: Array<[number, number, string | null]> = [];
  const { lines, bytes } = await forEachLine(path, (n, start, line) => seen.push([n, start, line === null ? null : line.length > 10 ? `${line.length}` : line.toString()]));
  const after = 1_500_007 + kept.length + 1;
  assert.deepEqual(seen, [
    [1, 0, 'a'],
    [2, 2, null],
    [3, 1_500_003, ''],
    [4, 1_500_004, 'é'],
    [5, 1_500_007, `${kept.length}`],
    [6, after, null],
    [7, after + kept.length + 2, 'last'],
  ]);
  // The final line of blanks is no line, for the server as here.
  assert.deepEqual({ lines, bytes }, { lines: 7, bytes: readFileSync(path).length });
});

test('forEachLine numbers lines as the server does, whatever the bytes', async () => {
  // Random bodies of newlines, CRs, spaces, multi-byte and invalid UTF-8: the line the server
  // reports as N is the CLI's line N (so a report's line numbers translate exactly).
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n);
  const nearLimit = Buffer.alloc(MAX_IMPORT_LINE_BYTES - 2, 0x78);
  const alphabet = [Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from(' '), Buffer.from('{"ts":1}'), Buffer.from('é'), Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from('x')];
  for (let round = 0; round < 200; round++) {
    // Now and then a run of bytes near the line limit.
    const body = Buffer.concat(Array.from({ length: random(60) }, () => (random(40) === 0 ? nearLimit : alphabet[random(alphabet.length)]!)));
    const path = join(scratch, `random${round}.ndjson`);
    writeFileSync(path, body);
    const cli = new Map<number, string | null>();
    const chunk = body.length > 4096 ? 1024 + random(4096) : 1 + random(64);
    const { lines } = await forEachLine(path, (n, _start, line) => cli.set(n, line === null ? null : line.toString('utf8').replace(/\r$/, '')), chunk);
    let serverLines = 0;
    // The server decodes chunk by chunk: split the body at a random place to cover that too.
    const cut = random(body.length + 1);
    for await (const batch of ndjsonLines([body.subarray(0, cut), body.subarray(cut)])) {
      for (const { line, number, tooLong } of batch) {
        const mine = cli.get(number);
        const where = `round ${round} (reads of ${chunk} bytes), line ${number}`;
        if (!tooLong) assert.ok(mine === line, `${where}: ${mine?.length} characters here, ${line.length} for the server`);
        // The server measures a line once decoded, each invalid byte then 3 bytes (U+FFFD): such a line
        // may be too long for it and not here, which only gives the plan a day the server will not store.
        else assert.ok(mine === null || mine!.includes('\ufffd'), `${where}: kept here, too long for the server`);
        serverLines = number;
      }
    }
    assert.equal(lines, serverLines, `round ${round}: as many lines as the server`);
  }
});
