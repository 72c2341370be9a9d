// Long raw reads over HTTP: a site keeping 90 days of raw events answers two filters over 90 days;
// with one long read at a time per key, a burst of them (as a dashboard's panels) waits its turn and
// every answer is the same as alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

let server: TestServer;
let site: SiteFixture;
let key: string;

before(async () => {
  server = await startTestServer({ env: { SVC_LONG_READS_PER_READER: '1', SVC_API_RATE_LIMIT: '100000/60s' } });
  site = await createSite(server, { rawDays: 90 });
  key = await createApiKey(server, site.orgId);
  const now = Date.now();
  const lines = Array.from({ length: 80 }, (_, i) => ({ ts: now - (i + 1) * 86_400_000, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: i % 2 ? '/pricing' : '/' }));
  assert.equal((await importEvents(server, site.siteId, lines)).body.accepted, 80);
});
after(() => server?.stop());

const read = (path: string) => fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });

test('a burst of long reads of one key waits its turn: every answer is 200 and equal to the one read alone', async () => {
  const path = '/stats?period=90d&filter=page:/pricing&filter=browser:Firefox';
  const alone = await read(path);
  assert.equal(alone.status, 200, await alone.clone().text());
  const expected = await alone.text();
  const burst = await Promise.all(Array.from({ length: 8 }, () => read(path)));
  assert.deepEqual(burst.map((r) => r.status), Array(8).fill(200));
  for (const r of burst) assert.equal(await r.text(), expected);
  const tooLong = await read('/stats?from=2020-01-01&to=2020-12-31&filter=page:/pricing&filter=browser:Firefox');
  assert.equal(tooLong.status, 400);
  assert.match(((await tooLong.json()) as { error: { message: string } }).error.message, /within the last 90 days/);
});
