// A session that crosses local midnight has one bounce verdict and one duration, whichever path
// answers: daily rollups, or raw events (two filters force the raw path), for any range.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

let server: TestServer;
let site: SiteFixture;
let key: string;

before(async () => {
  server = await startTestServer({ clock: new ManualClock(Date.UTC(2026, 5, 13, 12, 0)) });
  site = await createSite(server, { timezone: 'UTC' });
  key = await createApiKey(server, site.orgId);
  const at = (iso: string, u: string) => ({ ts: iso, ua: BROWSER_UA, ip: '203.0.113.50', u, country: 'FR' });
  // One session: 23:55 and 00:05, ten minutes apart across midnight.
  const report = await importEvents(server, site.siteId, [at('2026-06-10T23:55:00Z', '/a'), at('2026-06-11T00:05:00Z', '/b')]);
  assert.equal(report.body.accepted, 2);
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
});
after(() => server.stop());

async function kpis(query: string) {
  const res = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as any;
  return { sessions: body.stats.sessions.value, bounceRate: body.stats.bounceRate.value, avgDuration: body.stats.avgDuration.value };
}

const RAW = '&filter=country:FR&filter=browser:Chrome';

for (const [range, sessions] of [['from=2026-06-10&to=2026-06-10', 1], ['from=2026-06-10&to=2026-06-11', 1], ['from=2026-06-11&to=2026-06-11', 0]] as const) {
  test(`${range}: rollups and raw events agree on the whole session`, async () => {
    const rollup = await kpis(range);
    const raw = await kpis(range + RAW);
    // `sessions` takes no filter (null on the raw read); the session-scoped metrics must agree.
    assert.deepEqual([raw.bounceRate, raw.avgDuration], [rollup.bounceRate, rollup.avgDuration]);
    assert.equal(rollup.sessions, sessions);
    if (sessions === 1) assert.deepEqual([rollup.bounceRate, rollup.avgDuration], [0, 600]);
  });
}
