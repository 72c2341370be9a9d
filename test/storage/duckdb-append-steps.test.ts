// The steps of a DuckDB append: chunks of at most APPEND_CHUNK_ROWS, every row in exactly one, in
// order, and never more than the flush bound held by the appender before a flush; the last step
// flushes. Each step is a stretch of the event loop, so these bounds are what the collection
// endpoint waits for at most while a second's events are written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPEND_CHUNK_ROWS, BULK_FLUSH_ROWS, LIVE_FLUSH_ROWS, appendSteps } from '../../src/storage/events/duckdb-append.js';

test('small live appends: one step per chunk, the rows flushed every two chunks and at the end', () => {
  const cases: [number, [number, number, boolean][]][] = [
    [0, []],
    [1, [[0, 1, true]]],
    [512, [[0, 512, true]]],
    [513, [[0, 512, false], [512, 1, true]]],
    [1024, [[0, 512, false], [512, 512, true]]],
    [1025, [[0, 512, false], [512, 512, true], [1024, 1, true]]],
    [2500, [[0, 512, false], [512, 512, true], [1024, 512, false], [1536, 512, true], [2048, 452, true]]],
  ];
  for (const [rows, steps] of cases) {
    assert.deepEqual(appendSteps(rows, LIVE_FLUSH_ROWS).map((s) => [s.offset, s.count, s.flush]), steps, `${rows} rows`);
  }
});

test('every size: the rows covered once in order, chunks and unflushed rows within their bounds, the last step flushing', () => {
  for (const [rows, flushRows] of [1, 7, 511, 1023, 2047, 2048, 2049, 4999, 5000, 10_000, 250_000].flatMap((rows) => [[rows, LIVE_FLUSH_ROWS] as const, [rows, BULK_FLUSH_ROWS] as const])) {
    const steps = appendSteps(rows, flushRows);
    let next = 0;
    let unflushed = 0;
    for (const step of steps) {
      assert.equal(step.offset, next, `${rows} rows: contiguous`);
      assert.ok(step.count > 0 && step.count <= APPEND_CHUNK_ROWS, `${rows} rows: a chunk of ${step.count}`);
      next += step.count;
      unflushed += step.count;
      assert.ok(unflushed <= flushRows, `${rows} rows: ${unflushed} rows held before a flush`);
      if (step.flush) unflushed = 0;
    }
    assert.equal(next, rows);
    assert.equal(steps.at(-1)!.flush, true, `${rows} rows: the last step flushes`);
    assert.equal(steps.length, Math.ceil(rows / APPEND_CHUNK_ROWS));
  }
});
