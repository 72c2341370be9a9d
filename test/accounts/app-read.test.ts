// The dashboard's reading endpoints: /app/v1 answers the same bytes as /v1 (same route code) but
// for the day goals and funnels are counted since, the site list, the per-user rate limit, and a
// cookieless tracker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, browserHeaders, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`);

function lines() {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i <= 40; i++) {
    const day = new Date(NOW - i * 86_400_000).toISOString().slice(0, 10);
    out.push({ ts: at(day, '08:00:00'), ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/', country: 'DE', r: 'https://www.google.com/' });
    out.push({ ts: at(day, '08:01:00'), ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/pricing' });
    out.push({ ts: at(day, '08:02:00'), ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/pricing', e: 'signup' });
  }
  out.push({ ts: NOW - 120_000, ua: BROWSER_UA, ip: '192.0.2.10', u: '/docs', country: 'FR' });
  return out;
}

/** An /app/v1 answer's text without the dashboard's `countedSince` fields: the /v1 text. */
const withoutCountedSince = (text: string) => text.replaceAll(/,"countedSince":(null|"[0-9-]+")/g, '');

describe('/app/v1 reading', () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let key: string;
  let member: AppClient;
  let funnelId: number;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '600/60s' } });
    site = await createSite(server);
    other = await createSite(server);
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, lines().filter((l) => (l.ts as number) < NOW - 3_600_000));
    assert.equal(imported.body.rejected, 0);
    await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, {
      name: 'Buy',
      windowMinutes: 30,
      steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }],
    });
    funnelId = funnel.body.id;
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const v1 = async (path: string) => {
    const res = await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };

  test("every statistics answer equals /v1 byte for byte; a refusal is /v1's with its reason", async () => {
    const paths = [
      `/sites/${site.siteId}/stats?period=30d`,
      `/sites/${site.siteId}/stats?period=7d&filter=page:/pricing`,
      `/sites/${site.siteId}/timeseries?period=30d&metric=pageviews`,
      `/sites/${site.siteId}/timeseries?period=day`,
      `/sites/${site.siteId}/breakdown?period=30d&dimension=page`,
      `/sites/${site.siteId}/breakdown?period=30d&dimension=country&limit=1&page=2`,
      `/sites/${site.siteId}/goals?period=30d`,
      `/sites/${site.siteId}/funnels`,
      `/sites/${site.siteId}/funnels/${funnelId}?period=30d`,
      `/sites/${site.siteId}/realtime`,
      `/sites/${site.siteId}/stats?period=nope`,
      `/sites/${site.siteId}/breakdown?period=year&dimension=page&filter=page:/&filter=country:DE`,
      `/sites/${other.siteId}/stats?period=30d`,
      `/sites/nosuchsite/stats`,
    ];
    for (const path of paths) {
      const [app, api] = [await member.request('GET', `/app/v1${path}`), await v1(path)];
      assert.equal(app.status, api.status, path);
      if (api.status >= 400) {
        const { error } = JSON.parse(api.text);
        assert.deepEqual(Object.keys(error), ['code', 'message'], path);
        assert.deepEqual(app.body, { error: { code: error.code, reason: app.body.error.reason, message: error.message } }, path);
        assert.match(app.body.error.reason, /^[A-Z_]+$/, path);
      } else {
        assert.equal(withoutCountedSince(app.text), api.text, path);
      }
      assert.equal(app.headers.get('content-type'), api.headers.get('content-type'), path);
      assert.equal(app.headers.get('cache-control'), 'no-store');
    }
    const stats = JSON.parse((await v1(`/sites/${site.siteId}/stats?period=30d`)).text);
    assert.ok(stats.stats.visitors.value > 0, 'the fixture has figures');
  });

  test('the goals and funnel answers also say from which day each is counted', async () => {
    // Made after the import's days were rolled up: backfilled from the first raw day kept, before the period.
    const goals = await member.request('GET', `/app/v1/sites/${site.siteId}/goals?period=30d`);
    const [since] = goals.body.goals.map((g: { countedSince: string }) => g.countedSince);
    assert.match(since, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(since <= goals.body.period.from);
    const funnel = await member.request('GET', `/app/v1/sites/${site.siteId}/funnels/${funnelId}?period=30d`);
    assert.equal(funnel.body.countedSince, since);
    assert.ok(!(await v1(`/sites/${site.siteId}/goals?period=30d`)).text.includes('countedSince'), '/v1 answers stay as they are');
  });

  test('without a session every statistics route answers 401', async () => {
    const res = await new AppClient(server).request('GET', `/app/v1/sites/${site.siteId}/stats`);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
  });

  test('GET /app/v1/sites lists the sites of the user\'s organisations with their last 24 hours', async () => {
    await server.collect({ s: site.siteId, u: '/live' }, browserHeaders(site.domain));
    await server.flush();
    const res = await member.request('GET', '/app/v1/sites');
    assert.equal(res.status, 200);
    const orgName = (await server.admin('GET', '/orgs')).body.orgs.find((o: { id: number }) => o.id === site.orgId).name;
    assert.deepEqual(res.body, {
      sites: [
        { id: site.siteId, domain: site.domain, name: res.body.sites[0].name, timezone: 'UTC', status: 'active', orgId: site.orgId, orgName, role: 'viewer', visitors24h: 2 },
      ],
    });
    const { timezones } = (await member.request('GET', '/app/v1/timezones')).body as { timezones: string[] };
    assert.ok(timezones.includes('Europe/Paris') && timezones.includes('UTC'), 'IANA zones, UTC included');
  });

  test('the tracker never sets or reads a cookie', async () => {
    const script = await fetch(`${server.url}/js/t.js`, { headers: { cookie: `svc_session=${member.cookie}` } });
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('set-cookie'), null);
    const before = (await server.storedEvents(site.siteId)).length;
    const withCookie = await fetch(`${server.url}/api/e`, {
      method: 'POST',
      headers: { ...browserHeaders(site.domain), 'content-type': 'text/plain', cookie: `svc_session=${member.cookie}` },
      body: JSON.stringify({ s: site.siteId, u: '/cookie' }),
    });
    assert.equal(withCookie.status, 202);
    assert.equal(withCookie.headers.get('set-cookie'), null);
    const without = await server.collect({ s: site.siteId, u: '/cookie' }, browserHeaders(site.domain));
    assert.equal(without, 202);
    const stored = (await server.storedEvents(site.siteId)).slice(before);
    assert.equal(stored.length, 2);
    // A cookie changes nothing: the same browser is the same visitor with or without it.
    assert.equal(stored[0]!.visitor_id, stored[1]!.visitor_id);
  });

  test("any member reads a funnel's versions of steps; others get 404", async () => {
    await server.admin('PUT', `/sites/${site.siteId}/funnels/${funnelId}/steps`, { steps: [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'signup' }] });
    const read = await member.request('GET', `/app/v1/sites/${site.siteId}/funnels/${funnelId}/versions`);
    assert.equal(read.status, 200);
    assert.equal(read.body.version, 2);
    assert.deepEqual(
      read.body.versions.map((v: { version: number; steps: unknown }) => [v.version, v.steps]),
      [
        [1, [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }]],
        [2, [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'signup' }]],
      ],
    );
    assert.equal((await member.request('GET', `/app/v1/sites/${site.siteId}/funnels/99999/versions`)).status, 404);
    assert.equal((await member.request('GET', `/app/v1/sites/${other.siteId}/funnels/${funnelId}/versions`)).body.error.code, 'NOT_FOUND');
  });

  test('the rate limit counts per user: 600 a minute, then 429', async () => {
    const other = (await signedInUser(server, 'busy@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
    const statuses = await Promise.all(Array.from({ length: 601 }, () => other.request('GET', '/app/v1/session').then((r) => r.status)));
    assert.equal(statuses.filter((s) => s === 200).length, 600);
    const limited = await other.request('GET', `/app/v1/sites/${site.siteId}/stats`);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'RATE_LIMITED');
    assert.equal((await member.request('GET', '/app/v1/session')).status, 200, 'another user is not limited');
    clock.advance(60_000);
    assert.equal((await other.request('GET', '/app/v1/session')).status, 200);
  });
});
