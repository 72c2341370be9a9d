// support/clickhouse's private servers, on the engine of the test run: one started on a folder of the caller's (a bench's data kept
// between runs) leaves its files there at its stop, and a later server on that folder holds the
// same databases; a server's pid is its own process (a bench reads its CPU time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClickHouse, testEngine } from '../../support/clickhouse.js';

async function run(url: string, statement: string): Promise<string> {
  const res = await fetch(`${url}/`, { method: 'POST', body: statement });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return text.trim();
}

test('a server on a kept folder finds its databases again at the next start', async () => {
  const folder = join(mkdtempSync(join(tmpdir(), 'svc-clickhouse-kept-test-')), 'clickhouse');
  try {
    const first = await startClickHouse({ engine: testEngine(), dir: folder });
    await run(first.url, 'CREATE DATABASE kept');
    await run(first.url, 'CREATE TABLE kept.numbers (n UInt32) ENGINE = MergeTree ORDER BY n');
    await run(first.url, 'INSERT INTO kept.numbers VALUES (1), (2), (3)');
    await first.stop();
    assert.ok(existsSync(join(folder, 'data')), 'the folder is left at the stop');
    const second = await startClickHouse({ engine: testEngine(), dir: folder });
    try {
      assert.equal(await run(second.url, 'SELECT sum(n) FROM kept.numbers'), '6');
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(join(folder, '..'), { recursive: true, force: true });
  }
});

test("a server's pid is its process: running while it answers, gone at its stop", async () => {
  const server = await startClickHouse({ engine: testEngine() });
  const pid = server.pid;
  assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /clickhouse/);
  await server.stop();
  assert.ok(!existsSync(`/proc/${pid}`), 'the process is gone at the stop');
});
