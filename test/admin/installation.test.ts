// Installation verification and the snippet: GET /admin/v1/sites/:siteId/recent-events and
// /snippet, through a real listening server and through Fastify's inject on the same app.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserHeaders, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { RECENT_OUTCOMES_PER_SITE } from '../../src/storage/counters/recent-outcomes.js';

const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

describe('recent collection outcomes', () => {
  let server: TestServer;
  let site: SiteFixture;
  let other: SiteFixture;
  before(async () => {
    server = await startTestServer();
    site = await createSite(server);
    other = await createSite(server);
  });
  after(() => server.stop());

  test('each outcome of a known site, oldest first, with time, path and browser and nothing about the visitor', async () => {
    const headers = browserHeaders(site.domain);
    assert.equal(await server.collect({ s: site.siteId, u: `https://${site.domain}/pricing?plan=pro`, e: 'signup' }, headers), 202);
    assert.equal(await server.collect({ s: site.siteId, u: '/signup' }, { ...headers, origin: 'https://elsewhere.example' }), 202);
    assert.equal(await server.collect({ s: site.siteId, u: '/docs' }, { ...headers, 'user-agent': 'curl/8.5.0' }), 202);
    assert.equal(await server.collect({ s: site.siteId, u: '/firefox' }, { ...headers, 'user-agent': FIREFOX_UA, 'x-forwarded-for': '203.0.113.7' }), 202);
    assert.equal(await server.collect({ s: 'no-such-site', u: '/' }, headers), 202);
    await server.flush();

    const res = await server.admin('GET', `/sites/${site.siteId}/recent-events`);
    assert.equal(res.status, 200);
    const events = res.body.events as Array<Record<string, unknown>>;
    assert.deepEqual(
      events.map((e) => [e.outcome, e.path, e.name, e.browser]),
      [
        ['accepted', '/pricing', 'signup', 'Chrome'],
        ['origin_mismatch', '/signup', 'pageview', 'Chrome'],
        ['bot_ua', '/docs', 'pageview', null],
        ['accepted', '/firefox', 'pageview', 'Firefox'],
      ],
    );
    for (const e of events) {
      assert.deepEqual(Object.keys(e).sort(), ['browser', 'name', 'outcome', 'path', 'seq', 'ts']);
      assert.ok(typeof e.ts === 'number' && Math.abs((e.ts as number) - Date.now()) < 60_000);
    }
    for (const address of ['203.0.113', '127.0.0.1']) assert.ok(!JSON.stringify(res.body).includes(address), 'no address in the answer');
    assert.deepEqual((await server.admin('GET', `/sites/${other.siteId}/recent-events`)).body.events, []);

    // `after` lists only what came later; lastSeq is where to continue.
    const seen = res.body.lastSeq as number;
    assert.deepEqual((await server.admin('GET', `/sites/${site.siteId}/recent-events?after=${seen}`)).body.events, []);
    await server.collect({ s: site.siteId, u: '/later' }, headers);
    const later = await server.admin('GET', `/sites/${site.siteId}/recent-events?after=${seen}`);
    assert.deepEqual(later.body.events.map((e: { path: string }) => e.path), ['/later']);
    // A seq from before a restart (past every seq of this process) lists everything kept.
    const restarted = await server.admin('GET', `/sites/${site.siteId}/recent-events?after=${later.body.lastSeq + 1000}`);
    assert.equal(restarted.body.events.length, 5);
  });

  test(`keeps the last ${RECENT_OUTCOMES_PER_SITE} outcomes of a site`, async () => {
    const busy = await createSite(server);
    const headers = browserHeaders(busy.domain);
    for (let i = 0; i < RECENT_OUTCOMES_PER_SITE + 20; i++) await server.collect({ s: busy.siteId, u: `/p${i}` }, headers);
    const events = (await server.admin('GET', `/sites/${busy.siteId}/recent-events`)).body.events as Array<{ path: string; outcome: string }>;
    assert.equal(events.length, RECENT_OUTCOMES_PER_SITE);
    assert.equal(events[0]!.path, '/p20');
    assert.equal(events.at(-1)!.path, `/p${RECENT_OUTCOMES_PER_SITE + 19}`);
    // The collection limit (100 per 10 s) shows too.
    assert.equal(events.at(-1)!.outcome, 'rate_limited');
  });

  test('errors: a bad `after`, an unknown site, no token (inject)', async () => {
    const app = server.service.app;
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const bad = await app.inject({ url: `/admin/v1/sites/${site.siteId}/recent-events?after=-1`, headers: auth });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.code, 'INVALID_PARAMS');
    assert.match(bad.json().error.message, /^after must be a whole number/);
    const missing = await app.inject({ url: '/admin/v1/sites/nope/recent-events', headers: auth });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.code, 'NOT_FOUND');
    const anonymous = await app.inject({ url: `/admin/v1/sites/${site.siteId}/recent-events` });
    assert.equal(anonymous.statusCode, 401);
    const ok = await app.inject({ url: `/admin/v1/sites/${site.siteId}/recent-events`, headers: auth });
    assert.equal(ok.statusCode, 200);
    assert.ok(Array.isArray(ok.json().events));
  });
});

describe('the snippet', () => {
  test('loads the tracker from SVC_PUBLIC_URL when set, else from the address the request reached; carries data-dev for the local site', async () => {
    const configured = await startTestServer({ env: { SVC_PUBLIC_URL: 'https://stats.example.com/' } });
    const plain = await startTestServer();
    try {
      const a = await createSite(configured);
      const res = await configured.admin('GET', `/sites/${a.siteId}/snippet`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        siteId: a.siteId,
        scriptUrl: 'https://stats.example.com/js/t.js',
        snippet: `<script defer src="https://stats.example.com/js/t.js" data-site="${a.siteId}"></script>`,
        publicUrlSet: true,
        dashboardUrl: `https://stats.example.com/sites/${a.siteId}`,
      });
      const b = await createSite(plain);
      const local = await plain.admin('GET', `/sites/${b.siteId}/snippet`);
      assert.equal(local.body.scriptUrl, `${plain.url}/js/t.js`);
      assert.equal(local.body.publicUrlSet, false);
      assert.equal((await plain.admin('GET', '/sites/nope/snippet')).status, 404);
      const localSite = await createSite(configured, { domain: 'localhost' });
      assert.equal(
        (await configured.admin('GET', `/sites/${localSite.siteId}/snippet`)).body.snippet,
        `<script defer src="https://stats.example.com/js/t.js" data-site="${localSite.siteId}" data-dev></script>`,
        "the local site's tag runs the tracker on loopback pages",
      );
    } finally {
      await configured.stop();
      await plain.stop();
    }
  });
});
