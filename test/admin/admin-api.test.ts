// The admin API (docs/admin-api.md), table-driven through a real listening server: authentication on
// every route, org/site/key lifecycle, validation, goals, funnels, maintenance, import report and
// /metrics.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MAINTENANCE_TASKS } from '../../src/core/maintenance.js';
import { PAGE_PATTERN_LIMITS } from '../../src/core/patterns.js';
import { GOALS_PER_SITE_MAX } from '../../src/core/vocabulary.js';
import { BROWSER_UA, browserHeaders, createSite, importEvents, startTestServer, type HttpResult, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

let counter = 0;
const uniqueDomain = (label = 'd') => `${label}${++counter}-${process.pid}.example`;

function assertError(res: HttpResult, status: number, code: string, context = '') {
  assert.equal(res.status, status, `${context}: ${JSON.stringify(res.body)}`);
  assert.ok(res.body && typeof res.body === 'object', `${context}: envelope expected`);
  assert.deepEqual(Object.keys(res.body), ['error'], context);
  assert.equal(res.body.error.code, code, context);
  assert.equal(typeof res.body.error.message, 'string', context);
  assert.ok(res.body.error.message.length > 0, context);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, context);
}

/** A request with an arbitrary Authorization header (or none). */
async function raw(method: string, path: string, authorization: string | undefined, body?: unknown): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

async function newOrg(name = 'Org') {
  const res = await server.admin('POST', '/orgs', { name });
  assert.equal(res.status, 201);
  return res.body as { id: number; name: string };
}

async function newSite(orgId: number, extra: Record<string, unknown> = {}) {
  const res = await server.admin('POST', `/orgs/${orgId}/sites`, { domain: uniqueDomain(), name: 'Site', timezone: 'Europe/Paris', ...extra });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as Record<string, any>;
}

test('401 envelope on every admin route and /metrics without, or with a wrong, token', async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  const routes: Array<[string, string, unknown?]> = [
    ['POST', '/admin/v1/orgs', { name: 'x' }],
    ['GET', '/admin/v1/orgs'],
    ['POST', `/admin/v1/orgs/${org.id}/sites`, { domain: uniqueDomain(), name: 'x', timezone: 'UTC' }],
    ['GET', `/admin/v1/orgs/${org.id}/sites`],
    ['PATCH', `/admin/v1/sites/${site.id}`, { name: 'y' }],
    ['POST', `/admin/v1/orgs/${org.id}/keys`, { name: 'k' }],
    ['GET', `/admin/v1/orgs/${org.id}/keys`],
    ['POST', '/admin/v1/keys/1/revoke'],
    ['POST', '/admin/v1/relay-keys', {}],
    ['POST', `/admin/v1/sites/${site.id}/goals`, { name: 'g', kind: 'page', pattern: '/x' }],
    ['GET', `/admin/v1/sites/${site.id}/goals`],
    ['DELETE', `/admin/v1/sites/${site.id}/goals/1`],
    ['POST', `/admin/v1/sites/${site.id}/funnels`, { name: 'f', windowMinutes: 5, steps: [] }],
    ['PUT', `/admin/v1/sites/${site.id}/funnels/1/steps`, { steps: [] }],
    ['GET', `/admin/v1/sites/${site.id}/funnels`],
    ['GET', `/admin/v1/sites/${site.id}/funnels/1`],
    ['DELETE', `/admin/v1/sites/${site.id}/funnels/1`],
    ['GET', `/admin/v1/sites/${site.id}/snippet`],
    ['GET', `/admin/v1/sites/${site.id}/recent-events`],
    ['POST', `/admin/v1/sites/${site.id}/alerts`, { type: 'spike', threshold: 1, url: 'https://x.example/', secret: 's' }],
    ['GET', `/admin/v1/sites/${site.id}/alerts`],
    ['POST', '/admin/v1/alerts/1/test'],
    ['GET', '/admin/v1/alerts/1/history'],
    ['PATCH', '/admin/v1/alerts/1', { threshold: 2 }],
    ['DELETE', '/admin/v1/alerts/1'],
    ['POST', `/admin/v1/sites/${site.id}/events/import`],
    ['POST', '/admin/v1/maintenance/run', {}],
    ['GET', '/admin/v1/nope'],
    ['GET', '/metrics'],
  ];
  const badAuth = [
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Bearer wrong',
    `Bearer ${server.adminToken}x`,
    `Bearer ${server.adminToken.slice(0, -1)}`,
    `Bearer ${server.adminToken.toUpperCase()}`,
    `bearer${server.adminToken}`,
    `Basic ${Buffer.from(`admin:${server.adminToken}`).toString('base64')}`,
    server.adminToken,
  ];
  for (const [method, path, body] of routes) {
    for (const authorization of badAuth) {
      const res = await raw(method, path, authorization, body);
      assertError(res, 401, 'UNAUTHORIZED', `${method} ${path} with ${JSON.stringify(authorization)}`);
    }
  }
  // Nothing was created by the refused calls.
  assert.equal((await server.admin('GET', `/orgs/${org.id}/sites`)).body.sites.length, 1);
  assert.equal((await server.admin('GET', `/orgs/${org.id}/keys`)).body.keys.length, 0);
  // And the right token works (sanity of the table); an unknown admin route is then a 404.
  assert.equal((await raw('GET', '/metrics', `Bearer ${server.adminToken}`)).status, 200);
  assertError(await raw('GET', '/admin/v1/nope', `Bearer ${server.adminToken}`), 404, 'NOT_FOUND', 'unknown admin route');
  assertError(await raw('DELETE', '/admin/v1/orgs', `Bearer ${server.adminToken}`), 404, 'NOT_FOUND', 'unknown method');
});

test('orgs: create, list; validation', async () => {
  const org = await newOrg('  Acme  ');
  assert.equal(typeof org.id, 'number');
  assert.equal(org.name, 'Acme');
  const list = await server.admin('GET', '/orgs');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.orgs.find((o: any) => o.id === org.id), { id: org.id, name: 'Acme' });
  for (const body of [{}, { name: '' }, { name: '   ' }, { name: 5 }, { name: 'x'.repeat(201) }, [], 'str']) {
    assertError(await server.admin('POST', '/orgs', body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  }
  for (const id of ['0', 'abc', '999999', '-1', '1.5']) {
    assertError(await server.admin('GET', `/orgs/${id}/sites`), 404, 'NOT_FOUND', id);
    assertError(await server.admin('POST', `/orgs/${id}/keys`, {}), 404, 'NOT_FOUND', id);
  }
});

test('sites: creation, defaults and domain/timezone validation', async () => {
  const org = await newOrg();
  const domain = uniqueDomain('Shop');
  const created = await server.admin('POST', `/orgs/${org.id}/sites`, { domain: `${domain.toUpperCase()}.`, name: 'Shop', timezone: 'America/New_York' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const site = created.body;
  assert.deepEqual(Object.keys(site).sort(), ['domain', 'honorGpc', 'id', 'name', 'rawDays', 'retentionMonths', 'status', 'timezone']);
  assert.equal(site.domain, domain.toLowerCase(), 'stored lowercase, without the trailing dot');
  assert.equal(site.honorGpc, true);
  assert.equal(site.retentionMonths, null);
  assert.equal(site.rawDays, 30, 'raw events are kept 30 days unless asked');
  assert.equal(site.status, 'active');
  assert.match(site.id, /^[A-Za-z0-9_-]+$/, 'URL-safe');
  assert.doesNotMatch(site.id, /^\d+$/, 'not numeric');
  const explicit = await newSite(org.id, { retentionMonths: 13, rawDays: 400, honorGpc: false });
  assert.equal(explicit.retentionMonths, 13);
  assert.equal(explicit.rawDays, 400);
  assert.equal(explicit.honorGpc, false);
  const patched = await server.admin('PATCH', `/sites/${explicit.id}`, { rawDays: 800 });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(patched.body.rawDays, 800);
  for (const rawDays of [29, 801, 90.5, '90', null]) {
    assertError(await server.admin('PATCH', `/sites/${explicit.id}`, { rawDays }), 400, 'INVALID_PARAMS', `rawDays ${rawDays}`);
  }

  const badDomains = [
    'https://example.com',
    'http://example.com/',
    'example.com:8080',
    'example.com/path',
    'example.com?q=1',
    'user@example.com',
    '//example.com',
    'exa mple.com',
    'exa_mple.com',
    '-example.com',
    'example-.com',
    'example..com',
    '*.example.com',
    'exämple.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(126)}com`,
    '',
    '   ',
  ];
  for (const bad of badDomains) {
    assertError(await server.admin('POST', `/orgs/${org.id}/sites`, { domain: bad, name: 'x', timezone: 'UTC' }), 400, 'INVALID_PARAMS', `domain ${bad}`);
  }
  for (const tz of ['Mars/Olympus', 'Europe/Pariss', 'Nowhere', '', 'x'.repeat(65), 'UTC/Extra']) {
    assertError(await server.admin('POST', `/orgs/${org.id}/sites`, { domain: uniqueDomain(), name: 'x', timezone: tz }), 400, 'INVALID_PARAMS', `timezone ${tz}`);
  }
  const wrong: Array<Record<string, unknown>> = [
    { name: 'x', timezone: 'UTC' },
    { domain: uniqueDomain(), timezone: 'UTC' },
    { domain: uniqueDomain(), name: 'x' },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', retentionMonths: 0 },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', retentionMonths: 1.5 },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', retentionMonths: '12' },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', honorGpc: 'yes' },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', rawDays: 29 },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', rawDays: 801 },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', status: 'archived' },
    { domain: uniqueDomain(), name: 'x', timezone: 'UTC', id: 'mine' },
  ];
  for (const body of wrong) assertError(await server.admin('POST', `/orgs/${org.id}/sites`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  assert.equal((await server.admin('GET', `/orgs/${org.id}/sites`)).body.sites.length, 2, 'no site was created by a refused call');
});

test("sites: a domain is unique among an organisation's active sites; another organisation's site may use it; archive frees it", async () => {
  const orgA = await newOrg('A');
  const orgB = await newOrg('B');
  const domain = uniqueDomain('dup');
  const first = await newSite(orgA.id, { domain });
  // The organisation's own domain, in any spelling, is refused and named.
  for (const d of [domain, domain.toUpperCase(), `${domain}.`]) {
    const twin = await server.admin('POST', `/orgs/${orgA.id}/sites`, { domain: d, name: 'x', timezone: 'UTC' });
    assertError(twin, 409, 'CONFLICT', d);
    assert.equal(twin.body.error.message, `an active site of this organisation already uses the domain ${domain}`);
  }
  // Another organisation learns nothing of it, and cannot claim it first: its own site is created,
  // collects from the domain under its own public id, and leaves the first site as it was.
  const other = await newSite(orgB.id, { domain });
  assert.deepEqual([other.domain, other.status], [domain, 'active']);
  assert.notEqual(other.id, first.id);
  assertError(await server.admin('POST', `/orgs/${orgB.id}/sites`, { domain, name: 'x', timezone: 'UTC' }), 409, 'CONFLICT', 'B twice');
  for (const site of [first, other]) assert.equal(await server.collect({ s: site.id, u: '/same-domain' }, browserHeaders(domain)), 202);
  await server.flush();
  for (const site of [first, other]) assert.deepEqual((await server.storedEvents(site.id)).map((e) => e.page), ['/same-domain'], site.id);
  // A subdomain is another domain.
  await newSite(orgA.id, { domain: `blog.${domain}` });

  const archived = await server.admin('PATCH', `/sites/${first.id}`, { status: 'archived' });
  assert.equal(archived.status, 200);
  assert.equal(archived.body.status, 'archived');
  const second = await newSite(orgA.id, { domain });
  assert.equal(second.domain, domain);

  // Archived sites are still listed, with their status.
  const listA = await server.admin('GET', `/orgs/${orgA.id}/sites`);
  assert.deepEqual(listA.body.sites.filter((s: any) => s.domain === domain).map((s: any) => [s.id, s.status]), [[first.id, 'archived'], [second.id, 'active']]);

  assertError(await server.admin('PATCH', `/sites/${first.id}`, { status: 'active' }), 409, 'CONFLICT', 're-activation');
  assert.equal((await server.admin('GET', `/sites/${first.id}`)).body.status, 'archived', 'unchanged after the 409');

  // Once the organisation's other site is archived, the first may come back (organisation B's site stays active).
  assert.equal((await server.admin('PATCH', `/sites/${second.id}`, { status: 'archived' })).status, 200);
  const back = await server.admin('PATCH', `/sites/${first.id}`, { status: 'active' });
  assert.equal(back.status, 200);
  assert.equal(back.body.status, 'active');
  assert.equal((await server.admin('GET', `/sites/${other.id}`)).body.status, 'active');
});

test('PATCH /sites/:id: each field, invalid values, unknown fields and unknown sites', async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  const changes: Array<[string, unknown]> = [
    ['name', 'Renamed'],
    ['timezone', 'Asia/Tokyo'],
    ['retentionMonths', 24],
    ['retentionMonths', null],
    ['honorGpc', false],
    ['honorGpc', true],
    ['status', 'archived'],
    ['status', 'active'],
  ];
  for (const [field, value] of changes) {
    const res = await server.admin('PATCH', `/sites/${site.id}`, { [field]: value });
    assert.equal(res.status, 200, `${field}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(res.body[field], value, field);
    assert.equal(res.body.id, site.id);
    assert.equal(res.body.domain, site.domain);
  }
  const listed = (await server.admin('GET', `/orgs/${org.id}/sites`)).body.sites[0];
  assert.deepEqual(listed, { ...site, name: 'Renamed', timezone: 'Asia/Tokyo', retentionMonths: null, rawDays: 30, honorGpc: true, status: 'active' });

  const invalid: Array<Record<string, unknown>> = [
    { name: '' },
    { name: 7 },
    { timezone: 'Mars/Olympus' },
    { timezone: '' },
    { retentionMonths: 0 },
    { retentionMonths: 1201 },
    { retentionMonths: 2.5 },
    { honorGpc: 'false' },
    { status: 'deleted' },
    { status: null },
    { domain: 'other.example' },
    { id: 'x' },
    { name: 'ok', extra: true },
  ];
  for (const body of invalid) assertError(await server.admin('PATCH', `/sites/${site.id}`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  assertError(await server.admin('PATCH', '/sites/doesNotExist', { name: 'x' }), 404, 'NOT_FOUND', 'unknown site');
  assert.deepEqual((await server.admin('GET', `/orgs/${org.id}/sites`)).body.sites[0], listed, 'unchanged by refused patches');
});

test('API keys: shown once, never listed, revocation idempotent and keeps the first instant', async () => {
  const org = await newOrg();
  const other = await newOrg();
  const created = await server.admin('POST', `/orgs/${org.id}/keys`, { name: 'ci' });
  assert.equal(created.status, 201);
  assert.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'id', 'key', 'name', 'scope']);
  assert.match(created.body.key, /^svc_[0-9A-Za-z]{32}$/);
  assert.equal(created.body.name, 'ci');
  assert.equal(typeof created.body.createdAt, 'number');
  const unnamed = await server.admin('POST', `/orgs/${org.id}/keys`);
  assert.equal(unnamed.status, 201);
  assert.match(unnamed.body.key, /^svc_[0-9A-Za-z]{32}$/);
  assert.notEqual(unnamed.body.key, created.body.key);

  const listed = await server.admin('GET', `/orgs/${org.id}/keys`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.keys.length, 2);
  for (const k of listed.body.keys) assert.deepEqual(Object.keys(k).sort(), ['createdAt', 'id', 'name', 'revokedAt', 'scope']);
  const text = JSON.stringify(listed.body);
  assert.ok(!text.includes(created.body.key) && !text.includes(unnamed.body.key) && !/svc_[0-9A-Za-z]{32}/.test(text), 'no secret in the list');
  assert.equal(listed.body.keys[0].revokedAt, null);
  assert.deepEqual((await server.admin('GET', `/orgs/${other.id}/keys`)).body.keys, [], 'keys are per org');

  const revoked = await server.admin('POST', `/keys/${created.body.id}/revoke`);
  assert.equal(revoked.status, 200);
  assert.deepEqual(Object.keys(revoked.body).sort(), ['id', 'revokedAt']);
  assert.equal(revoked.body.id, created.body.id);
  assert.equal(typeof revoked.body.revokedAt, 'number');
  await new Promise((r) => setTimeout(r, 5));
  const again = await server.admin('POST', `/keys/${created.body.id}/revoke`);
  assert.equal(again.status, 200);
  assert.equal(again.body.revokedAt, revoked.body.revokedAt, 'second revoke keeps the first instant');
  const after = (await server.admin('GET', `/orgs/${org.id}/keys`)).body.keys;
  assert.equal(after.find((k: any) => k.id === created.body.id).revokedAt, revoked.body.revokedAt);
  assert.equal(after.find((k: any) => k.id === unnamed.body.id).revokedAt, null);

  for (const id of ['999999', 'abc', '0']) assertError(await server.admin('POST', `/keys/${id}/revoke`), 404, 'NOT_FOUND', id);
  for (const body of [{ name: 5 }, { name: '' }, { key: 'svc_' + 'a'.repeat(32) }, { name: 'x', scope: 'all' }]) {
    assertError(await server.admin('POST', `/orgs/${org.id}/keys`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  }
});

test('relay keys: created with or without a name, distinct secrets, honoured by /api/e', async () => {
  const a = await server.admin('POST', '/relay-keys', { name: 'edge' });
  const b = await server.admin('POST', '/relay-keys');
  for (const res of [a, b]) {
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'key']);
    assert.equal(typeof res.body.id, 'number');
    assert.ok(typeof res.body.key === 'string' && res.body.key.length >= 32);
  }
  assert.notEqual(a.body.key, b.body.key);
  for (const body of [{ name: 3 }, { key: 'mine' }, { name: 'x', extra: 1 }]) {
    assertError(await server.admin('POST', '/relay-keys', body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  }
  // The key is honoured: a relayed country replaces the lookup.
  const site = await createSite(server);
  assert.equal(await server.collect({ s: site.siteId, u: '/relayed' }, browserHeaders(site.domain, { 'x-svc-relay-key': a.body.key, 'x-svc-client-country': 'NZ' })), 202);
  const deadline = Date.now() + 5000;
  let rows: Array<Record<string, any>> = [];
  while (rows.length === 0 && Date.now() < deadline) {
    rows = await server.storedEvents(site.siteId);
    if (rows.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.country, 'NZ');
});

test('goals: patterns validated by kind; delete answers 204 then 404', async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  const page = await server.admin('POST', `/sites/${site.id}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing/**' });
  assert.equal(page.status, 201);
  assert.deepEqual(Object.keys(page.body).sort(), ['goalId', 'kind', 'name', 'pattern']);
  assert.deepEqual({ ...page.body, goalId: 0 }, { goalId: 0, name: 'Pricing', kind: 'page', pattern: '/pricing/**' });
  assert.equal(typeof page.body.goalId, 'number');
  const event = await server.admin('POST', `/sites/${site.id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup_done' });
  assert.equal(event.status, 201);
  assert.equal(event.body.kind, 'event');
  // The same kind and pattern again, under any name, is the same goal: refused, naming the first.
  const twin = await server.admin('POST', `/sites/${site.id}/goals`, { name: 'Another name', kind: 'event', pattern: 'signup_done' });
  assertError(twin, 409, 'CONFLICT', 'identical goal');
  assert.equal(twin.body.error.message, `a goal with this kind and pattern already exists on this site (goal ${event.body.goalId})`);
  assert.equal((await server.admin('POST', `/sites/${(await newSite(org.id)).id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup_done' })).status, 201, 'another site');

  const invalid: Array<Record<string, unknown>> = [
    { name: 'x', kind: 'page', pattern: 'pricing' },
    { name: 'x', kind: 'page', pattern: 'https://example.com/pricing' },
    { name: 'x', kind: 'page', pattern: '' },
    { name: 'x', kind: 'event', pattern: 'Sign Up' },
    { name: 'x', kind: 'event', pattern: '/signup' },
    { name: 'x', kind: 'event', pattern: 'x'.repeat(65) },
    { name: 'x', kind: 'url', pattern: '/x' },
    { name: 'x', pattern: '/x' },
    { kind: 'page', pattern: '/x' },
    { name: 'x', kind: 'page', pattern: '/x', extra: 1 },
  ];
  for (const body of invalid) assertError(await server.admin('POST', `/sites/${site.id}/goals`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  assertError(await server.admin('POST', '/sites/nope/goals', { name: 'x', kind: 'page', pattern: '/x' }), 404, 'NOT_FOUND', 'unknown site');

  const del = await fetch(`${server.url}/admin/v1/sites/${site.id}/goals/${page.body.goalId}`, { method: 'DELETE', headers: { authorization: `Bearer ${server.adminToken}` } });
  assert.equal(del.status, 204);
  assert.equal(await del.text(), '');
  assertError(await server.admin('DELETE', `/sites/${site.id}/goals/${page.body.goalId}`), 404, 'NOT_FOUND', 'second delete');
  assertError(await server.admin('DELETE', `/sites/${site.id}/goals/999999`), 404, 'NOT_FOUND', 'unknown goal');
  // A goal of another site is not found through this one.
  const otherSite = await newSite(org.id);
  assertError(await server.admin('DELETE', `/sites/${otherSite.id}/goals/${event.body.goalId}`), 404, 'NOT_FOUND', 'goal of another site');
  const goals = await server.admin('GET', `/sites/${site.id}/goals`);
  assert.deepEqual(goals.body.goals.map((g: any) => g.goalId), [event.body.goalId]);
});

test(`goals: a site keeps at most ${GOALS_PER_SITE_MAX}, of the longest patterns; another site its own`, async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  // 512 characters and 16 wildcards each: the goals every read of the site matches in one statement.
  const longest = (i: number) => `/${String(i).padStart(3, '0')}${'.'.repeat(28).concat('**').repeat(16)}`.slice(0, PAGE_PATTERN_LIMITS.maxLength);
  for (let i = 0; i < GOALS_PER_SITE_MAX; i++) {
    const made = await server.admin('POST', `/sites/${site.id}/goals`, { name: `Goal ${i}`, kind: 'page', pattern: longest(i) });
    assert.equal(made.status, 201, JSON.stringify(made.body));
  }
  const refused = await server.admin('POST', `/sites/${site.id}/goals`, { name: 'One more', kind: 'event', pattern: 'more' });
  assert.deepEqual([refused.status, refused.body.error], [409, { code: 'CONFLICT', reason: 'GOALS_CONFLICT', message: `a site keeps at most ${GOALS_PER_SITE_MAX} goals: delete one first` }]);
  assert.equal((await server.admin('POST', `/sites/${(await newSite(org.id)).id}/goals`, { name: 'One more', kind: 'event', pattern: 'more' })).status, 201, 'another site');
  const key = (await server.admin('POST', `/orgs/${org.id}/keys`, { name: 'read' })).body.key;
  assert.equal((await fetch(`${server.url}/v1/sites/${site.id}/goals?period=7d`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
});

test('funnels: 2 to 8 steps, version increments on PUT steps', async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  const step = (i: number) => (i % 2 ? { kind: 'event', pattern: `step_${i}` } : { kind: 'page', pattern: `/step/${i}` });
  const steps = (n: number) => Array.from({ length: n }, (_, i) => step(i));

  for (const n of [2, 8]) {
    const res = await server.admin('POST', `/sites/${site.id}/funnels`, { name: `F${n}`, windowMinutes: 30, steps: steps(n) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'id', 'name', 'stepCount', 'version', 'windowMinutes']);
    assert.equal(res.body.stepCount, n);
    assert.equal(res.body.version, 1);
    assert.equal(res.body.windowMinutes, 30);
  }
  for (const n of [0, 1, 9]) {
    assertError(await server.admin('POST', `/sites/${site.id}/funnels`, { name: 'bad', windowMinutes: 30, steps: steps(n) }), 400, 'INVALID_PARAMS', `${n} steps`);
  }
  const invalid: Array<Record<string, unknown>> = [
    { name: 'f', windowMinutes: 0, steps: steps(2) },
    { name: 'f', windowMinutes: 1.5, steps: steps(2) },
    { name: 'f', windowMinutes: '30', steps: steps(2) },
    { name: 'f', steps: steps(2) },
    { windowMinutes: 30, steps: steps(2) },
    { name: 'f', windowMinutes: 30, steps: 'a,b' },
    { name: 'f', windowMinutes: 30, steps: [step(0), { kind: 'page', pattern: 'no-slash' }] },
    { name: 'f', windowMinutes: 30, steps: [step(0), { kind: 'event', pattern: 'Bad Name' }] },
    { name: 'f', windowMinutes: 30, steps: [step(0), { kind: 'page', pattern: '/x', extra: 1 }] },
    { name: 'f', windowMinutes: 30, steps: steps(2), version: 3 },
  ];
  for (const body of invalid) assertError(await server.admin('POST', `/sites/${site.id}/funnels`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));

  const created = await server.admin('POST', `/sites/${site.id}/funnels`, { name: 'Checkout', windowMinutes: 60, steps: steps(3) });
  const id = created.body.id;
  const v2 = await server.admin('PUT', `/sites/${site.id}/funnels/${id}/steps`, { steps: steps(4) });
  assert.equal(v2.status, 200);
  assert.deepEqual(v2.body, { ...created.body, stepCount: 4, version: 2 });
  const v3 = await server.admin('PUT', `/sites/${site.id}/funnels/${id}/steps`, { steps: steps(2) });
  assert.equal(v3.body.version, 3);
  assert.equal(v3.body.stepCount, 2);
  for (const body of [{ steps: steps(1) }, { steps: steps(9) }, { steps: steps(2), name: 'renamed' }, {}]) {
    assertError(await server.admin('PUT', `/sites/${site.id}/funnels/${id}/steps`, body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  }
  assertError(await server.admin('PUT', `/sites/${site.id}/funnels/999999/steps`, { steps: steps(2) }), 404, 'NOT_FOUND', 'unknown funnel');
  const otherSite = await newSite(org.id);
  assertError(await server.admin('PUT', `/sites/${otherSite.id}/funnels/${id}/steps`, { steps: steps(2) }), 404, 'NOT_FOUND', 'funnel of another site');
  // Refused calls did not bump the version; older versions stay readable.
  const internal = (await server.ctx.meta.getSite(site.id))!.internalId;
  const current = await server.ctx.meta.getFunnel(internal, id);
  assert.equal(current?.version, 3);
  assert.equal((await server.ctx.meta.getFunnel(internal, id, 2))?.steps.length, 4);
});

test('maintenance/run: unknown task 400, salts runs', async () => {
  for (const body of [{ tasks: ['nope'] }, { tasks: 'salts' }, { tasks: [1] }, { tasks: ['salts', 'nope'] }, { task: ['salts'] }]) {
    assertError(await server.admin('POST', '/maintenance/run', body), 400, 'INVALID_PARAMS', JSON.stringify(body));
  }
  const res = await server.admin('POST', '/maintenance/run', { tasks: ['salts'] });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { ran: ['salts'] });
  const all = await server.admin('POST', '/maintenance/run', {});
  assert.equal(all.status, 200);
  assert.ok(Array.isArray(all.body.ran) && all.body.ran.includes('salts'), JSON.stringify(all.body));
});

test('every maintenance task the server runs is named by the vocabulary, the CLI and each doc that lists them', async () => {
  const ran: string[] = server.ctx.maintenance.names();
  assert.deepEqual([...ran].sort(), [...MAINTENANCE_TASKS].sort());
  const operations = readFileSync('docs/operations.md', 'utf8');
  const adminApi = readFileSync('docs/admin-api.md', 'utf8');
  const cliUsage = /`svc maintenance run \[--task ([a-z|-]+) …\]`/.exec(readFileSync('docs/cli.md', 'utf8'))?.[1]?.split('|');
  for (const task of ran) {
    assert.match(operations, new RegExp(`\\| \`${task}\` \\|`), `operations.md's table has ${task}`);
    assert.ok(adminApi.includes(`\`${task}\``), `admin-api.md names ${task}`);
  }
  assert.deepEqual(cliUsage?.sort(), [...ran].sort(), "cli.md's usage of svc maintenance run");
});

test('import: report shape, line numbers, at most 100 errors', async () => {
  const site = await createSite(server);
  const now = Date.now();
  const good = (i: number) => ({ ts: now - 60_000 + i, ua: BROWSER_UA, u: `/imported/${i}` });
  const lines: Array<Record<string, unknown> | string> = [good(1), 'not json', { ts: now, ua: BROWSER_UA, u: 'relative' }, good(2)];
  for (let i = 0; i < 150; i++) lines.push(i % 2 ? { ts: 'yesterday', ua: BROWSER_UA, u: '/x' } : { ts: now, ua: 'Googlebot/2.1', u: '/bot' });
  lines.push(good(3));
  const res = await importEvents(server, site.siteId, lines);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['accepted', 'errors', 'rejected']);
  assert.equal(res.body.accepted, 3);
  assert.equal(res.body.rejected, 152);
  assert.equal(res.body.errors.length, 100);
  assert.deepEqual(res.body.errors[0], { line: 2, reason: 'bad_json' });
  assert.equal(res.body.errors[1]!.line, 3);
  assert.match(res.body.errors[1]!.reason, /^bad_shape/);
  assert.equal(res.body.errors[2]!.line, 5);
  assert.match(res.body.errors[2]!.reason, /^bot_ua/);
  assert.match(res.body.errors[3]!.reason, /^bad_shape: ts/);
  assert.deepEqual(res.body.errors.map((e: any) => e.line), [2, 3, ...Array.from({ length: 98 }, (_, i) => 5 + i)]);
  const stored = await server.storedEvents(site.siteId);
  assert.deepEqual(stored.map((r) => r.page), ['/imported/1', '/imported/2', '/imported/3']);

  const empty = await importEvents(server, site.siteId, []);
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { accepted: 0, rejected: 0, errors: [] });
  const missing = await fetch(`${server.url}/admin/v1/sites/nope/events/import`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` }, body: '{}\n' });
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as any).error.code, 'NOT_FOUND');
});

test('unknown fields are refused on every body-taking route', async () => {
  const org = await newOrg();
  const site = await newSite(org.id);
  const funnel = await server.admin('POST', `/sites/${site.id}/funnels`, { name: 'f', windowMinutes: 5, steps: [{ kind: 'page', pattern: '/a' }, { kind: 'page', pattern: '/b' }] });
  const table: Array<[string, string, Record<string, unknown>]> = [
    ['POST', '/orgs', { name: 'x', plan: 'pro' }],
    ['POST', `/orgs/${org.id}/sites`, { domain: uniqueDomain(), name: 'x', timezone: 'UTC', tz: 'UTC' }],
    ['PATCH', `/sites/${site.id}`, { nmae: 'typo' }],
    ['POST', `/orgs/${org.id}/keys`, { name: 'x', expiresAt: 1 }],
    ['POST', '/relay-keys', { name: 'x', ip: '1.2.3.4' }],
    ['POST', `/sites/${site.id}/goals`, { name: 'x', kind: 'page', pattern: '/x', value: 3 }],
    ['POST', `/sites/${site.id}/funnels`, { name: 'x', windowMinutes: 5, steps: [{ kind: 'page', pattern: '/a' }, { kind: 'page', pattern: '/b' }], window: 5 }],
    ['PUT', `/sites/${site.id}/funnels/${funnel.body.id}/steps`, { steps: [{ kind: 'page', pattern: '/a' }, { kind: 'page', pattern: '/b' }], windowMinutes: 9 }],
    ['POST', '/maintenance/run', { tasks: ['salts'], force: true }],
  ];
  for (const [method, path, body] of table) {
    const res = await server.admin(method, path, body);
    assertError(res, 400, 'INVALID_PARAMS', `${method} ${path}`);
    const extra = Object.keys(body).at(-1)!;
    assert.ok(res.body.error.message.includes(extra), `${method} ${path}: message names ${extra}: ${res.body.error.message}`);
  }
  const orgs = (await server.admin('GET', '/orgs')).body.orgs;
  assert.ok(!orgs.some((o: any) => o.name === 'x'), 'no org created by a refused call');
});

test('/metrics: Prometheus text with accepted and dropped counters after traffic', async () => {
  const site = await createSite(server);
  assert.equal(await server.collect({ s: site.siteId, u: '/metrics-ok' }, browserHeaders(site.domain)), 202);
  assert.equal(await server.collect('{not json', browserHeaders(site.domain)), 202);
  assert.equal(await server.collect({ s: site.siteId, u: '/gpc' }, browserHeaders(site.domain, { 'sec-gpc': '1' })), 202);
  await server.flush();
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  const text = await res.text();
  const value = (line: RegExp) => {
    const m = text.split('\n').find((l) => line.test(l));
    return m === undefined ? undefined : Number(m.split(' ').at(-1));
  };
  assert.ok((value(/^svc_events_accepted_total\{source="collect"\} /) ?? 0) >= 1, text);
  assert.ok((value(/^svc_events_dropped_total\{reason="bad_json",source="collect"\} /) ?? 0) >= 1, text);
  assert.ok((value(/^svc_events_dropped_total\{reason="gpc",source="collect"\} /) ?? 0) >= 1, text);
  assert.match(text, /# TYPE svc_events_accepted_total counter/);
  assert.match(text, /# TYPE svc_events_dropped_total counter/);
  assert.match(text, /^svc_buffer_events /m);
  assert.match(text, /^svc_buffer_(last_)?flush/m);
  // Counters without labels have a sample from the start, so a rule like `== 0` can read them.
  for (const name of ['svc_pipeline_errors_total', 'svc_buffer_flush_errors_total', 'svc_collect_aborted_total', 'svc_buffer_overflow_total']) {
    assert.equal(value(new RegExp(`^${name} `)), 0, `${name} 0 before any increment`);
  }
  // A labelled counter shows only the label sets it has counted, never an unlabelled sample.
  assert.doesNotMatch(text, /^svc_events_dropped_total /m);
  assert.doesNotMatch(text, /^svc_webhook_attempts_total /m);
});

test('time zones are stored as given, in their usual letter case', async () => {
  const server = await startTestServer();
  try {
    const org = await server.admin('POST', '/orgs', { name: 'tz' });
    const res = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: 'tz.example', name: 'tz', timezone: 'europe/paris' });
    assert.equal(res.status, 201);
    assert.equal(res.body.timezone, 'Europe/Paris');
    // Current names are kept, never swapped for the legacy aliases ICU resolves them to.
    for (const [i, zone] of ['Asia/Kathmandu', 'Asia/Kolkata', 'Europe/Kyiv', 'UTC'].entries()) {
      const site = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: `tz${i}.example`, name: 'tz', timezone: zone });
      assert.equal(site.body.timezone, zone);
    }
  } finally {
    await server.stop();
  }
});
