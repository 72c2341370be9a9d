// Read-API rate limit per key (sliding window, configured by SVC_API_RATE_LIMIT) and the retention
// cut-off as a customer sees it after the maintenance jobs ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, createSite, createApiKey, importEvents, BROWSER_UA } from '../helpers/server.js';
import { sql } from '../../src/sql/sql.js';
import { deleteKeys, TEST_REDIS_URL, testKeyPrefix, testRedis } from '../../support/counters.js';

// The same answers with the window in process and in Redis (SVC_REDIS_URL, a key prefix of the test's own).
for (const counters of ['memory', 'redis'] as const) {
  test(`sliding-window rate limit per key: 429, retry-after: 60 and the configured rate in the message (${counters})`, async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 20, 12));
    const redis = counters === 'redis' ? await testRedis() : undefined;
    const counterKeyPrefix = testKeyPrefix();
    const server = await startTestServer({ clock, counterKeyPrefix, env: { SVC_API_RATE_LIMIT: '3/60s', ...(redis ? { SVC_REDIS_URL: TEST_REDIS_URL } : {}) } });
    try {
      const site = await createSite(server);
      const key = await createApiKey(server, site.orgId);
      const otherKey = await createApiKey(server, site.orgId);
      const get = (apiKey: string | null, path = '/v1/sites') =>
        fetch(server.url + path, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
      for (let i = 0; i < 3; i++) assert.equal((await get(key)).status, 200);
      clock.advance(30_000);
      const limited = await get(key, '/v1/nope');
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '60');
      assert.equal(limited.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await limited.json(), { error: { code: 'RATE_LIMITED', message: 'rate limit exceeded (180 requests/hour per key)' } });
      assert.equal((await get(otherKey)).status, 200, 'the limit is per key');
      assert.equal((await get(null)).status, 401, 'unauthenticated requests are refused before the limit');
      clock.advance(30_001);
      assert.equal((await get(key)).status, 200, 'the window slides');
    } finally {
      await server.stop();
      if (redis) {
        await deleteKeys(redis, counterKeyPrefix);
        redis.disconnect();
      }
    }
  });
}

test('default limit reads as in docs/api.md', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) last = await fetch(`${server.url}/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(last!.status, 429);
    assert.equal(((await last!.json()) as any).error.message, 'rate limit exceeded (600 requests/hour per key)');
  } finally {
    await server.stop();
  }
});

test('retention: days older than retentionMonths are null in timeseries and excluded from totals', async () => {
  const now = Date.UTC(2026, 2, 20, 12);
  const server = await startTestServer({ clock: new ManualClock(now), env: { SVC_API_RATE_LIMIT: '1000/60s' } });
  try {
    const site = await createSite(server, { retentionMonths: 1 });
    const key = await createApiKey(server, site.orgId);
    const lines = [];
    for (let i = 1; i <= 60; i++) {
      lines.push({ ts: now - i * 86_400_000, ua: BROWSER_UA, ip: `203.0.113.${i}`, u: '/' });
    }
    assert.equal((await importEvents(server, site.siteId, lines)).body.accepted, 60);
    const get = async (path: string) => (await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<any>;
    const before = await get('/stats?period=90d');
    assert.equal(before.stats.visitors.value, 28, 'days before 2026-02-20 are excluded even before the job deletes them');
    assert.equal(before.stats.visitors.prev, null);
    const run = await server.admin('POST', '/maintenance/run', { tasks: ['rollup', 'retention'] });
    assert.deepEqual(run.body, { ran: ['rollup', 'retention'] });
    const series = await get('/timeseries?from=2026-02-18&to=2026-02-22');
    assert.deepEqual(series.points.map((p: { value: number | null }) => p.value), [null, null, 1, 1, 1]);
    const stats = await get('/stats?period=90d');
    assert.equal(stats.stats.visitors.value, 28);
    const [row] = await server.ctx.events.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${site.siteId} AND day < DATE '2026-02-20'`);
    assert.equal(Number(row?.n), 0);
  } finally {
    await server.stop();
  }
});
