// The service with its metadata on PostgreSQL (SVC_DATABASE_URL): a real listening server on a
// fresh database, driven through the admin API, collection and /v1 as an operator and a browser
// would, with the metadata found in PostgreSQL and no SQLite file written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ManualClock } from '../../src/core/clock.js';
import { browserHeaders, createApiKey, createRelayKey, createSite, importEvents, BROWSER_UA, startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const NOW = Date.UTC(2026, 5, 15, 12, 0);
let database: TestDatabase;
let server: TestServer;

before(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_DATABASE_URL: database.url } });
});
after(async () => {
  await server?.stop();
  await database?.drop();
});

test('admin API, collection, import, rollups and /v1 reads run on PostgreSQL metadata', async () => {
  const site = await createSite(server, { timezone: 'UTC' });
  const key = await createApiKey(server, site.orgId);
  const relayKey = await createRelayKey(server);
  const goal = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Bought', kind: 'page', pattern: '/buy' });
  assert.equal(goal.status, 201, JSON.stringify(goal.body));
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Checkout', windowMinutes: 30, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/buy' }] });
  assert.equal(funnel.status, 201, JSON.stringify(funnel.body));

  // Three visitors today through the collection endpoint (a relay names their addresses).
  for (const [ip, page] of [['198.51.100.1', '/'], ['198.51.100.2', '/'], ['198.51.100.2', '/buy'], ['198.51.100.3', '/pricing']]) {
    const status = await server.collect({ s: site.siteId, u: page }, browserHeaders(site.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip! }));
    assert.equal(status, 202);
  }
  await server.flush();
  // Two visitors three days ago through an import, rolled up by the rollup task (under its lease).
  const day3 = NOW - 3 * 86_400_000;
  const imported = await importEvents(server, site.siteId, [
    { ts: day3, ua: BROWSER_UA, ip: '203.0.113.1', u: '/' },
    { ts: day3 + 60_000, ua: BROWSER_UA, ip: '203.0.113.1', u: '/buy' },
    { ts: day3 + 120_000, ua: BROWSER_UA, ip: '203.0.113.2', u: '/' },
  ]);
  assert.equal(imported.body.accepted, 3, JSON.stringify(imported.body));
  const maintenance = await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
  assert.equal(maintenance.status, 200, JSON.stringify(maintenance.body));

  const get = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200, path);
    return (await res.json()) as any;
  };
  assert.equal((await get('/stats?period=today')).stats.visitors.value, 3);
  assert.equal((await get('/stats?period=7d')).stats.visitors.value, 5);
  assert.equal((await get('/goals?period=7d')).goals[0].conversions, 2);
  const checkout = await get(`/funnels/${funnel.body.id}?period=7d`);
  assert.deepEqual([checkout.entered, checkout.completed], [4, 2]);

  // The metadata lives in PostgreSQL, the rollup watermark moved under a released lease, and no
  // SQLite file was created.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const sites = await client.query('SELECT domain FROM sites WHERE public_id = $1', [site.siteId]);
    assert.deepEqual(sites.rows, [{ domain: site.domain }]);
    const leases = await client.query('SELECT name FROM leases');
    assert.deepEqual(leases.rows, [], 'every rollup lease released');
    assert.ok((await client.query('SELECT day FROM salts')).rows.length >= 1, 'visitor salts stored');
  } finally {
    await client.end();
  }
  assert.equal(existsSync(join(server.dataDir, 'meta.sqlite')), false);
});

test('a database that cannot be reached stops the start with its name, without the password', async () => {
  await assert.rejects(
    startTestServer({ env: { SVC_DATABASE_URL: 'postgres://svc:hunter2@127.0.0.1:1/svc_missing' } }),
    (err: Error) => err.message.includes('127.0.0.1:1/svc_missing') && !err.message.includes('hunter2'),
  );
});
