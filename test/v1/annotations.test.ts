// Annotations (docs/api.md, Annotations) on a real listening server at a fixed clock: made, changed and
// deleted by admins and owners (/app/v1/manage) and the operator (/admin/v1), read by period on /v1,
// on /app/v1 by any member byte for byte, and through a shared link; the refusals and the per-site bound.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { MAX_ANNOTATIONS_PER_SITE } from '../../src/core/segments.js';
import { AppClient, readOnBothMounts, signedInUser } from '../helpers/app-client.js';
import { createApiKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0); // today 2026-03-20 (UTC)

describe('annotations', () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let key: string;
  let admin: AppClient;
  let viewer: AppClient;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    other = await createSite(server);
    key = await createApiKey(server, site.orgId);
    admin = (await signedInUser(server, 'note-admin@example.com', [{ orgId: site.orgId, role: 'admin' }])).client;
    viewer = (await signedInUser(server, 'note-viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const manage = (method: string, path = '', body?: unknown, client = admin) => client.request(method, `/app/v1/manage/sites/${site.siteId}/annotations${path}`, body);
  const v1 = async (siteId: string, search: string) => {
    const res = await fetch(`${server.url}/v1/sites/${siteId}/annotations${search}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as any };
  };

  test('made, changed and deleted by an admin; read by period and by date on both mounts', async () => {
    const made: Array<{ id: number; date: string; text: string; createdAt: number }> = [];
    for (const [date, text] of <Array<[string, string]>>[['2026-03-19', 'Launch'], ['2026-02-01', 'Newsletter'], ['2026-03-01', 'Price change'], ['2025-12-31', 'Last year'], ['2026-03-19', 'Outage']]) {
      const res = await manage('POST', '', { date, text });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body, { id: res.body.id, date, text, createdAt: NOW });
      made.push(res.body);
    }
    const [launch, newsletter, price, lastYear, outage] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0], (typeof made)[0], (typeof made)[0]];
    const period = (from: string, to: string) => ({ from, to });
    assert.deepEqual((await readOnBothMounts(server, site.siteId, key, viewer, '/annotations?period=7d')).body, { period: period('2026-03-14', '2026-03-20'), annotations: [launch, outage] });
    assert.deepEqual((await readOnBothMounts(server, site.siteId, key, viewer, '/annotations?from=2026-02-01&to=2026-03-01')).body, {
      period: period('2026-02-01', '2026-03-01'),
      annotations: [newsletter, price],
    });
    assert.deepEqual((await readOnBothMounts(server, site.siteId, key, viewer, '/annotations')).body.annotations, [price, launch, outage], 'the default period, 30d: from 2026-02-19');
    assert.deepEqual((await readOnBothMounts(server, site.siteId, key, viewer, '/annotations?period=year')).body.annotations, [newsletter, price, launch, outage]);
    assert.deepEqual((await readOnBothMounts(server, site.siteId, key, viewer, '/annotations?period=all')).body, { period: period('2026-03-20', '2026-03-20'), annotations: [] }, 'all: the days with data (none: today)');
    // The period parameters are checked as every read checks them.
    for (const [search, code] of [['?period=week', 'INVALID_PARAMS'], ['?from=2026-03-02&to=2026-03-01', 'INVALID_PERIOD'], ['?from=2026-03-01', 'INVALID_PARAMS']] as const) {
      assert.equal((await readOnBothMounts(server, site.siteId, key, viewer, `/annotations${search}`)).body.error.code, code, search);
    }
    assert.deepEqual((await manage('GET')).body, { annotations: [lastYear, newsletter, price, launch, outage] }, 'the settings list every annotation');

    const changed = await manage('PATCH', `/${price.id}`, { date: '2026-03-02', text: 'Prices up' });
    assert.deepEqual(changed.body, { ...price, date: '2026-03-02', text: 'Prices up' });
    assert.deepEqual((await manage('PATCH', `/${price.id}`, { text: 'Prices up 10%' })).body, { ...price, date: '2026-03-02', text: 'Prices up 10%' });
    assert.equal((await manage('DELETE', `/${outage.id}`)).status, 204);
    assert.equal((await manage('DELETE', `/${outage.id}`)).status, 404);
    assert.equal((await manage('PATCH', `/${outage.id}`, { text: 'x' })).status, 404);
    assert.deepEqual((await v1(site.siteId, '?period=7d')).body.annotations, [launch]);
    // Another organisation's site is not found, with another key or on another site's path.
    assert.equal((await v1(other.siteId, '')).status, 404);
    assert.equal((await server.admin('DELETE', `/sites/${other.siteId}/annotations/${launch.id}`)).status, 404, "an id of this site is none of another's");
  });

  test('the operator adds and deletes annotations; a viewer reads them but changes none', async () => {
    const made = await server.admin('POST', `/sites/${site.siteId}/annotations`, { date: '2026-03-10', text: 'Deploy' });
    assert.deepEqual([made.status, made.body], [201, { id: made.body.id, date: '2026-03-10', text: 'Deploy', createdAt: NOW }]);
    for (const [method, path, body] of [['GET', '', undefined], ['POST', '', { date: '2026-03-10', text: 'x' }], ['PATCH', `/${made.body.id}`, { text: 'x' }], ['DELETE', `/${made.body.id}`, undefined]] as const) {
      const res = await manage(method, path, body, viewer);
      assert.deepEqual([res.status, res.body.error.code], [403, 'FORBIDDEN'], `${method} ${path}`);
    }
    assert.ok((await v1(site.siteId, '?period=30d')).body.annotations.some((a: { text: string }) => a.text === 'Deploy'));
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/annotations/${made.body.id}`)).status, 204);
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/annotations/abc`)).status, 404);
  });

  test("a day and a text of 1 to 200 characters, with the catalogue's messages", async () => {
    const message = async (body: unknown, method = 'POST', path = '') => {
      const res = await manage(method, path, body);
      assert.equal(res.status, 400, res.text);
      return res.body.error.message as string;
    };
    const dayMessage = 'date must be a day YYYY-MM-DD from 1970-01-01 to 9999-12-30';
    for (const date of ['2026-02-30', '20260301', 20260301, '', undefined]) assert.equal(await message({ date, text: 'x' }), dayMessage, String(date));
    assert.equal(await message({ date: '2026-03-01', text: 'x'.repeat(201) }), 'text must be at most 200 characters');
    assert.equal(await message({ date: '2026-03-01', text: ' ' }), 'text is required and must be a non-empty string');
    assert.match(await message({ date: '2026-03-01', text: 'x', color: 'red' }), /^unknown field "color"/);
    const made = (await manage('POST', '', { date: '2026-03-01', text: 'y'.repeat(200) })).body;
    assert.equal(made.text.length, 200);
    assert.equal(await message({ date: '2026-13-01' }, 'PATCH', `/${made.id}`), dayMessage);
  });

  test('a shared link reads the annotations of its site, even when locked to filters', async () => {
    const link = await admin.request('POST', `/app/v1/manage/sites/${site.siteId}/shared-links`, { filters: ['country:DE'] });
    const opened = await new AppClient(server).request('POST', '/app/v1/share', { token: new URL(link.body.url).pathname.split('/')[2] });
    const read = (siteId: string) => fetch(`${server.url}/app/v1/sites/${siteId}/annotations?period=30d`, { headers: { 'x-share-access': opened.body.access } });
    const shared = await read(site.siteId);
    assert.equal(shared.status, 200);
    assert.deepEqual(await shared.json(), (await v1(site.siteId, '?period=30d')).body);
    assert.equal((await read(other.siteId)).status, 404);
  });

  test(`a site keeps at most ${MAX_ANNOTATIONS_PER_SITE} annotations: the next is 409 CONFLICT`, async () => {
    const fresh = await createSite(server);
    const internal = (await server.ctx.meta.getSite(fresh.siteId))!.internalId;
    for (let i = 1; i < MAX_ANNOTATIONS_PER_SITE; i++) await server.ctx.meta.createAnnotation(internal, { date: '2026-01-01', text: `n${i}` }, 1, MAX_ANNOTATIONS_PER_SITE);
    assert.equal((await server.admin('POST', `/sites/${fresh.siteId}/annotations`, { date: '2026-01-02', text: 'last' })).status, 201);
    const refused = await server.admin('POST', `/sites/${fresh.siteId}/annotations`, { date: '2026-01-02', text: 'one more' });
    assert.deepEqual([refused.status, refused.body.error], [409, { code: 'CONFLICT', reason: 'ANNOTATIONS_CONFLICT', message: `a site keeps at most ${MAX_ANNOTATIONS_PER_SITE} annotations: delete one first` }]);
  });
});
