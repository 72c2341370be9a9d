// The error answers of each API, over a running service: /app/v1 and /admin/v1 carry the template's
// reason ({ code, reason, message }), whatever refused the request (a route, an authentication hook,
// Fastify itself, the router, a store); /v1 and the paths of no API answer the read API's envelope,
// { code, message } and nothing else.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { REASON_HEADER } from '../../src/core/answer-headers.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { createApiKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

let server: TestServer;
let site: SiteFixture;
let key: string;
let owner: AppClient;

before(async () => {
  server = await startTestServer();
  site = await createSite(server);
  key = await createApiKey(server, site.orgId);
  owner = (await signedInUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }])).client;
});
after(async () => {
  await server?.stop();
});

async function answer(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(server.url + path, init);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const adminAuth = () => ({ authorization: `Bearer ${server.adminToken}` });

test('/admin/v1 answers every refusal with its reason', async () => {
  const refusals = [
    { what: 'no token', status: 401, reason: 'CREDENTIALS_UNAUTHORIZED', res: await answer('/admin/v1/orgs') },
    { what: 'an unknown path', status: 404, reason: 'ROUTE_NOT_FOUND', res: await answer('/admin/v1/nowhere', { headers: adminAuth() }) },
    { what: 'a broken path parameter', status: 400, reason: 'MALFORMED_URL_INVALID_PARAMS', res: await answer('/admin/v1/sites/%ZZ/goals', { headers: adminAuth() }) },
    {
      what: 'a body that is not JSON',
      status: 400,
      reason: 'NOT_JSON_INVALID_PARAMS',
      res: await answer('/admin/v1/orgs', { method: 'POST', headers: { ...adminAuth(), 'content-type': 'application/json' }, body: '{' }),
    },
    { what: 'an unknown site', status: 404, reason: 'SITE_NOT_FOUND', res: await answer('/admin/v1/sites/nosuchsite/goals', { headers: adminAuth() }) },
  ];
  for (const { what, status, reason, res } of refusals) {
    assert.equal(res.status, status, what);
    assert.deepEqual(Object.keys(res.body.error), ['code', 'reason', 'message'], what);
    assert.equal(res.body.error.reason, reason, what);
    assert.equal(res.headers.get(REASON_HEADER), reason, what);
  }
});

test("a store's refusal answers with its reason, on the admin API and on /app/v1/manage", async () => {
  const domain = { domain: site.domain, name: 'Again', timezone: 'UTC' };
  const viaAdmin = await server.admin('POST', `/orgs/${site.orgId}/sites`, domain);
  const viaManage = await owner.request('POST', `/app/v1/manage/orgs/${site.orgId}/sites`, domain);
  const message = `an active site of this organisation already uses the domain ${site.domain}`;
  for (const res of [viaAdmin, viaManage]) {
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { error: { code: 'CONFLICT', reason: 'DOMAIN_CONFLICT', message } });
  }
  const twice = await server.admin('POST', '/users', { email: 'owner@example.com', password: 'a long enough secret' });
  assert.deepEqual([twice.status, twice.body.error.reason], [409, 'EMAIL_CONFLICT']);
});

test("/app/v1 answers every refusal with its reason: in a header, and in the envelope but on the read API's routes, whose envelope is /v1's", async () => {
  const signedOut = await answer('/app/v1/sites');
  const unknownPath = await owner.request('GET', '/app/v1/nowhere');
  const unknownSite = await owner.request('GET', '/app/v1/sites/nosuchsite/stats');
  const badPeriod = await owner.request('GET', `/app/v1/sites/${site.siteId}/stats?from=2024-02-01&to=2024-01-01`);
  assert.deepEqual(
    [signedOut, unknownPath, unknownSite, badPeriod].map((res) => [res.status, Object.keys(res.body.error), res.headers.get(REASON_HEADER)]),
    [
      [401, ['code', 'reason', 'message'], 'CREDENTIALS_UNAUTHORIZED'],
      [404, ['code', 'reason', 'message'], 'ROUTE_NOT_FOUND'],
      [404, ['code', 'message'], 'SITE_NOT_FOUND'],
      [400, ['code', 'message'], 'REVERSED_INVALID_PERIOD'],
    ],
  );
  assert.equal(signedOut.body.error.reason, 'CREDENTIALS_UNAUTHORIZED');
  assert.equal(unknownPath.body.error.reason, 'ROUTE_NOT_FOUND');
});

test("/v1 and the paths of no API keep the read API's envelope: code and message only", async () => {
  const bearer = { authorization: `Bearer ${key}` };
  const refusals = [
    await answer('/v1/sites/nosuchsite/stats', { headers: bearer }),
    await answer(`/v1/sites/${site.siteId}/stats?from=2024-02-01&to=2024-01-01`, { headers: bearer }),
    await answer(`/v1/sites/${site.siteId}/stats`),
    await answer('/v1/sites/%ZZ/stats', { headers: bearer }),
    await answer('/nowhere'),
    await answer('/app/v1x'),
  ];
  assert.deepEqual(
    refusals.map((res) => [res.status, res.body.error.code, Object.keys(res.body.error)]),
    [
      [404, 'NOT_FOUND', ['code', 'message']],
      [400, 'INVALID_PERIOD', ['code', 'message']],
      [401, 'UNAUTHORIZED', ['code', 'message']],
      [400, 'INVALID_PARAMS', ['code', 'message']],
      [404, 'NOT_FOUND', ['code', 'message']],
      [404, 'NOT_FOUND', ['code', 'message']],
    ],
  );
  for (const res of refusals) assert.equal(res.headers.get(REASON_HEADER), null, 'no reason header outside /app/v1 and /admin/v1');
});
