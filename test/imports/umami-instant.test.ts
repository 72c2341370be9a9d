// Umami's `created_at`, which every row of its export has, read a character at a time in the form
// Umami's exports write it: the instant Date.parse gives for the text, and null for the same texts
// as the reading with a pattern and Date.parse it stands in for (days and times that do not exist,
// other characters), for every other form too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { anyInstant, umamiInstant } from '../../src/imports/umami.js';

/** The reading the hand parser stands in for: a pattern, the day checked to exist, then Date.parse. */
const parsedInstant = anyInstant;

test("created_at in Umami's export form reads as Date.parse reads it, UTC", () => {
  const cases: Array<[string, string]> = [
    ['2025-04-10 10:00:00.250', '2025-04-10T10:00:00.250Z'],
    ['2025-04-10 10:00:00', '2025-04-10T10:00:00Z'],
    ['2025-04-10T10:00:00', '2025-04-10T10:00:00Z'],
    ['2025-04-10 10:00:00.2', '2025-04-10T10:00:00.200Z'],
    ['2025-04-10 10:00:00.25', '2025-04-10T10:00:00.250Z'],
    ['2025-04-10 23:59:59.999', '2025-04-10T23:59:59.999Z'],
    ['2024-02-29 00:00:00', '2024-02-29T00:00:00Z'],
    ['2000-02-29 12:00:00', '2000-02-29T12:00:00Z'],
    ['1000-01-01 00:00:00', '1000-01-01T00:00:00Z'],
    ['9999-12-31 23:59:59.999', '9999-12-31T23:59:59.999Z'],
  ];
  for (const [text, iso] of cases) assert.equal(umamiInstant(text), Date.parse(iso), text);
  for (const text of ['2025-02-29 00:00:00', '2100-02-29 00:00:00', '2025-04-31 00:00:00', '2025-13-01 00:00:00', '2025-00-10 00:00:00', '2025-04-00 00:00:00', '2025-04-10 10:60:00', '2025-04-10 10:00:60', '2025-04-10 25:00:00', '2025-04-10 10:00:00.', '2025-04-10 10:00:00.2x', '2025-04-10_10:00:00', '2025-4-10 10:00:00', ' 2025-04-10 10:00:00', '2025-04-10 1a:00:00', '２０２５-04-10 10:00:00', '']) {
    assert.equal(umamiInstant(text), null, text);
  }
});

test('created_at in every other form reads as the pattern and Date.parse read it (offsets, more digits, 24:00, years before 1000)', () => {
  for (const text of ['2025-04-10 10:00:00Z', '2025-04-10 10:00:00+02', '2025-04-10 14:00:00.123456+02', '2025-04-10T13:10:00+02:00', '2025-04-10 10:00:00.2500', '2025-04-10 24:00:00', '0999-12-31 23:59:59', '0050-02-29 00:00:00', '0048-02-29 00:00:00', '0000-02-29 00:00:00']) {
    assert.equal(umamiInstant(text), parsedInstant(text), text);
  }
});

test('created_at: any text near the export form reads as the pattern and Date.parse read it', () => {
  const form = '2024-02-29 23:59:59.999';
  const characters = fc.constantFrom(...'0123456789 -:.TZ+x\u0660');
  const edit = fc.record({ at: fc.nat(form.length), text: fc.string({ unit: characters, maxLength: 3 }), cut: fc.nat(3) });
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
      let text = form;
      for (const { at, text: put, cut } of edits) text = text.slice(0, at) + put + text.slice(at + cut);
      assert.equal(umamiInstant(text), parsedInstant(text), text);
    }),
    { numRuns: 20_000 },
  );
  // Every day of the years around the leap rules, at the day's first and last millisecond.
  for (const year of [1900, 1999, 2000, 2023, 2024, 2100]) {
    for (let month = 1; month <= 12; month++) {
      for (let day = 27; day <= 32; day++) {
        for (const time of ['00:00:00', '23:59:59.999']) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')} ${time}`;
          assert.equal(umamiInstant(text), parsedInstant(text), text);
        }
      }
    }
  }
});
