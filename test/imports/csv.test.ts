// The streaming CSV reader of the imports: equal to a plain model of RFC 4180 splitting over the
// whole text, however the bytes are cut into chunks; its line numbers, BOM, CRLF, quoted line
// breaks, records past the limit and a quote left open at the end; and linear time with the event
// loop given back, whatever lines a quoted field spans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvRecords, detached, MAX_RECORD_CHARS, type CsvRecord } from '../../src/imports/csv.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { quotedHeaderCsv } from '../helpers/hostile-imports.js';

/** The model's fields of one record: a quote opens or closes a quoted field, `""` inside one is a quote. */
function modelFields(record: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < record.length; i++) {
    const c = record[i]!;
    if (c === '"' && quoted && record[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

const oddQuotes = (text: string) => text.split('"').length % 2 === 0;

/**
 * The model over a whole text: lines joined into one record while a quote is open; a CR before the
 * record's last line break dropped (a CR before a line break inside quotes is the field's); a record
 * past the limit is reported too long at its first line and reading resumes at the line after the
 * one that passed it; blank lines are no record.
 */
function modelRecords(text: string): CsvRecord[] {
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split('\n');
  if (text === '' || text.endsWith('\n')) lines.pop();
  const records: CsvRecord[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = i + 1;
    let record = lines[i++]!;
    while (record.length <= MAX_RECORD_CHARS && oddQuotes(record) && i < lines.length) record += `\n${lines[i++]!}`;
    if (!oddQuotes(record) && record.endsWith('\r')) record = record.slice(0, -1);
    if (record.length > MAX_RECORD_CHARS) records.push({ line, tooLong: true });
    else if (record !== '') records.push({ line, fields: modelFields(record) });
  }
  return records;
}

/** `bytes` as a stream cut after each of `sizes` bytes in turn. */
async function* chunked(bytes: Buffer, sizes: readonly number[]): AsyncGenerator<Buffer> {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function read(text: string, sizes: readonly number[] = [64 * 1024]): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const record of csvRecords(chunked(Buffer.from(text, 'utf8'), sizes))) records.push(record);
  return records;
}

// Long runs land records on both sides of the limit; multi-byte characters are cut between chunks.
const token = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('a', 'b', ',', '"', '""', '\n', '\r', '\r\n', ' ', 'é', '😀', '\uFEFF') },
  { weight: 1, arbitrary: fc.constantFrom(21_845, 32_767, 32_768, 65_534, 65_535, 65_536, 65_537).map((n) => 'x'.repeat(n)) },
);
const csvText = fc.array(token, { maxLength: 80, size: 'medium' }).map((tokens) => tokens.join(''));
const chunkSizes = fc.oneof(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 5 }));

test('the reader equals the plain model of RFC 4180 splitting, however its bytes are cut', async () => {
  await fc.assert(
    fc.asyncProperty(csvText, chunkSizes, async (text, sizes) => {
      // A few hundred chunks at most: long texts are cut in as many places, not in every byte.
      const fewest = Math.ceil(Buffer.byteLength(text, 'utf8') / 300);
      assert.deepEqual(await read(text, sizes.map((size) => Math.max(size, fewest))), modelRecords(text));
    }),
    { numRuns: 300 },
  );
});

test('line numbers, BOM, CRLF, quoted line breaks, blank lines and a quote left open', async () => {
  const text = '\uFEFFdate,name\r\n2025-01-01,"two\r\nlines"\r\n\r\n2025-01-02,"say ""hi"""\n2025-01-03,"never closed\nto the end';
  const expected: CsvRecord[] = [
    { line: 1, fields: ['date', 'name'] },
    { line: 2, fields: ['2025-01-01', 'two\r\nlines'] },
    { line: 5, fields: ['2025-01-02', 'say "hi"'] },
    { line: 6, fields: ['2025-01-03', 'never closed\nto the end'] },
  ];
  assert.deepEqual(await read(text), expected);
  assert.deepEqual(await read(text, [1]), expected, 'one byte at a time');
});

test('a record past the limit is reported at its first line, dropped, and reading resumes at the next line', async () => {
  const at = (chars: number) => 'x'.repeat(chars);
  assert.deepEqual(await read(`${at(MAX_RECORD_CHARS)}\r\n${at(MAX_RECORD_CHARS + 1)}\nok\n`, [1000]), [
    { line: 1, fields: [at(MAX_RECORD_CHARS)] },
    { line: 2, tooLong: true },
    { line: 3, fields: ['ok'] },
  ]);
  // A quoted field whose lines pass the limit together: the line that passes it is the last dropped.
  const half = at(MAX_RECORD_CHARS / 2);
  assert.deepEqual(await read(`a,"${half}\n${half}\n${half}",b\nnext\n`), [
    { line: 1, tooLong: true },
    { line: 3, fields: [`${half},b\nnext`] },
  ]);
  assert.deepEqual(await read(`"${at(MAX_RECORD_CHARS - 3)}\n"\nnext`), [
    { line: 1, fields: [`${at(MAX_RECORD_CHARS - 3)}\n`] },
    { line: 3, fields: ['next'] },
  ]);
});

test('a quoted field of 21 000 lines, or a million lines before a quote, is read in one pass', async () => {
  const text = quotedHeaderCsv();
  assert.ok(text.length < MAX_RECORD_CHARS);
  const started = performance.now();
  const records = await read(text, [16 * 1024]);
  const elapsed = performance.now() - started;
  assert.deepEqual(
    records.map((r) => ('fields' in r ? [r.line, r.fields.length] : [r.line])),
    [[1, 7], [21_002, 7]],
  );
  // Tens of milliseconds in one pass; rescanning the record at each line took seconds.
  assert.ok(elapsed < 1_000, `read in ${Math.round(elapsed)} ms`);

  // A million lines in one chunk, their first quote after the last: each line is searched alone.
  const blankStarted = performance.now();
  assert.deepEqual(await read(`${'\n'.repeat(1_000_000)}"x"\n`, [4 * 1024 * 1024]), [{ line: 1_000_001, fields: ['x'] }]);
  const blankElapsed = performance.now() - blankStarted;
  assert.ok(blankElapsed < 1_000, `read in ${Math.round(blankElapsed)} ms`);
});

test('the event loop is given back while records are read', async () => {
  const chunk = Buffer.from('2025-01-01,10,30,6,12,600\n'.repeat(2_500));
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < 40; i++) yield chunk; // no I/O between chunks: only the reader's turns let a timer run
  }
  let ticks = 0;
  let last = performance.now();
  let longestGap = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    ticks++;
  }, 1);
  let records = 0;
  try {
    for await (const _ of csvRecords(source())) records++;
  } finally {
    clearInterval(probe);
  }
  assert.equal(records, 100_000);
  assert.ok(ticks >= 5, `a timer ran ${ticks} times during the read`);
  assert.ok(longestGap < 250, `the event loop was held ${Math.round(longestGap)} ms`);
});

test('a detached field keeps nothing of the text it was cut from', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  /** The heap a field of each of 200 texts of 64 K characters holds, kept as `keep` makes it. */
  const heldBy = (keep: (field: string) => string) => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 200 }, (_, i) => keep(`"${String(i).padStart(64 * 1024, '0')}"`.slice(1, 41)));
    gc();
    const held = process.memoryUsage().heapUsed - before;
    assert.equal(kept.length, 200);
    return held;
  };
  // The slice itself keeps its 64 KiB text (200 of them: 12.8 MB); the detached copy 40 characters.
  assert.ok(heldBy((field) => field) > 10e6, 'a slice keeps its text (the check below would not see a copy that failed)');
  const heldByDetached = heldBy(detached);
  assert.ok(heldByDetached < 1e6, `detached fields hold ${heldByDetached} bytes`);
  assert.equal(detached('a field'), 'a field');
});
