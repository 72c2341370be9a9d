// GET /app/v1/sites/:siteId/installation: what the dashboard shows a site waiting for its first
// event, for any member, from the code of the admin API's snippet and recent-events routes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { browserHeaders, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('/app/v1 installation', () => {
  let server: TestServer;
  let site: SiteFixture;
  let viewer: AppClient;
  let stranger: AppClient;
  before(async () => {
    server = await startTestServer();
    site = await createSite(server);
    viewer = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
    stranger = (await signedInUser(server, 'stranger@example.com')).client;
  });
  after(() => server.stop());

  const path = () => `/app/v1/sites/${site.siteId}/installation`;
  let added = 0;
  /** Another site of the viewer's organisation. */
  const siblingSite = async (): Promise<string> => {
    const created = await server.admin('POST', `/orgs/${site.orgId}/sites`, { domain: `sibling${++added}.example`, name: 'Sibling', timezone: 'UTC' });
    return created.body.id;
  };

  test('a viewer reads the tag and the outcomes as the admin API answers them, and whether an event is stored', async () => {
    const empty = await viewer.request('GET', path());
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get('cache-control'), 'no-store');
    const snippet = (await server.admin('GET', `/sites/${site.siteId}/snippet`)).body;
    assert.deepEqual(empty.body, { hasEvents: false, ...snippet, localScriptUrl: true, events: [], lastSeq: 0 });

    const headers = browserHeaders(site.domain);
    assert.equal(await server.collect({ s: site.siteId, u: '/signup' }, { ...headers, origin: 'https://elsewhere.example' }), 202);
    await server.flush();
    const dropped = await viewer.request('GET', path());
    assert.equal(dropped.body.hasEvents, false);
    assert.deepEqual(dropped.body.events.map((e: { outcome: string }) => e.outcome), ['origin_mismatch']);

    assert.equal(await server.collect({ s: site.siteId, u: '/pricing' }, headers), 202);
    await server.flush();
    const stored = await viewer.request('GET', `${path()}?after=${dropped.body.lastSeq}`);
    const recent = (await server.admin('GET', `/sites/${site.siteId}/recent-events?after=${dropped.body.lastSeq}`)).body;
    assert.deepEqual(stored.body, { hasEvents: true, ...snippet, localScriptUrl: true, ...recent });
    assert.deepEqual(recent.events.map((e: { outcome: string; path: string }) => [e.outcome, e.path]), [['accepted', '/pricing']]);
  });

  test('an imported event of an earlier day counts as stored', async () => {
    const imported = await siblingSite();
    assert.equal((await viewer.request('GET', `/app/v1/sites/${imported}/installation`)).body.hasEvents, false);
    const report = await importEvents(server, imported, [{ ts: Date.now() - 400 * 86_400_000, ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', ip: '198.51.100.9', u: '/' }]);
    assert.equal(report.body.accepted, 1, JSON.stringify(report.body));
    assert.equal((await viewer.request('GET', `/app/v1/sites/${imported}/installation`)).body.hasEvents, true);
  });

  test('refusals: a non-member, an archived site, a bad `after`', async () => {
    const outsider = await stranger.request('GET', path());
    assert.equal(outsider.status, 404);
    assert.equal(outsider.body.error.code, 'NOT_FOUND');
    const bad = await viewer.request('GET', `${path()}?after=x`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INVALID_PARAMS');
    const archived = await siblingSite();
    await server.admin('PATCH', `/sites/${archived}`, { status: 'archived' });
    assert.equal((await viewer.request('GET', `/app/v1/sites/${archived}/installation`)).status, 404);
  });
});

describe('/app/v1 installation behind a public URL', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { SVC_PUBLIC_URL: 'https://stats.example.com' } });
  });
  after(() => server.stop());

  test('the tag loads the tracker from SVC_PUBLIC_URL, and no warning is due', async () => {
    const site = await createSite(server);
    const user = await server.admin('POST', '/users', { email: 'owner@example.com', password: PASSWORD });
    await server.admin('PUT', `/orgs/${site.orgId}/members/${user.body.id}`, { role: 'owner' });
    const client = new AppClient(server);
    const origin = { origin: 'https://stats.example.com' };
    assert.equal((await client.signIn('owner@example.com', PASSWORD, origin)).status, 200);
    const answer = await client.request('GET', `/app/v1/sites/${site.siteId}/installation`, undefined, origin);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.scriptUrl, 'https://stats.example.com/js/t.js');
    assert.equal(answer.body.publicUrlSet, true);
    assert.equal(answer.body.localScriptUrl, false);
  });
});
