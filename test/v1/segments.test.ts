// Segments (docs/api.md, Segments) on a real listening server at the planner's clock: a request with
// `segment=<id>` answers, over the planner's table of filter cases, what it answers with the
// segment's filters written out (status, bytes, the figures' headers), on /v1 with shared segments
// and on /app/v1 with the member's own too; who sees, makes, changes and deletes which segment; the
// refusals; the per-site bound; the admin API; and a shared link locked to a segment.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { addDays } from '../../src/core/localtime.js';
import { IMPORTED_HEADER, RAW_WINDOW_HEADER } from '../../src/core/answer-headers.js';
import type { RawParams } from '../../src/core/query.js';
import { MAX_SEGMENTS_PER_SITE } from '../../src/core/segments.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { PATH_CASES, PLANNER_NOW, REFUSAL_CASES } from '../helpers/planner-cases.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const TODAY = '2026-03-20';
const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`);

/** Visitors on each of the 120 days before today, from France or Germany, on / and /pricing; one more today. */
function events() {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 1; i <= 120; i++) {
    const day = addDays(TODAY, -i);
    const ip = `198.51.100.${i}`;
    out.push({ ts: at(day, '09:00:00'), ua: BROWSER_UA, ip, u: i % 4 === 0 ? '/pricing' : '/', country: i % 3 === 0 ? 'FR' : 'DE', r: i % 2 ? 'https://www.google.com/' : undefined });
    if (i % 5 === 0) out.push({ ts: at(day, '09:03:00'), ua: BROWSER_UA, ip, u: '/', e: 'signup' });
  }
  out.push({ ts: PLANNER_NOW - 60_000, ua: BROWSER_UA, ip: '192.0.2.1', u: '/', country: 'FR' });
  return out;
}

const PATHS: Record<string, string> = { stats: '/stats', timeseries: '/timeseries', breakdown: '/breakdown', goals: '/goals' };
const filtersOf = (params: RawParams): string[] => (params.filter === undefined ? [] : ([] as string[]).concat(params.filter));

function query(params: RawParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of value === undefined ? [] : ([] as string[]).concat(value)) search.append(name, v);
  return search.toString();
}

describe('segments', () => {
  const clock = new ManualClock(PLANNER_NOW);
  let server: TestServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let key: string;
  let owner: AppClient;
  let admin: AppClient;
  let viewer: AppClient;
  let viewer2: AppClient;
  let outsider: AppClient;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    other = await createSite(server);
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, events());
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
    owner = (await signedInUser(server, 'seg-owner@example.com', [{ orgId: site.orgId, role: 'owner' }])).client;
    admin = (await signedInUser(server, 'seg-admin@example.com', [{ orgId: site.orgId, role: 'admin' }])).client;
    viewer = (await signedInUser(server, 'seg-viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
    viewer2 = (await signedInUser(server, 'seg-viewer2@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
    outsider = (await signedInUser(server, 'seg-outsider@example.com', [{ orgId: other.orgId, role: 'owner' }])).client;
  });
  after(() => server.stop());

  const manage = (client: AppClient, method: string, path = '', body?: unknown) => client.request(method, `/app/v1/manage/sites/${site.siteId}/segments${path}`, body);
  const shared = async (filters: string[], name = filters.join(' and ')) => {
    const res = await server.admin('POST', `/sites/${site.siteId}/segments`, { name, filters });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as number;
  };
  /** A read on /v1 (a key) or /app/v1 (a member): what a client sees of it. */
  const read = async (path: string, params: RawParams, member?: AppClient) => {
    const url = `/sites/${site.siteId}${path}?${query(params)}`;
    const res = member ? await member.request('GET', `/app/v1${url}`) : await fetch(`${server.url}/v1${url}`, { headers: { authorization: `Bearer ${key}` } });
    const text = 'text' in res && typeof res.text === 'string' ? res.text : await (res as Response).text();
    return { status: res.status, text, imported: res.headers.get(IMPORTED_HEADER), rawWindow: res.headers.get(RAW_WINDOW_HEADER) };
  };

  test("over the planner's filter cases, a segment answers as its filters written out, whole or joining the request's own", async () => {
    const cases = [...PATH_CASES, ...REFUSAL_CASES].filter(([kind, params]) => PATHS[kind] && filtersOf(params).length > 0);
    assert.ok(cases.length >= 15, `${cases.length} cases`);
    const statuses = new Set<number>();
    for (const [kind, params] of cases) {
      const filters = filtersOf(params);
      const { filter: _filter, ...rest } = params;
      const written = await read(PATHS[kind]!, params);
      statuses.add(written.status);
      const whole = await read(PATHS[kind]!, { ...rest, segment: String(await shared(filters)) });
      assert.deepEqual(whole, written, `${kind} ${JSON.stringify(params)}: the whole segment`);
      if (filters.length > 1) {
        const joined = await read(PATHS[kind]!, { ...rest, filter: filters[0], segment: String(await shared(filters.slice(1))) });
        assert.deepEqual(joined, written, `${kind} ${JSON.stringify(params)}: the request's filter and the segment's`);
      }
    }
    assert.deepEqual([...statuses].sort(), [200, 400], 'answers and refusals both compared');
  });

  test("/app/v1 applies the member's own segments too; /v1 and other members get 404 for them", async () => {
    const created = await manage(viewer, 'POST', '', { name: 'Mine', filters: ['country:FR', 'page~:pric'] });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body, { id: created.body.id, name: 'Mine', filters: ['country:FR', 'page~:pric'], shared: false });
    const params = { period: '30d', dimension: 'referrer' };
    const written = await read('/breakdown', { ...params, filter: ['country:FR', 'page~:pric'] }, viewer);
    assert.equal(written.status, 200, written.text);
    assert.deepEqual(await read('/breakdown', { ...params, segment: String(created.body.id) }, viewer), written);
    const notFound = JSON.stringify({ error: { code: 'NOT_FOUND', message: 'segment not found' } });
    for (const client of [undefined, viewer2, admin]) {
      const refused = await read('/breakdown', { ...params, segment: String(created.body.id) }, client);
      assert.deepEqual([refused.status, refused.text], [404, notFound]);
    }
    // A shared segment answers alike on both mounts.
    const id = String(await shared(['referrer!:(none)']));
    assert.equal((await read('/stats', { period: '7d', segment: id }, viewer)).text, (await read('/stats', { period: '7d', segment: id })).text);
  });

  test('refusals: an unknown, foreign or malformed segment is 404; a repeated one or a dimension in both is 400', async () => {
    const foreign = await server.admin('POST', `/sites/${other.siteId}/segments`, { name: 'Theirs', filters: ['page:/'] });
    const id = String(await shared(['country:DE', 'page:/']));
    const error = async (params: RawParams) => JSON.parse((await read('/stats', { period: '7d', ...params })).text).error;
    for (const segment of ['999999', String(foreign.body.id), 'abc', '0', '-1', '']) {
      assert.deepEqual(await error({ segment }), { code: 'NOT_FOUND', message: 'segment not found' }, segment);
    }
    assert.deepEqual(await error({ segment: [id, id] }), { code: 'INVALID_PARAMS', message: 'segment must be given at most once' });
    for (const filter of ['page:/pricing', 'page!:/x', 'page~:x']) {
      assert.deepEqual(await error({ segment: id, filter }), {
        code: 'INVALID_PARAMS',
        message: 'filter page is also a filter of the segment: filter another dimension, or apply no segment',
      });
    }
    // The site is checked first: another organisation's key gets the site's 404.
    const foreignKey = await createApiKey(server, other.orgId);
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?segment=${id}`, { headers: { authorization: `Bearer ${foreignKey}` } });
    assert.deepEqual([res.status, ((await res.json()) as { error: { message: string } }).error.message], [404, 'site not found']);
  });

  test('GET /v1/sites/:siteId/segments lists the shared segments only, to keys of the organisation', async () => {
    const list = async (siteId: string, k = key) => {
      const res = await fetch(`${server.url}/v1/sites/${siteId}/segments`, { headers: { authorization: `Bearer ${k}` } });
      return { status: res.status, body: (await res.json()) as any };
    };
    await manage(viewer, 'POST', '', { name: 'Hidden', filters: ['os:Linux'] });
    const listed = await list(site.siteId);
    assert.equal(listed.status, 200);
    const expected = (await server.admin('GET', `/sites/${site.siteId}/segments`)).body.segments.map(({ shared: _s, ...rest }: { shared: boolean }) => rest);
    assert.ok(expected.length > 0);
    assert.deepEqual(listed.body, { segments: expected });
    assert.equal(listed.body.segments.some((s: { name: string }) => s.name === 'Hidden'), false);
    assert.equal((await list(other.siteId)).status, 404);
    assert.equal((await list('nope')).status, 404);
  });

  test('who sees, makes, changes and deletes which segment on /app/v1/manage', async () => {
    const mine = (await manage(viewer, 'POST', '', { name: 'Viewer own', filters: ['browser:Firefox'] })).body;
    const sharedOne = (await manage(admin, 'POST', '', { name: 'Team', filters: ['device:Mobile'], shared: true })).body;
    assert.equal(sharedOne.shared, true);
    const names = async (client: AppClient) => ((await manage(client, 'GET')).body.segments as Array<{ name: string }>).map((s) => s.name);
    assert.ok((await names(viewer)).includes('Viewer own') && (await names(viewer)).includes('Team'));
    for (const client of [viewer2, admin, owner]) assert.equal((await names(client)).includes('Viewer own'), false, "another member's personal segment is not listed");
    assert.equal((await server.admin('GET', `/sites/${site.siteId}/segments`)).body.segments.some((s: { name: string }) => s.name === 'Viewer own'), false);

    // A viewer may not share, nor change or delete a shared segment: 403, nothing changed.
    const refused = [
      await manage(viewer, 'POST', '', { name: 'x', filters: ['page:/'], shared: true }),
      await manage(viewer, 'PATCH', `/${sharedOne.id}`, { name: 'x' }),
      await manage(viewer, 'DELETE', `/${sharedOne.id}`),
      await manage(viewer, 'PATCH', `/${mine.id}`, { shared: true }),
    ];
    for (const res of refused) assert.deepEqual([res.status, res.body.error.code], [403, 'FORBIDDEN'], res.text);
    // Another member's personal segment is no segment at all, whatever the role; another organisation's member gets the site's 404.
    for (const client of [viewer2, owner]) {
      for (const [method, body] of [['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
        const res = await manage(client, method, `/${mine.id}`, body);
        assert.deepEqual([res.status, res.body.error.message], [404, 'segment not found']);
      }
    }
    for (const [method, path, body] of [['GET', '', undefined], ['POST', '', { name: 'x', filters: ['page:/'] }], ['PATCH', `/${sharedOne.id}`, { name: 'x' }], ['DELETE', `/${sharedOne.id}`, undefined]] as const) {
      const res = await manage(outsider, method, path, body);
      assert.deepEqual([res.status, res.body.error.message], [404, 'site not found'], `${method} ${path}`);
    }
    assert.deepEqual((await manage(admin, 'GET')).body.segments.find((s: { id: number }) => s.id === sharedOne.id), sharedOne, 'nothing changed');

    // The owner of a personal segment changes it; an admin shares its own and takes a shared one back.
    const renamed = await manage(viewer, 'PATCH', `/${mine.id}`, { name: 'Firefox users', filters: ['browser:Firefox', 'os:Linux'] });
    assert.deepEqual(renamed.body, { ...mine, name: 'Firefox users', filters: ['browser:Firefox', 'os:Linux'] });
    const adminOwn = (await manage(admin, 'POST', '', { name: 'Admin own', filters: ['page:/'] })).body;
    assert.deepEqual((await manage(admin, 'PATCH', `/${adminOwn.id}`, { shared: true })).body, { ...adminOwn, shared: true });
    assert.ok((await names(viewer)).includes('Admin own'));
    assert.deepEqual((await manage(owner, 'PATCH', `/${adminOwn.id}`, { shared: false })).body, { ...adminOwn, shared: false });
    assert.equal((await names(admin)).includes('Admin own'), false, "taken back: now the owner's own");
    assert.ok((await names(owner)).includes('Admin own'));
    assert.equal((await manage(viewer, 'DELETE', `/${mine.id}`)).status, 204);
    assert.equal((await manage(viewer, 'DELETE', `/${mine.id}`)).status, 404);
    assert.equal((await manage(admin, 'DELETE', `/${sharedOne.id}`)).status, 204);
  });

  test('names and filters are checked with the catalogue\'s messages: a bad filter as the read API words it', async () => {
    const message = async (body: unknown) => {
      const res = await manage(viewer, 'POST', '', body);
      assert.equal(res.status, 400, res.text);
      return res.body.error.message as string;
    };
    for (const filter of ['nope:x', 'country:', 'page:/a', 'prop.:x']) {
      const filters = filter === 'page:/a' ? ['page:/a', 'page!:/b'] : [filter];
      const v1 = JSON.parse((await read('/stats', { period: '7d', filter: filters })).text).error.message;
      assert.equal(await message({ name: 'n', filters }), v1, filter);
    }
    const filtersMessage = 'filters must be an array of 1 to 10 filters <dimension>:<value>';
    for (const filters of [[], 'page:/', [1], undefined, Array.from({ length: 11 }, (_, i) => `prop.k${i}:v`)]) assert.equal(await message({ name: 'n', filters }), filtersMessage);
    assert.equal(await message({ name: 'x'.repeat(81), filters: ['page:/'] }), 'name must be at most 80 characters');
    assert.equal(await message({ name: '  ', filters: ['page:/'] }), 'name is required and must be a non-empty string');
    assert.equal(await message({ name: 'n', filters: ['page:/'], shared: 'yes' }), 'shared must be true or false');
    assert.match(await message({ name: 'n', filters: ['page:/'], owner: 1 }), /^unknown field "owner"/);
    const ten = Array.from({ length: 10 }, (_, i) => `prop.k${i}:v`);
    assert.equal((await manage(viewer, 'POST', '', { name: 'x'.repeat(80), filters: ten })).status, 201, '80 characters and 10 filters are accepted');
  });

  test('the admin API makes shared segments only, and deletes them', async () => {
    const created = await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Ops', filters: ['utm_source:news'] });
    assert.deepEqual(created, { ...created, status: 201, body: { id: created.body.id, name: 'Ops', filters: ['utm_source:news'], shared: true } });
    const personal = await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Ops', filters: ['page:/'], shared: false });
    assert.deepEqual([personal.status, personal.body.error.reason], [400, 'PERSONAL_SEGMENT_INVALID_PARAMS']);
    const own = (await manage(viewer, 'POST', '', { name: 'Not the operator\'s', filters: ['page:/'] })).body;
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/segments/${own.id}`)).status, 404, 'a personal segment is its owner\'s alone');
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/segments/${created.body.id}`)).status, 204);
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/segments/${created.body.id}`)).status, 404);
    assert.equal((await server.admin('POST', `/sites/nope/segments`, { name: 'x', filters: ['page:/'] })).status, 404);
  });

  test('a shared link locked to a segment reads under its filters, which the request cannot remove', async () => {
    const id = await shared(['country:FR', 'page:/']);
    const link = await admin.request('POST', `/app/v1/manage/sites/${site.siteId}/shared-links`, { segment: id, filters: ['referrer:(none)'] });
    assert.equal(link.status, 201, link.text);
    assert.deepEqual(link.body.filters, ['referrer:(none)', 'country:FR', 'page:/']);
    const opened = await new AppClient(server).request('POST', '/app/v1/share', { token: new URL(link.body.url).pathname.split('/')[2] });
    const access = opened.body.access as string;
    const viaLink = await fetch(`${server.url}/app/v1/sites/${site.siteId}/stats?period=7d&filter=country:DE`, { headers: { 'x-share-access': access } });
    assert.equal(viaLink.status, 200);
    assert.equal(await viaLink.text(), (await read('/stats', { period: '7d', filter: ['referrer:(none)', 'country:FR', 'page:/'] })).text);
    // The operator locks a link to a shared segment; an unknown or personal one is 404, a malformed one 400.
    const operator = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { segment: id });
    assert.deepEqual([operator.status, operator.body.filters], [201, ['country:FR', 'page:/']]);
    const own = (await manage(viewer, 'POST', '', { name: 'p', filters: ['page:/'] })).body;
    for (const segment of [own.id, 999_999]) assert.equal((await server.admin('POST', `/sites/${site.siteId}/shared-links`, { segment })).status, 404);
    assert.equal((await server.admin('POST', `/sites/${site.siteId}/shared-links`, { segment: '1' })).status, 400);
    const twice = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { segment: id, filters: ['country:DE'] });
    assert.deepEqual([twice.status, twice.body.error.message], [400, 'filter country is given twice']);
    // A segment's `page` value is text, a lock's a pattern: a `*` in it would lock other pages, so it is refused.
    const star = await shared(['page:/a*b']);
    const starred = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { segment: star });
    assert.deepEqual([starred.status, starred.body.error?.code], [400, 'INVALID_PARAMS'], JSON.stringify(starred.body));
    assert.match(starred.body.error.message, /pattern/);
  });

  test(`a site keeps at most ${MAX_SEGMENTS_PER_SITE} segments: the next is 409 CONFLICT`, async () => {
    const fresh = await createSite(server);
    const internal = (await server.ctx.meta.getSite(fresh.siteId))!.internalId;
    for (let i = 1; i < MAX_SEGMENTS_PER_SITE; i++) await server.ctx.meta.createSegment(internal, { name: `s${i}`, filters: ['page:/'], shared: true, ownerUserId: null }, 1, MAX_SEGMENTS_PER_SITE);
    assert.equal((await server.admin('POST', `/sites/${fresh.siteId}/segments`, { name: 'last', filters: ['page:/'] })).status, 201);
    const refused = await server.admin('POST', `/sites/${fresh.siteId}/segments`, { name: 'one more', filters: ['page:/'] });
    assert.deepEqual([refused.status, refused.body.error], [409, { code: 'CONFLICT', reason: 'SEGMENTS_CONFLICT', message: `a site keeps at most ${MAX_SEGMENTS_PER_SITE} segments: delete one first` }]);
  });
});
