// Splitting an NDJSON byte stream into lines, whatever the chunk boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_IMPORT_LINE_BYTES } from '../../src/ingest/import-contract.js';
import { ndjsonLines } from '../../src/ingest/import.js';

async function collect(chunks: Buffer[]) {
  const out = [];
  for await (const lines of ndjsonLines((async function* () { yield* chunks; })())) out.push(...lines);
  return out;
}

test('a character split between two chunks is decoded whole, at every split point', async () => {
  const text = '{"u":"/zürich"}\n{"u":"/🦆"}\r\n{"u":"/ß"}';
  const bytes = Buffer.from(text);
  for (let cut = 1; cut < bytes.length; cut++) {
    const lines = await collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
    assert.deepEqual(lines.map((l) => l.line), ['{"u":"/zürich"}', '{"u":"/🦆"}', '{"u":"/ß"}'], `split at byte ${cut}`);
    assert.deepEqual(lines.map((l) => l.number), [1, 2, 3]);
  }
});

test('one byte at a time', async () => {
  const bytes = Buffer.from('{"a":"é"}\n\n{"b":"🦆"}\n');
  const lines = await collect([...bytes].map((b) => Buffer.from([b])));
  assert.deepEqual(lines.map((l) => [l.number, l.line]), [[1, '{"a":"é"}'], [2, ''], [3, '{"b":"🦆"}']]);
});

test('an over-long line is reported once, by number, without being buffered whole', async () => {
  const long = 'x'.repeat(MAX_IMPORT_LINE_BYTES * 3);
  const chunks = [Buffer.from('{"ok":1}\n'), ...Array.from({ length: 6 }, (_, i) => Buffer.from(long.slice(i * (long.length / 6), (i + 1) * (long.length / 6)))), Buffer.from('\n{"ok":2}\n')];
  const lines = await collect(chunks);
  assert.deepEqual(lines.map((l) => [l.number, l.tooLong, l.line.length > 100 ? 'long' : l.line]), [[1, false, '{"ok":1}'], [2, true, ''], [3, false, '{"ok":2}']]);
});
