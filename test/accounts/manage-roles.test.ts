// The role matrix of /app/v1/manage, compared with the routes the app mounts: every route refused
// to a viewer (403) and a non-member (404) with nothing changed, allowed to admins (but members and
// invitations routes) and owners; CSRF and Origin checks. Keys too: a manage key of the organisation acts as an admin on its sites' routes
// (403 on members, invitations, keys and the organisation's settings), a read key gets 401 and a
// key of another organisation 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { mountedRoutes } from '../helpers/mounted-routes.js';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

interface ManageRoute {
  /** `METHOD /path` under /app/v1/manage, with its `:name` parameters, as the app mounts it. */
  route: string;
  ownerOnly?: boolean;
  /** Its answer is a file (a zip), not JSON: not compared with the admin API's. */
  file?: boolean;
  /** A route of the organisation itself (keys, members, settings), which no key reaches. */
  notForKeys?: boolean;
  /** The call, with fresh fixtures (made through the admin API) when the call consumes one. */
  make(): Promise<Call>;
}

/**
 * Mounted routes whose roles another file checks, by that file: an upload's or a GA4 property's
 * fixtures are theirs, and any member lists a site's segments (a viewer's own among them).
 */
const CHECKED_ELSEWHERE: Record<string, string> = {
  'POST /sites/:siteId/imports': 'test/imports/import-jobs.test.ts',
  'DELETE /sites/:siteId/imports/:importId': 'test/imports/import-jobs.test.ts',
  'POST /sites/:siteId/imports/ga4': 'test/imports/ga4-refusals.test.ts',
  'GET /sites/:siteId/segments': 'test/v1/segments.test.ts',
};

describe('/app/v1/manage role matrix', () => {
  let server: TestServer;
  let receiver: Receiver;
  let site: SiteFixture;
  let other: SiteFixture;
  const clients: Record<'owner' | 'admin' | 'viewer' | 'outsider', AppClient> = {} as never;
  let spareUser: { id: number; email: string };
  const keys: Record<'manage' | 'read' | 'otherManage', string> = {} as never;
  let counter = 0;

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      // The keys' requests count against the read API's limit: one that never binds here.
      env: { SVC_WEBHOOK_ALLOW_PRIVATE: '1', SVC_API_RATE_LIMIT: '100000/60s' },
      alerts: { resolve: loopbackResolver, ca: testCertificates().ca, timeoutMs: 1_000 },
    });
    site = await createSite(server);
    other = await createSite(server);
    for (const role of ['owner', 'admin', 'viewer'] as const) {
      clients[role] = (await signedInUser(server, `${role}@example.com`, [{ orgId: site.orgId, role }])).client;
    }
    // The outsider owns another organisation: owning something is no key to this one.
    clients.outsider = (await signedInUser(server, 'outsider@example.com', [{ orgId: other.orgId, role: 'owner' }])).client;
    const spare = await server.admin('POST', '/users', { email: 'spare@example.com', password: 'a long enough secret' });
    spareUser = spare.body;
    keys.manage = (await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'automation', scope: 'manage' })).body.key;
    keys.read = (await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'reporting' })).body.key;
    keys.otherManage = (await server.admin('POST', `/orgs/${other.orgId}/keys`, { name: 'theirs', scope: 'manage' })).body.key;
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await server.admin(method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const newGoal = () => admin('POST', `/sites/${site.siteId}/goals`, { name: `g${++counter}`, kind: 'event', pattern: `signup${counter}` });
  const newFunnel = () =>
    admin('POST', `/sites/${site.siteId}/funnels`, { name: `f${++counter}`, windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/buy' }] });
  const newRule = () => admin('POST', `/sites/${site.siteId}/alerts`, { type: 'spike', threshold: 5, url: receiver.url('/hook'), secret: 'shh' });
  const newKey = () => admin('POST', `/orgs/${site.orgId}/keys`, { name: `k${++counter}` });
  const newSegment = () => admin('POST', `/sites/${site.siteId}/segments`, { name: `s${++counter}`, filters: ['country:DE'] });
  const newAnnotation = () => admin('POST', `/sites/${site.siteId}/annotations`, { date: '2026-03-01', text: `n${++counter}` });
  const newInvitation = () => admin('POST', `/orgs/${site.orgId}/invitations`, { email: `pending${++counter}@example.com`, role: 'viewer' });

  const routes: ManageRoute[] = [
    { route: 'GET /orgs/:orgId/sites', make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/sites` }) },
    {
      route: 'POST /orgs/:orgId/sites',
      make: async () => ({ method: 'POST', path: `/orgs/${site.orgId}/sites`, body: { domain: `new${++counter}.example`, name: 'New', timezone: 'UTC' } }),
    },
    { route: 'GET /sites/:siteId', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}` }) },
    { route: 'PATCH /sites/:siteId', make: async () => ({ method: 'PATCH', path: `/sites/${site.siteId}`, body: { name: `Renamed ${++counter}` } }) },
    { route: 'GET /sites/:siteId/snippet', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/snippet` }) },
    { route: 'GET /sites/:siteId/recent-events', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/recent-events` }) },
    { route: 'GET /orgs/:orgId/keys', notForKeys: true, make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/keys` }) },
    { route: 'POST /orgs/:orgId/keys', notForKeys: true, make: async () => ({ method: 'POST', path: `/orgs/${site.orgId}/keys`, body: { name: 'dash', scope: 'manage' } }) },
    { route: 'POST /keys/:keyId/revoke', notForKeys: true, make: async () => ({ method: 'POST', path: `/keys/${(await newKey()).id}/revoke` }) },
    { route: 'GET /sites/:siteId/goals', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/goals` }) },
    { route: 'POST /sites/:siteId/goals', make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/goals`, body: { name: 'Buy', kind: 'page', pattern: `/buy/${++counter}` } }) },
    { route: 'DELETE /sites/:siteId/goals/:goalId', make: async () => ({ method: 'DELETE', path: `/sites/${site.siteId}/goals/${(await newGoal()).goalId}` }) },
    { route: 'GET /sites/:siteId/funnels', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/funnels` }) },
    {
      route: 'POST /sites/:siteId/funnels',
      make: async () => ({
        method: 'POST',
        path: `/sites/${site.siteId}/funnels`,
        body: { name: 'F', windowMinutes: 30, steps: [{ kind: 'page', pattern: '/a' }, { kind: 'page', pattern: '/b' }] },
      }),
    },
    {
      route: 'PUT /sites/:siteId/funnels/:funnelId/steps',
      make: async () => ({
        method: 'PUT',
        path: `/sites/${site.siteId}/funnels/${(await newFunnel()).id}/steps`,
        body: { steps: [{ kind: 'page', pattern: '/x' }, { kind: 'event', pattern: 'paid' }] },
      }),
    },
    { route: 'GET /sites/:siteId/funnels/:funnelId', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/funnels/${(await newFunnel()).id}` }) },
    { route: 'DELETE /sites/:siteId/funnels/:funnelId', make: async () => ({ method: 'DELETE', path: `/sites/${site.siteId}/funnels/${(await newFunnel()).id}` }) },
    { route: 'GET /sites/:siteId/alerts', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/alerts` }) },
    {
      route: 'POST /sites/:siteId/alerts',
      make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/alerts`, body: { type: 'drop', threshold: 3, url: receiver.url('/hook'), secret: 's' } }),
    },
    { route: 'PATCH /alerts/:ruleId', make: async () => ({ method: 'PATCH', path: `/alerts/${(await newRule()).id}`, body: { threshold: 9 } }) },
    { route: 'DELETE /alerts/:ruleId', make: async () => ({ method: 'DELETE', path: `/alerts/${(await newRule()).id}` }) },
    { route: 'POST /alerts/:ruleId/test', make: async () => ({ method: 'POST', path: `/alerts/${(await newRule()).id}/test` }) },
    { route: 'GET /alerts/:ruleId/history', make: async () => ({ method: 'GET', path: `/alerts/${(await newRule()).id}/history` }) },
    { route: 'GET /sites/:siteId/shared-links', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/shared-links` }) },
    { route: 'POST /sites/:siteId/shared-links', make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/shared-links`, body: { filters: ['page:/'] } }) },
    {
      route: 'DELETE /sites/:siteId/shared-links/:linkId',
      make: async () => ({ method: 'DELETE', path: `/sites/${site.siteId}/shared-links/${(await admin('POST', `/sites/${site.siteId}/shared-links`, {})).id}` }),
    },
    // Shared segments are the admins'; a member's own ones are any member's (test/v1/segments.test.ts).
    { route: 'POST /sites/:siteId/segments', make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/segments`, body: { name: 'Team', filters: ['page:/'], shared: true } }) },
    { route: 'PATCH /sites/:siteId/segments/:segmentId', make: async () => ({ method: 'PATCH', path: `/sites/${site.siteId}/segments/${(await newSegment()).id}`, body: { name: `Renamed ${++counter}` } }) },
    { route: 'DELETE /sites/:siteId/segments/:segmentId', make: async () => ({ method: 'DELETE', path: `/sites/${site.siteId}/segments/${(await newSegment()).id}` }) },
    { route: 'GET /sites/:siteId/annotations', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/annotations` }) },
    { route: 'POST /sites/:siteId/annotations', make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/annotations`, body: { date: '2026-03-02', text: 'Launch' } }) },
    { route: 'PATCH /sites/:siteId/annotations/:annotationId', make: async () => ({ method: 'PATCH', path: `/sites/${site.siteId}/annotations/${(await newAnnotation()).id}`, body: { text: `Changed ${++counter}` } }) },
    { route: 'DELETE /sites/:siteId/annotations/:annotationId', make: async () => ({ method: 'DELETE', path: `/sites/${site.siteId}/annotations/${(await newAnnotation()).id}` }) },
    { route: 'GET /sites/:siteId/imports', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/imports` }) },
    { route: 'GET /sites/:siteId/export', file: true, make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/export` }) },
    { route: 'GET /sites/:siteId/digests', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/digests` }) },
    { route: 'GET /sites/:siteId/digest-webhooks', make: async () => ({ method: 'GET', path: `/sites/${site.siteId}/digest-webhooks` }) },
    {
      route: 'POST /sites/:siteId/digest-webhooks',
      make: async () => ({ method: 'POST', path: `/sites/${site.siteId}/digest-webhooks`, body: { url: receiver.url('/digest'), secret: 's', weekly: true, monthly: false } }),
    },
    {
      route: 'DELETE /sites/:siteId/digest-webhooks/:webhookId',
      make: async () => {
        const hook = await admin('POST', `/sites/${site.siteId}/digest-webhooks`, { url: receiver.url('/digest'), secret: 's', weekly: true, monthly: true });
        return { method: 'DELETE', path: `/sites/${site.siteId}/digest-webhooks/${hook.id}` };
      },
    },
    { route: 'GET /orgs/:orgId/members', ownerOnly: true, make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/members` }) },
    {
      route: 'PUT /orgs/:orgId/members/:userId',
      ownerOnly: true,
      make: async () => {
        await admin('PUT', `/orgs/${site.orgId}/members/${spareUser.id}`, { role: 'viewer' });
        return { method: 'PUT', path: `/orgs/${site.orgId}/members/${spareUser.id}`, body: { role: 'admin' } };
      },
    },
    {
      route: 'POST /orgs/:orgId/invitations',
      ownerOnly: true,
      make: async () => ({ method: 'POST', path: `/orgs/${site.orgId}/invitations`, body: { email: `invitee${++counter}@example.com`, role: 'admin' } }),
    },
    { route: 'GET /orgs/:orgId/two-factor', ownerOnly: true, make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/two-factor` }) },
    // `required: true` needs the owner's own two-factor sign-in: two-factor.test.ts covers it.
    { route: 'PUT /orgs/:orgId/two-factor', ownerOnly: true, make: async () => ({ method: 'PUT', path: `/orgs/${site.orgId}/two-factor`, body: { required: false } }) },
    { route: 'GET /orgs/:orgId/sign-in', ownerOnly: true, make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/sign-in` }) },
    { route: 'PUT /orgs/:orgId/sign-in', ownerOnly: true, make: async () => ({ method: 'PUT', path: `/orgs/${site.orgId}/sign-in`, body: { requireSingleSignOn: false } }) },
    { route: 'GET /orgs/:orgId/invitations', ownerOnly: true, make: async () => ({ method: 'GET', path: `/orgs/${site.orgId}/invitations` }) },
    {
      route: 'DELETE /orgs/:orgId/invitations/:invitationId',
      ownerOnly: true,
      make: async () => ({ method: 'DELETE', path: `/orgs/${site.orgId}/invitations/${(await newInvitation()).invitationId}` }),
    },
    {
      route: 'DELETE /orgs/:orgId/members/:userId',
      ownerOnly: true,
      make: async () => {
        await admin('PUT', `/orgs/${site.orgId}/members/${spareUser.id}`, { role: 'viewer' });
        return { method: 'DELETE', path: `/orgs/${site.orgId}/members/${spareUser.id}` };
      },
    },
  ];

  /** Everything the routes can change, read through the admin API. */
  const snapshot = async () => {
    const rules = (await server.admin('GET', `/sites/${site.siteId}/alerts`)).body.alerts as Array<{ id: number }>;
    return {
      sites: (await server.admin('GET', `/orgs/${site.orgId}/sites`)).body,
      keys: (await server.admin('GET', `/orgs/${site.orgId}/keys`)).body,
      goals: (await server.admin('GET', `/sites/${site.siteId}/goals`)).body,
      funnels: (await server.admin('GET', `/sites/${site.siteId}/funnels`)).body,
      rules,
      history: await Promise.all(rules.map(async (r) => (await server.admin('GET', `/alerts/${r.id}/history`)).body)),
      members: (await server.admin('GET', `/orgs/${site.orgId}/members`)).body,
      invitations: (await server.admin('GET', `/orgs/${site.orgId}/invitations`)).body,
      segments: (await server.admin('GET', `/sites/${site.siteId}/segments`)).body,
      annotations: (await server.admin('GET', `/sites/${site.siteId}/annotations`)).body,
      signIn: (await server.admin('GET', `/orgs/${site.orgId}/sign-in`)).body,
    };
  };
  const send = (client: AppClient, call: Call) => client.request(call.method, `/app/v1/manage${call.path}`, call.body);
  /** A call with a key as Bearer, no cookie and no CSRF token, as a script sends it. */
  const sendWithKey = (key: string, call: Call) => new AppClient(server).request(call.method, `/app/v1/manage${call.path}`, call.body, { authorization: `Bearer ${key}` });

  test('the matrix lists every route mounted under /app/v1/manage, and each call is its route', async () => {
    const listed = [...routes.map((r) => r.route), ...Object.keys(CHECKED_ELSEWHERE)].sort();
    assert.deepEqual(listed, mountedRoutes(server.service.app, '/app/v1/manage'));
    assert.equal(new Set(listed).size, listed.length, 'each route once');
    for (const file of Object.values(CHECKED_ELSEWHERE)) assert.ok(existsSync(file), file);
    for (const route of routes) {
      const call = await route.make();
      const pattern = new RegExp(`^${route.route.replace(/:\w+/g, '[^/?]+')}$`);
      assert.match(`${call.method} ${call.path}`, pattern);
    }
  });

  test('a read key gets 401 and a manage key of another organisation 404 on every route, and nothing changes', async () => {
    for (const route of routes) {
      const call = await route.make();
      const before = await snapshot();
      const read = await sendWithKey(keys.read, call);
      assert.equal(read.status, 401, `read key, ${route.route}: ${read.text}`);
      assert.equal(read.body.error.code, 'UNAUTHORIZED');
      const theirs = await sendWithKey(keys.otherManage, call);
      assert.equal(theirs.status, route.ownerOnly || route.notForKeys ? 403 : 404, `other organisation's key, ${route.route}: ${theirs.text}`);
      assert.deepEqual(await snapshot(), before, route.route);
    }
  });

  test('a manage key acts as an admin on its sites\' routes without a CSRF token; members, invitations, keys and settings are 403 (nothing changed)', async () => {
    for (const route of routes) {
      const call = await route.make();
      const forbidden = route.ownerOnly || route.notForKeys;
      const before = forbidden ? await snapshot() : undefined;
      const res = await sendWithKey(keys.manage, call);
      if (forbidden) {
        assert.equal(res.status, 403, `${route.route}: ${res.text}`);
        assert.equal(res.body.error.reason, 'KEY_SCOPE_FORBIDDEN', route.route);
        assert.deepEqual(await snapshot(), before, route.route);
      } else {
        assert.ok(res.status >= 200 && res.status < 300, `${route.route}: ${res.status} ${res.text}`);
        if (call.method === 'GET' && !route.file) assert.deepEqual(res.body, (await server.admin('GET', call.path)).body, route.route);
      }
    }
    const revoked = (await server.admin('POST', `/orgs/${site.orgId}/keys`, { scope: 'manage' })).body;
    await server.admin('POST', `/keys/${revoked.id}/revoke`);
    assert.equal((await sendWithKey(revoked.key, { method: 'GET', path: `/sites/${site.siteId}` })).status, 401, 'a revoked manage key');
  });

  test('a viewer gets 403 and a non-member 404 on every route, and nothing changes', async () => {
    for (const route of routes) {
      const call = await route.make();
      const before = await snapshot();
      const viewer = await send(clients.viewer, call);
      assert.equal(viewer.status, 403, `viewer, ${route.route}: ${viewer.text}`);
      assert.equal(viewer.body.error.code, 'FORBIDDEN');
      const outsider = await send(clients.outsider, call);
      assert.equal(outsider.status, 404, `outsider, ${route.route}: ${outsider.text}`);
      assert.equal(outsider.body.error.code, 'NOT_FOUND');
      assert.deepEqual(await snapshot(), before, route.route);
    }
  });

  test('an admin may use every route but the members and invitations ones (403, nothing changed)', async () => {
    for (const route of routes) {
      const call = await route.make();
      const before = route.ownerOnly ? await snapshot() : undefined;
      const res = await send(clients.admin, call);
      if (route.ownerOnly) {
        assert.equal(res.status, 403, `${route.route}: ${res.text}`);
        assert.deepEqual(await snapshot(), before, route.route);
      } else assert.ok(res.status >= 200 && res.status < 300, `${route.route}: ${res.status} ${res.text}`);
    }
  });

  test('an owner may use every route; answers equal the admin API', async () => {
    for (const route of routes) {
      const call = await route.make();
      const res = await send(clients.owner, call);
      assert.ok(res.status >= 200 && res.status < 300, `${route.route}: ${res.status} ${res.text}`);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      if (call.method === 'GET' && !route.file) {
        assert.deepEqual(res.body, (await server.admin('GET', call.path)).body, route.route);
      }
    }
  });

  test('an admin creating a goal identical to one of the site (kind and pattern) gets 409 CONFLICT', async () => {
    const first = await newGoal();
    const twin = await clients.admin.request('POST', `/app/v1/manage/sites/${site.siteId}/goals`, { name: 'Same events', kind: first.kind, pattern: first.pattern });
    assert.equal(twin.status, 409);
    assert.deepEqual(twin.body, { error: { code: 'CONFLICT', reason: 'GOAL_CONFLICT', message: `a goal with this kind and pattern already exists on this site (goal ${first.goalId})` } });
  });

  test('an owner changes the role of members only: a user outside the organisation and an unknown id get the same 404, and nobody is added', async () => {
    const outsider = await server.admin('POST', '/users', { email: `outside${++counter}@example.com`, password: 'a long enough secret' });
    const before = await snapshot();
    const answers = [];
    for (const userId of [outsider.body.id, 999_999]) {
      const res = await send(clients.owner, { method: 'PUT', path: `/orgs/${site.orgId}/members/${userId}`, body: { role: 'viewer' } });
      assert.equal(res.status, 404, res.text);
      answers.push(res.body);
    }
    assert.deepEqual(answers[0], answers[1], 'the same answer whether an account exists');
    assert.deepEqual(await snapshot(), before);
    // The operator still adds any user directly.
    assert.equal((await server.admin('PUT', `/orgs/${site.orgId}/members/${outsider.body.id}`, { role: 'viewer' })).status, 200);
  });

  test('the operator-only routes are not mounted', async () => {
    for (const [method, path] of [
      ['GET', '/orgs'],
      ['POST', '/orgs'],
      ['POST', '/relay-keys'],
      ['GET', '/users'],
      ['POST', '/maintenance/run'],
      ['POST', `/sites/${site.siteId}/events/import`],
      // Adding an existing user by email would tell an owner which accounts exist: owners invite.
      ['POST', `/orgs/${site.orgId}/members`],
    ] as const) {
      assert.equal((await clients.owner.request(method, `/app/v1/manage${path}`, method === 'GET' ? undefined : {})).status, 404, `${method} ${path}`);
    }
  });

  test('a changed role and a removed membership count from the next request', async () => {
    const { client, userId } = await signedInUser(server, 'mover@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    assert.equal((await client.request('GET', `/app/v1/manage/sites/${site.siteId}`)).status, 403);
    await admin('PUT', `/orgs/${site.orgId}/members/${userId}`, { role: 'admin' });
    assert.equal((await client.request('GET', `/app/v1/manage/sites/${site.siteId}`)).status, 200);
    await server.admin('DELETE', `/orgs/${site.orgId}/members/${userId}`);
    assert.equal((await client.request('GET', `/app/v1/manage/sites/${site.siteId}`)).status, 404);
    assert.equal((await client.request('GET', `/app/v1/sites/${site.siteId}/stats`)).status, 404);
  });

  test('CSRF: a missing or wrong token, or a foreign Origin, is refused (403) and changes nothing', async () => {
    const call = { method: 'PATCH', path: `/sites/${site.siteId}`, body: { name: 'Hijacked' } };
    const before = await snapshot();
    const owner = clients.owner;
    const token = owner.csrfToken;
    const refusals: Array<Record<string, string>> = [{ 'x-csrf-token': '' }, { 'x-csrf-token': token + 'x' }, { origin: 'https://evil.example' }, { origin: 'null' }];
    for (const headers of refusals) {
      const res = await owner.request(call.method, `/app/v1/manage${call.path}`, call.body, headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
    // Another user's token is no token for this session.
    const res = await owner.request(call.method, `/app/v1/manage${call.path}`, call.body, { 'x-csrf-token': clients.admin.csrfToken! });
    assert.equal(res.status, 403);
    assert.match(res.body.error.message, /x-csrf-token/);
    assert.deepEqual(await snapshot(), before);
    // Without a session: 401 before anything else.
    const anonymous = await new AppClient(server).request(call.method, `/app/v1/manage${call.path}`, call.body);
    assert.equal(anonymous.status, 401);
  });

  test('the last owner cannot be removed or demoted', async () => {
    const members = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members as Array<{ userId: number; role: string }>;
    const owner = members.find((m) => m.role === 'owner')!;
    const demote = await clients.owner.request('PUT', `/app/v1/manage/orgs/${site.orgId}/members/${owner.userId}`, { role: 'admin' });
    assert.equal(demote.status, 409);
    assert.equal((await clients.owner.request('DELETE', `/app/v1/manage/orgs/${site.orgId}/members/${owner.userId}`)).status, 409);
  });
});
