// SVC_MEMORY_BUDGET_MB is split between DuckDB's memory_limit and the live-session cache's bound:
// the two add up to it, DuckDB gets its share as its setting, and the cache evicts past its own; an
// import's own sessions have a byte bound of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';
import { SHARED_VALUES_BYTES, SessionCache } from '../../src/storage/counters/memory-sessions.js';
import { IMPORT_SESSION_BYTES, importSessions } from '../../src/ingest/import-writer.js';
import { BROWSER_UA, createSite, startTestServer } from '../helpers/server.js';
import { sql } from '../../src/sql/sql.js';
import { sessionAttributes } from '../../support/events.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection, as `--expose-gc` gives it. */
const collectGarbage = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

test('the budget is split: DuckDB seven eighths (or SVC_DUCKDB_MEMORY_LIMIT), live sessions the rest', () => {
  const split = (env: Record<string, string>) => {
    const c = loadConfig(env);
    return [c.duckdbMemoryLimit, c.sessionCacheBytes / MB];
  };
  assert.deepEqual(split({}), ['448MiB', 64]);
  assert.deepEqual(split({ SVC_MEMORY_BUDGET_MB: '1024' }), ['896MiB', 128]);
  assert.deepEqual(split({ SVC_MEMORY_BUDGET_MB: '2048', SVC_DUCKDB_MEMORY_LIMIT: '1GB' }), ['1024MiB', 1024]);
  assert.throws(
    () => loadConfig({ SVC_DUCKDB_MEMORY_LIMIT: '500MB' }),
    (err: unknown) => err instanceof ConfigError && /SVC_DUCKDB_MEMORY_LIMIT \(500 MB\) leaves 12 MB of SVC_MEMORY_BUDGET_MB \(512\)/.test(err.problems.join('\n')),
  );
  assert.throws(() => loadConfig({ SVC_MEMORY_BUDGET_MB: '32' }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith('SVC_MEMORY_BUDGET_MB'));
});

test("while an import runs DuckDB's pool is its limit less 112 MB, never under a rollup pass's 112 MB nor over the limit", () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, '336MiB'],
    [{ SVC_MEMORY_BUDGET_MB: '256' }, '112MiB'],
    [{ SVC_MEMORY_BUDGET_MB: '192' }, '112MiB'],
    [{ SVC_MEMORY_BUDGET_MB: '128' }, '112MiB'],
    [{ SVC_MEMORY_BUDGET_MB: '128', SVC_DUCKDB_MEMORY_LIMIT: '100MB' }, '100MiB'],
    [{ SVC_MEMORY_BUDGET_MB: '4096', SVC_DUCKDB_MEMORY_LIMIT: '2GB' }, '1936MiB'],
  ];
  for (const [env, limit] of cases) assert.equal(loadConfig(env).duckdbImportMemoryLimit, limit, JSON.stringify(env));
});

const attrs = (i: number) => sessionAttributes({ referrer: `referrer-${i % 50}.example`, country: 'DE', region: 'Bavaria', city: 'Munich', browser: 'Chrome', os: 'Windows', device: 'desktop' });

test('the session cache evicts the least recently seen sessions past its byte bound', () => {
  const room = 200_000; // bytes for sessions, beyond the shared-values table
  const cache = new SessionCache({ maxBytes: SHARED_VALUES_BYTES + room });
  const now = Date.now();
  for (let i = 0; i < 2000; i++) cache.touch({ visitorId: BigInt(i), previousVisitorId: undefined, ts: now + i, page: `/page/${i % 10}`, isPageview: true, start: () => attrs(i) });
  assert.ok(cache.estimatedBytes <= room, `${cache.estimatedBytes} bytes kept`);
  assert.ok(cache.size > 400 && cache.size < 2000, `${cache.size} sessions kept`);
  // The newest is still open; the oldest was evicted and starts anew.
  assert.equal(cache.touch({ visitorId: 1999n, previousVisitorId: undefined, ts: now + 3000, page: '/page/9', isPageview: true, start: () => attrs(1999) }).started, false);
  assert.equal(cache.touch({ visitorId: 0n, previousVisitorId: undefined, ts: now + 3000, page: '/page/0', isPageview: true, start: () => attrs(0) }).started, true);
});

test('the running service gives DuckDB its memory_limit and the session cache its bound', async () => {
  const server = await startTestServer({ env: { SVC_MEMORY_BUDGET_MB: '256' } });
  try {
    const sessions = server.ctx.ingest.sessions;
    assert.ok(sessions instanceof SessionCache, 'without SVC_REDIS_URL, sessions are kept in process');
    assert.equal(sessions.maxBytes, 32 * MB);
    const [row] = await server.ctx.events.query<{ limit: string }>(sql`SELECT current_setting('memory_limit') AS "limit"`);
    // Both in MiB (DuckDB's own "MB" is a million bytes): 256 - 32.
    assert.equal(row!.limit, '224.0 MiB');
    // 112 MB less while an import runs: an NDJSON import's rollups run at it, and the pool is set back after.
    const fixture = await createSite(server);
    const site = (await server.ctx.meta.getSite(fixture.siteId))!;
    const seen: string[] = [];
    server.ctx.ingest.imports.onImported(async () => {
      const [during] = await server.ctx.events.query<{ limit: string }>(sql`SELECT current_setting('memory_limit') AS "limit"`);
      seen.push(during!.limit);
    });
    const line = JSON.stringify({ ts: Date.UTC(2026, 0, 5, 12), ua: BROWSER_UA, ip: '10.1.2.3', u: '/pricing' });
    const report = await server.ctx.ingest.imports.importLines(site, [`${line}\n`]);
    assert.equal(report.accepted, 1);
    assert.deepEqual(seen, ['112.0 MiB']);
    const [after] = await server.ctx.events.query<{ limit: string }>(sql`SELECT current_setting('memory_limit') AS "limit"`);
    assert.equal(after!.limit, '224.0 MiB');
  } finally {
    await server.stop();
  }
});

test("an import's sessions stay within IMPORT_SESSION_BYTES, quickly, when every line starts a named session", () => {
  const cache = importSessions();
  const day = Date.UTC(2025, 0, 1);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const started = Date.now();
  // 400 000 Umami sessions of one event each within a day: all would be held 25 hours without the bound.
  for (let i = 0; i < 400_000; i++) {
    cache.touch({ visitorId: BigInt(i), previousVisitorId: undefined, ts: day + i * 200, page: `/landing/${i}`, isPageview: true, session: `visit-${i}`, start: () => attrs(i) });
  }
  assert.ok(cache.estimatedBytes <= IMPORT_SESSION_BYTES, `${cache.estimatedBytes} bytes counted`);
  assert.ok(cache.size < 200_000, `${cache.size} sessions held`);
  assert.ok(Date.now() - started < 30_000, `ending sessions past the bound takes ${Date.now() - started} ms, not time in the sessions ended so far`);
  collectGarbage();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 1.5 * IMPORT_SESSION_BYTES, `the heap grew by ${Math.round(grown / MB)} MB`);
  // The latest session goes on; the first ended.
  assert.equal(cache.touch({ visitorId: 399_999n, previousVisitorId: undefined, ts: day + 80_000_000, page: '/x', isPageview: true, session: 'visit-399999', start: () => attrs(0) }).started, false);
  assert.equal(cache.touch({ visitorId: 0n, previousVisitorId: undefined, ts: day + 80_000_000, page: '/x', isPageview: true, session: 'visit-0', start: () => attrs(0) }).started, true);
});
