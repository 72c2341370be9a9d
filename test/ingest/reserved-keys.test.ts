// Client values that spell a reserved bucket key, `(none)` or `(other)`, are counted as themselves
// (stored as `[none]`, `[other]`), never in the bucket of absent values or of the folded long tail:
// through collection and import, read back from raw events and from rollups.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_UA, browserHeaders, importEvents, startReadFixture, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12);
const YESTERDAY_NOON = NOW - 86_400_000;

let server: TestServer;
let site: SiteFixture;
let key: string;

before(async () => {
  ({ server, site, key } = await startReadFixture(NOW));
});
after(() => server.stop());

async function breakdown(dimension: string, period: string, filter?: string): Promise<Record<string, number>> {
  const query = `dimension=${dimension}&period=${period}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`;
  const res = await fetch(`${server.url}/v1/sites/${site.siteId}/breakdown?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as any;
  assert.equal(res.status, 200, JSON.stringify(body));
  return Object.fromEntries(body.rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]));
}

test('collected and imported values equal to a reserved key stay out of the reserved buckets', async () => {
  // Yesterday, imported (read from rollups once rolled up): one visitor per value, one without.
  const imported = await importEvents(server, site.siteId, [
    { ts: YESTERDAY_NOON, ua: BROWSER_UA, ip: '203.0.113.1', u: '/?utm_source=(none)&utm_campaign=(other)&ref=(none)', region: '(other)', city: '(none)', country: 'FR' },
    { ts: YESTERDAY_NOON, ua: BROWSER_UA, ip: '203.0.113.2', u: '/?utm_source=(other)' },
    { ts: YESTERDAY_NOON, ua: BROWSER_UA, ip: '203.0.113.3', u: '/' },
  ]);
  assert.deepEqual([imported.status, imported.body.rejected], [200, 0], JSON.stringify(imported.body));
  assert.deepEqual((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).body, { ran: ['rollup'] });
  // Today, collected (read from raw events); the user agents tell the two visitors apart.
  for (const [ip, u] of [['198.51.100.1', '/?utm_source=(none)&utm_medium=(other)'], ['198.51.100.2', '/']] as const) {
    const status = await server.collect({ s: site.siteId, u, r: 'https://www.example.org/' }, browserHeaders(site.domain, { 'user-agent': `${BROWSER_UA} ${ip}` }));
    assert.equal(status, 202);
  }
  await server.flush();

  assert.deepEqual(await breakdown('utm_source', 'yesterday'), { '[none]': 1, '[other]': 1, '(none)': 1 });
  assert.deepEqual(await breakdown('utm_campaign', 'yesterday'), { '[other]': 1, '(none)': 2 });
  assert.deepEqual(await breakdown('referrer', 'yesterday'), { '[none]': 1, '(none)': 2 });
  assert.deepEqual(await breakdown('region', 'yesterday'), { '[other]': 1, '(none)': 2 });
  assert.deepEqual(await breakdown('city', 'yesterday'), { '[none]': 1, '(none)': 2 });
  assert.deepEqual(await breakdown('utm_source', 'today'), { '[none]': 1, '(none)': 1 });
  assert.deepEqual(await breakdown('utm_medium', 'today'), { '[other]': 1, '(none)': 1 });
  assert.deepEqual(await breakdown('utm_source', '7d'), { '[none]': 2, '[other]': 1, '(none)': 2 });
  // The filter (none) still means "absent"; the stored form selects the client's value.
  assert.deepEqual(await breakdown('utm_source', '7d', 'utm_source:(none)'), { '(none)': 2 });
  assert.deepEqual(await breakdown('utm_source', '7d', 'utm_source:[none]'), { '[none]': 2 });
});
