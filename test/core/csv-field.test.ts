// CSV fields as svc writes them (src/core/csv-field.ts), for the dashboard's `Export CSV` and the
// server's export: text a spreadsheet would run as a formula is neutralised, numbers stay numbers,
// and svc's CSV reader with restoredText gives back every text exactly, whatever it holds.
// fast-check runs with a fixed seed: a failure is reproducible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvField, neutralisedText, restoredText } from '../../src/core/csv-field.js';
import { csvRecords } from '../../src/imports/csv.js';

const SEED = 20260449;

test('text that a spreadsheet reads as a formula is neutralised; numbers and plain text are not', () => {
  assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  for (const [cell, field] of [
    ['=1+1', "'=1+1"],
    ['+1+1', "'+1+1"],
    ['-1+1', "'-1+1"],
    ['-2+3+cmd|\' /C calc\'!A0', "'-2+3+cmd|' /C calc'!A0"],
    ['-x', "'-x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['\n=1+1', `"'\n=1+1"`],
    ['\r\n=1+1', `"'\r\n=1+1"`],
    ["'quoted", "''quoted"],
    ['-5', '-5'],
    ['-12.5', '-12.5'],
    ['a=1', 'a=1'],
    [' =1', ' =1'],
    ['/pricing', '/pricing'],
  ] as const) {
    assert.equal(csvField(cell), field, JSON.stringify(cell));
  }
  assert.equal(csvField(-12.5), '-12.5');
  assert.equal(csvField(3), '3');
  assert.equal(csvField(Number.NaN), '');
  assert.equal(csvField(null), '');
});

test("restoredText takes off the writer's mark only: a text that begins with ' keeps it", () => {
  for (const text of ["'=1+1", "''quoted", "'quoted", "'", "''", "'-5", '-5', '=1']) {
    assert.equal(restoredText(neutralisedText(text)), text, JSON.stringify(text));
  }
  // What another tool wrote with a `'` of its own, not followed by a formula's start, is read as it is.
  assert.equal(restoredText("'quoted"), "'quoted");
  assert.equal(restoredText("'-5"), "'-5");
});

/** Strings built to look like formulas, marks, quotes and line breaks, and any string at all. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.constantFrom("'", "''", '=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', ',', '5', '.', ' ', 'A1', 'é', '🦆'), { maxLength: 12 }).map((parts) => parts.join('')),
);

/** The records of a CSV text as svc's import reads them, its bytes arriving in pieces cut at `cuts`. */
async function readBack(text: string, cuts: readonly number[]): Promise<string[][]> {
  const bytes = Buffer.from(text);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length));
  const records: string[][] = [];
  for await (const record of csvRecords((async function* () { yield* pieces; })())) {
    assert.ok(!('tooLong' in record));
    records.push(record.fields.map(restoredText));
  }
  return records;
}

test('any texts written as CSV records read back exactly, and none reads as a formula', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(hostile, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('\n', '\r\n'),
      fc.array(fc.nat(), { maxLength: 4 }),
      async (records, lineEnd, cuts) => {
        for (const record of records) {
          for (const text of record) {
            const field = csvField(text);
            const unquoted = field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
            assert.ok(!/^[=+\-@\t\r\n]/.test(unquoted) || /^-\d+(?:\.\d+)?$/.test(unquoted), JSON.stringify(field));
          }
        }
        const text = records.map((record) => record.map(csvField).join(',') + lineEnd).join('');
        assert.deepEqual(await readBack(text, cuts), records);
      },
    ),
    { seed: SEED, numRuns: 2000 },
  );
});
