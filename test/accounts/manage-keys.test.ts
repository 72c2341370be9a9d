// Keys that manage sites: `scope` on creation (read by default, or manage; anything else 400), in
// the answer and the list; a manage key reads /v1 as a read key does, and its /v1 and
// /app/v1/manage requests count against one per-key limit (SVC_API_RATE_LIMIT).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppClient } from '../helpers/app-client.js';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

describe('keys that manage sites', () => {
  let server: TestServer;
  let site: SiteFixture;
  before(async () => {
    server = await startTestServer({ env: { SVC_API_RATE_LIMIT: '4/60s' } });
    site = await createSite(server);
  });
  after(() => server.stop());

  test('scope: read by default, manage on request, in the answer and the list; another value is refused', async () => {
    const read = await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'reporting' });
    assert.equal(read.status, 201);
    assert.equal(read.body.scope, 'read');
    const manage = await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'automation', scope: 'manage' });
    assert.deepEqual(Object.keys(manage.body).sort(), ['createdAt', 'id', 'key', 'name', 'scope']);
    assert.equal(manage.body.scope, 'manage');
    const listed = (await server.admin('GET', `/orgs/${site.orgId}/keys`)).body.keys as Array<{ id: number; scope: string }>;
    assert.deepEqual(listed.map((k) => [k.id, k.scope]), [[read.body.id, 'read'], [manage.body.id, 'manage']]);
    for (const scope of ['admin', '', 5, null]) {
      const refused = await server.admin('POST', `/orgs/${site.orgId}/keys`, { scope });
      assert.equal(refused.status, 400, JSON.stringify(scope));
      assert.equal(refused.body.error.reason, 'ONE_OF_INVALID_PARAMS');
    }
  });

  test('a manage key creates a site, reads /v1, and shares one rate limit across both', async () => {
    const { key } = (await server.admin('POST', `/orgs/${site.orgId}/keys`, { scope: 'manage' })).body;
    const script = new AppClient(server);
    const bearer = { authorization: `Bearer ${key}` };
    const created = await script.request('POST', `/app/v1/manage/orgs/${site.orgId}/sites`, { domain: 'from-code.example', name: 'From code', timezone: 'UTC' }, bearer);
    assert.equal(created.status, 201, created.text);
    const goal = await script.request('POST', `/app/v1/manage/sites/${created.body.id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' }, bearer);
    assert.equal(goal.status, 201, goal.text);
    const stats = await fetch(`${server.url}/v1/sites/${created.body.id}/stats?period=7d`, { headers: bearer });
    assert.equal(stats.status, 200);
    assert.equal((await script.request('GET', `/app/v1/manage/sites/${created.body.id}`, undefined, bearer)).status, 200);
    const limited = await script.request('GET', `/app/v1/manage/sites/${created.body.id}`, undefined, bearer);
    assert.equal(limited.status, 429, 'the fifth request of the key in the window');
    assert.equal((await fetch(`${server.url}/v1/sites/${created.body.id}/stats?period=7d`, { headers: bearer })).status, 429);
  });
});
