// An import's body on disk (src/ingest/import-spill.ts): kept as it came in unnamed files, read again
// in time order with the lines' texts exactly as sent, and nothing left in the folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLoopTurns } from '../../src/core/turns.js';
import { ndjsonLines } from '../../src/ingest/import.js';
import { SpilledBody, sortedLines } from '../../src/ingest/import-spill.js';

/** A body's bytes cut every `size` bytes, so that characters of several bytes fall across chunks. */
function chunksOf(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

async function readThrough(body: SpilledBody, chunks: Iterable<Buffer | string>): Promise<Array<{ line: string; number: number }>> {
  const seen: Array<{ line: string; number: number }> = [];
  for await (const batch of ndjsonLines(body.keep(chunks))) for (const { line, number } of batch) seen.push({ line, number });
  return seen;
}

/** Runs `body` with a folder of its own, removed after. */
async function inFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-spill-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function sorted(body: SpilledBody, dir: string, lines: number[], instants: number[]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of sortedLines(ndjsonLines(body.chunks()), () => body.release(), dir, lines, instants, new EventLoopTurns())) out.push(...batch);
  return out;
}

test('the accepted lines come back in time order, ties in file order, their texts as sent', () =>
  inFolder(async (dir) => {
    // Lines of every length (some longer than a read window), characters of 2 to 4 bytes, CRLF endings.
    const texts = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"t":"${'é€😀x'.repeat((i * 7919) % 23)}${i % 97 === 0 ? 'y'.repeat(20_000) : ''}"}`);
    const instants = texts.map((_, i) => ((i * 2654435761) % 1000) * 1000);
    const body = new SpilledBody(dir, 1 << 30);
    const seen = await readThrough(body, chunksOf(texts.map((t, i) => (i % 2 ? `${t}\r\n` : `${t}\n`)).join(''), 4093));
    assert.deepEqual(seen.map((s) => s.line), texts);
    assert.deepEqual(readdirSync(dir), [], 'the body has no name in the folder');
    // Every third line was rejected: only the others are read again.
    const accepted = seen.filter((s) => s.number % 3 !== 0);
    const expected = accepted
      .map((s) => ({ text: s.line, instant: instants[s.number - 1]!, number: s.number }))
      .sort((a, b) => a.instant - b.instant || a.number - b.number)
      .map((s) => s.text);
    const got = await sorted(body, dir, accepted.map((s) => s.number), accepted.map((s) => instants[s.number - 1]!));
    assert.equal(got.length, expected.length);
    assert.deepEqual(got, expected);
    assert.deepEqual(readdirSync(dir), []);
  }));

test('a body past its bound is let go of and known to be over; a body under it is kept whole', () =>
  inFolder(async (dir) => {
    const text = Array.from({ length: 100 }, (_, i) => `{"n":${i}}`).join('\n');
    const over = new SpilledBody(dir, Buffer.byteLength(text) - 1);
    assert.equal((await readThrough(over, chunksOf(text, 64))).length, 100, 'the lines still stream through');
    assert.equal(over.overflowed, true);
    const exact = new SpilledBody(dir, Buffer.byteLength(text));
    await readThrough(exact, chunksOf(text, 64));
    assert.equal(exact.overflowed, false);
    const again: Buffer[] = [];
    for await (const chunk of exact.chunks()) again.push(chunk);
    assert.equal(Buffer.concat(again).toString(), text);
    exact.release();
    assert.deepEqual(readdirSync(dir), []);
  }));

test('a body read again that lacks an accepted line is an error, not a short import', () =>
  inFolder(async (dir) => {
    const body = new SpilledBody(dir, 1 << 20);
    await readThrough(body, ['{"a":1}\n{"a":2}\n']);
    await assert.rejects(sorted(body, dir, [1, 2, 3], [3, 2, 1]), /lacks accepted lines/);
  }));
