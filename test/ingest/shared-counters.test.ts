// Collection by several processes that share their Counters in Redis (SVC_REDIS_URL): two
// ingestors on one metadata store, one event store and one Redis stand for two collect processes.
// And collection while Redis does not answer: it goes on, on this process's own counters, counted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../src/core/clock.js';
import { PrometheusRegistry } from '../../src/core/prometheus.js';
import { GeoDatabases } from '../../src/ingest/geo.js';
import { Ingestor } from '../../src/ingest/ingestor.js';
import { loadConfig } from '../../src/config.js';
import { sql } from '../../src/sql/sql.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import type { Site } from '../../src/entities/sites.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import { openCounters, type CounterFallback, type Counters } from '../../src/storage/counters/open.js';
import { BROWSER_UA, browserHeaders, createApiKey, createSite, startTestServer } from '../helpers/server.js';
import { deleteKeys, TEST_REDIS_URL, testKeyPrefix, testRedis } from '../../support/counters.js';
import { freePort } from '../../support/ports.js';

const sessionCacheBytes = loadConfig({}).sessionCacheBytes;
const MIN = 60_000;

describe('two collect processes sharing one Redis', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 10, 10, 0));
  let meta: MetaStore;
  let events: DuckDbEventStore;
  let site: Site;
  let prefix: string;
  const counters: Counters[] = [];
  const ingestors: Ingestor[] = [];
  const fallbacks: CounterFallback[] = [];

  before(async () => {
    const redis = await testRedis();
    redis.disconnect();
    meta = await openSqliteMetaStore(':memory:');
    events = await DuckDbEventStore.open({ path: ':memory:' });
    const org = await meta.createOrg('o', 0);
    site = await meta.createSite(org.id, { domain: 'shared.example', name: 's', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'SharedSite', 0);
    prefix = testKeyPrefix();
    for (let i = 0; i < 2; i++) {
      const c = await openCounters(TEST_REDIS_URL, { sessionCacheBytes, keyPrefix: prefix, onUnavailable: (what) => fallbacks.push(what) });
      counters.push(c);
      ingestors.push(new Ingestor({ clock, meta, events, geo: GeoDatabases.fromConfig(undefined), metrics: new PrometheusRegistry(), counters: c, collectRateLimit: { count: 5, windowMs: 10_000 } }));
    }
  });
  after(async () => {
    for (const c of counters) await c.close();
    const redis = await testRedis();
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await events.close();
    await meta.close();
  });

  const collect = (ingest: Ingestor, page: string, ip: string, name = 'pageview') =>
    ingest.collect({ body: Buffer.from(JSON.stringify({ s: site.id, u: page, n: name })), origin: 'https://shared.example', userAgent: BROWSER_UA, socketIp: ip, relay: {} });

  test('one visitor\'s events alternating between them form one session', async () => {
    const pages = ['/a', '/b', '/c', '/d', '/e'];
    for (const [i, page] of pages.entries()) {
      assert.equal(await collect(ingestors[i % 2]!, page, '198.51.100.7'), 'accepted');
      clock.advance(MIN);
    }
    for (const ingest of ingestors) await ingest.flush();
    const rows = await events.query<{ session_id: bigint; session_start: boolean; entry_page: string }>(
      sql`SELECT session_id, session_start, entry_page FROM events WHERE site_id = ${site.id} ORDER BY ts`,
    );
    assert.equal(rows.length, 5);
    assert.equal(new Set(rows.map((r) => r.session_id)).size, 1, 'one session id');
    assert.deepEqual(rows.map((r) => r.session_start), [true, false, false, false, false]);
    assert.deepEqual(new Set(rows.map((r) => r.entry_page)), new Set(['/a']));
    // Either lists the outcomes both recorded (installation verification on an api process).
    await ingestors[0]!.recent.list(site.internalId, 0);
    const listed = await ingestors[1]!.recent.list(site.internalId, 0);
    assert.deepEqual(listed.outcomes.map((o) => o.path), pages);
    assert.deepEqual(fallbacks, []);
  });

  test('the collection rate limit counts the hits of both', async () => {
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await collect(ingestors[i % 2]!, '/', `203.0.113.${i + 1}`));
    assert.deepEqual(outcomes, ['accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'rate_limited']);
    assert.deepEqual(fallbacks, []);
  });

  test('a session crosses local midnight from one to the other, which never used yesterday\'s salt', async () => {
    clock.set(Date.UTC(2026, 5, 11, 23, 50));
    assert.equal(await collect(ingestors[0]!, '/before', '198.51.100.80'), 'accepted');
    clock.set(Date.UTC(2026, 5, 12, 0, 10));
    assert.equal(await collect(ingestors[1]!, '/after', '198.51.100.80'), 'accepted');
    for (const ingest of ingestors) await ingest.flush();
    const rows = await events.query<{ session_id: bigint; session_start: boolean; visitor_id: bigint }>(
      sql`SELECT session_id, session_start, visitor_id FROM events WHERE site_id = ${site.id} AND ts >= ${Date.UTC(2026, 5, 11, 23, 50)} ORDER BY ts`,
    );
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.session_id, rows[1]!.session_id, 'one session across midnight');
    assert.notEqual(rows[0]!.visitor_id, rows[1]!.visitor_id, 'a new daily visitor id');
    assert.deepEqual(rows.map((r) => r.session_start), [true, false]);
  });

  test('a site archived through one is refused by the other at once (its clock never moves past the cache\'s TTL)', async () => {
    assert.equal(await collect(ingestors[1]!, '/', '192.0.2.1'), 'accepted');
    await meta.updateSite(site.id, { status: 'archived' });
    ingestors[0]!.sites.invalidate(site.id);
    const deadline = Date.now() + 3000;
    while ((await ingestors[1]!.sites.get(site.id, clock.now()))?.status !== 'archived') {
      assert.ok(Date.now() < deadline, 'the invalidation reached the other process');
      await sleep(10);
    }
    assert.equal(await collect(ingestors[1]!, '/', '192.0.2.2'), 'unknown_site');
    assert.deepEqual(fallbacks, []);
  });
});

/** The fallbacks the service counted in /metrics, by kind. */
async function fallbackCounts(url: string, token: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^svc_counter_fallbacks_total\{what="(\w+)"\} (\d+)$/gm)) counts[m[1]!] = Number(m[2]);
  return counts;
}

test('Redis unreachable from the start: collection and the read API go on in process, and /metrics counts the fallbacks', async () => {
  const port = await freePort();
  const clock = new ManualClock(Date.UTC(2026, 5, 10, 10, 0));
  const server = await startTestServer({ clock, env: { SVC_REDIS_URL: `redis://127.0.0.1:${port}` } });
  try {
    const site = await createSite(server, { domain: 'noredis.example', timezone: 'UTC' });
    for (const page of ['/one', '/two']) {
      assert.equal(await server.collect({ s: site.siteId, u: page }, browserHeaders(site.domain)), 202);
      clock.advance(MIN);
    }
    const rows = await server.storedEvents(site.siteId);
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.session_id, rows[1]!.session_id, 'this process\'s own sessions carry on');
    let counts = await fallbackCounts(server.url, server.adminToken);
    assert.ok(counts.connection! >= 1, JSON.stringify(counts));
    assert.equal(counts.sessions, 2);
    assert.equal(counts.rate_limit, 2);
    // The read API's per-key limit lets requests through too.
    const key = await createApiKey(server, site.orgId);
    assert.equal((await fetch(`${server.url}/v1/sites`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    counts = await fallbackCounts(server.url, server.adminToken);
    assert.equal(counts.rate_limit, 3);
  } finally {
    await server.stop();
  }
});

describe('Redis going away mid-run', () => {
  let port: number;
  let redisServer: ChildProcess | undefined;
  const startRedis = async () => {
    redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    for await (const chunk of redisServer.stdout!) {
      out += String(chunk);
      if (out.includes('Ready to accept connections')) break;
    }
  };
  const stopRedis = async () => {
    const child = redisServer!;
    redisServer = undefined;
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  };
  before(async () => {
    port = await freePort();
    await startRedis();
  });
  after(async () => {
    if (redisServer) await stopRedis();
  });

  test('collection keeps answering while Redis is down, and goes back to it once it is back', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 10, 10, 0));
    const server = await startTestServer({ clock, env: { SVC_REDIS_URL: `redis://127.0.0.1:${port}` } });
    try {
      const site = await createSite(server, { domain: 'midrun.example', timezone: 'UTC' });
      // 202 comes before the steps run: flushing waits for them, so their fallbacks are counted.
      const send = async () => {
        assert.equal(await server.collect({ s: site.siteId, u: '/' }, browserHeaders(site.domain)), 202);
        await server.flush();
      };
      await send();
      assert.deepEqual(await fallbackCounts(server.url, server.adminToken), {});
      await stopRedis();
      for (let i = 0; i < 3; i++) await send();
      const down = await fallbackCounts(server.url, server.adminToken);
      assert.equal(down.sessions, 3);
      assert.equal(down.rate_limit, 3);
      await startRedis();
      // The connection is retried (every 2 s at most); events go to Redis again once it is up.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const before = (await fallbackCounts(server.url, server.adminToken)).sessions;
        await send();
        if ((await fallbackCounts(server.url, server.adminToken)).sessions === before) break;
        assert.ok(Date.now() < deadline, 'back on Redis within 10 s');
        await sleep(200);
      }
      const rows = await server.storedEvents(site.siteId);
      assert.ok(rows.length >= 5, `${rows.length} events stored`);
      assert.ok(rows.every((r) => r.visitor_id === rows[0]!.visitor_id), 'one visitor throughout');
    } finally {
      await server.stop();
    }
  });
});
