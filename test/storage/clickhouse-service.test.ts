// The service with its events on ClickHouse (SVC_CLICKHOUSE_URL), beside one on DuckDB: the same
// collection, import and rollups on both, then every /v1 read answers the same on both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { browserHeaders, createApiKey, createRelayKey, createSite, importEvents, BROWSER_UA, startTestServer, type TestServer } from '../helpers/server.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';

const NOW = Date.UTC(2026, 5, 15, 12, 0);
const DAY = 86_400_000;
let duck: TestServer;
let click: TestServer;

before(async () => {
  // Every read twice, more than the default rate limit of a key allows.
  const env = { SVC_API_RATE_LIMIT: '1000/60s' };
  duck = await startTestServer({ clock: new ManualClock(NOW), env });
  click = await startTestServer({ clock: new ManualClock(NOW), env: { ...env, SVC_CLICKHOUSE_URL: await freshDatabaseUrl() } });
});
after(async () => {
  await duck?.stop();
  await click?.stop();
});

/** The same site, definitions and events on a server; the reader of its /v1 answers. */
async function feed(server: TestServer): Promise<{ get(path: string): Promise<unknown>; funnelId: number }> {
  const site = await createSite(server, { timezone: 'Europe/Paris' });
  const key = await createApiKey(server, site.orgId);
  const relayKey = await createRelayKey(server);
  assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Bought', kind: 'page', pattern: '/buy' })).status, 201);
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Checkout', windowMinutes: 30, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/buy' }] });
  assert.equal(funnel.status, 201);
  const visits: Array<[string, string, string]> = [
    ['198.51.100.1', '/', 'FR'], ['198.51.100.2', '/', 'DE'], ['198.51.100.2', '/buy', 'DE'], ['198.51.100.3', '/pricing', 'FR'], ['198.51.100.4', '/blog/a', 'US'],
  ];
  for (const [ip, page, country] of visits) {
    const headers = browserHeaders(site.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip, 'x-svc-client-country': country });
    assert.equal(await server.collect({ s: site.siteId, u: page, r: 'https://news.example.org/x' }, headers), 202);
  }
  await server.flush();
  const lines = [];
  for (let d = 2; d <= 40; d += 3) {
    const ts = NOW - d * DAY;
    lines.push(
      { ts, ua: BROWSER_UA, ip: `203.0.113.${d}`, u: '/' },
      { ts: ts + 60_000, ua: BROWSER_UA, ip: `203.0.113.${d}`, u: d % 2 ? '/buy' : '/pricing?utm_source=mail' },
      { ts: ts + 90_000, ua: BROWSER_UA, ip: `203.0.113.${d + 100}`, u: `/blog/${d % 4}` },
    );
  }
  const imported = await importEvents(server, site.siteId, lines);
  assert.equal(imported.body.accepted, lines.length, JSON.stringify(imported.body));
  assert.equal((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).status, 200);
  return {
    funnelId: funnel.body.id,
    get: async (path) => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path.replace('{funnel}', String(funnel.body.id))}`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.text();
      assert.equal(res.status, 200, `${path}: ${body}`);
      return JSON.parse(body);
    },
  };
}

/** An answer without what differs between two servers by design (site ids, the instant it was computed). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !['siteId', 'generatedAt'].includes(k)).map(([k, v]) => [k, comparable(v)]));
  }
  return value;
}

test('collection, import and rollups on ClickHouse answer every /v1 read as DuckDB does', async () => {
  const [onDuck, onClick] = [await feed(duck), await feed(click)];
  assert.equal(existsSync(join(click.dataDir, 'events.duckdb')), false, 'no DuckDB file beside ClickHouse');
  const paths = [
    '/stats?period=today',
    '/stats?period=7d',
    '/stats?period=30d&filter=country:FR',
    '/stats?period=90d',
    '/timeseries?period=30d',
    '/timeseries?metric=bounceRate&period=7d&compare=true',
    '/timeseries?metric=pageviews&period=today&grain=hour',
    '/breakdown?dimension=page&period=30d',
    '/breakdown?dimension=page&period=30d&search=BLOG',
    '/breakdown?dimension=exit&period=7d',
    '/breakdown?dimension=referrer&period=90d',
    '/breakdown?dimension=country&period=30d&filter=page:/',
    '/breakdown?dimension=utm_source&period=30d',
    '/goals?period=30d',
    '/funnels/{funnel}?period=30d',
    '/realtime',
  ];
  for (const path of paths) {
    const [a, b] = [await onDuck.get(path), await onClick.get(path)];
    assert.deepEqual(comparable(b), comparable(a), path);
  }
  const visitors = (await onClick.get('/stats?period=30d')) as { stats: { visitors: { value: number } } };
  assert.ok(visitors.stats.visitors.value > 10, 'the comparison is over real traffic');
});
