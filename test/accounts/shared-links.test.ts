// Shared links through the admin routes and /app/v1 on a real listening server and a manual clock:
// the link answered once, opened (with its password, limited as sign-in) into an access token that
// reads the site's statistics under the link's locked filters (and, without them, its funnels'
// steps) and nothing else, its last use, its expiry and revocation (404), filters the read API refuses, the page's headers (no Referer,
// frame-ancestors from the embed domains) and a log without the token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ManualClock } from '../../src/core/clock.js';
import { OTHER_PAGE_KEY } from '../../src/core/vocabulary.js';
import { processLogger } from '../../src/http/request-log.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);

function events() {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 10; i++) {
    const ts = NOW - (i + 1) * 86_400_000;
    out.push({ ts, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/', country: 'DE' });
    if (i < 4) out.push({ ts: ts + 60_000, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/pricing', country: 'DE' });
  }
  return out;
}

describe('shared links', () => {
  const clock = new ManualClock(NOW);
  const logLines: string[] = [];
  let server: TestServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let key: string;
  let admin: AppClient;
  let viewer: AppClient;

  before(async () => {
    const out = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1' }, logger: processLogger('info', 'json', out) });
    site = await createSite(server);
    other = await createSite(server);
    key = await createApiKey(server, site.orgId);
    assert.equal((await importEvents(server, site.siteId, events())).body.rejected, 0);
    await importEvents(server, other.siteId, events());
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    admin = (await signedInUser(server, 'share-admin@example.com', [{ orgId: site.orgId, role: 'admin' }])).client;
    viewer = (await signedInUser(server, 'share-viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const create = (body: Record<string, unknown>, client = admin) => client.request('POST', `/app/v1/manage/sites/${site.siteId}/shared-links`, body);
  const tokenOf = (url: string) => new URL(url).pathname.split('/')[2]!;
  const open = (token: string, password?: string, address = '203.0.113.5') =>
    new AppClient(server).request('POST', '/app/v1/share', { token, ...(password === undefined ? {} : { password }) }, { 'x-forwarded-for': address });
  const read = async (access: string, path: string) => {
    const res = await fetch(`${server.url}/app/v1${path}`, { headers: { 'x-share-access': access } });
    return { status: res.status, text: await res.text() };
  };
  const v1 = async (path: string) => (await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } })).text();

  test('a link is answered once and reads the same figures as the read API, nothing else', async () => {
    const created = await create({});
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.url, new RegExp(`^${server.url}/share/[\\w-]{43}$`));
    assert.equal(created.body.embedUrl, `${created.body.url}?embed=1`);
    assert.deepEqual({ ...created.body, url: undefined, embedUrl: undefined, id: undefined, createdAt: undefined }, {
      url: undefined,
      embedUrl: undefined,
      id: undefined,
      createdAt: undefined,
      filters: [],
      expiresAt: null,
      hasPassword: false,
      embedDomains: [],
      lastUsedAt: null,
    });
    const listed = await admin.request('GET', `/app/v1/manage/sites/${site.siteId}/shared-links`);
    assert.equal(JSON.stringify(listed.body).includes(tokenOf(created.body.url)), false, 'the list never shows the link');

    const opened = await open(tokenOf(created.body.url));
    assert.equal(opened.status, 200, opened.text);
    assert.equal(opened.headers.get('set-cookie'), null, 'a shared link sets no cookie');
    assert.deepEqual(opened.body.site, { id: site.siteId, name: opened.body.site.name, domain: site.domain, timezone: 'UTC', rawDays: 30 });
    const access: string = opened.body.access;
    for (const path of ['/stats?period=30d', '/timeseries?period=7d', '/breakdown?period=30d&dimension=page', '/goals?period=30d', '/realtime']) {
      const shared = await read(access, `/sites/${site.siteId}${path}`);
      assert.equal(shared.status, 200, `${path}: ${shared.text}`);
      if (!path.startsWith('/realtime') && !path.startsWith('/goals')) assert.equal(shared.text, await v1(`/sites/${site.siteId}${path}`), path);
    }
    assert.equal((await read(access, `/sites/${other.siteId}/stats?period=30d`)).status, 404, 'no other site');
    for (const path of ['/sites', `/manage/sites/${site.siteId}`, '/session', `/sites/${site.siteId}/installation`]) {
      const refused = await read(access, path);
      assert.equal(refused.status, 403, `${path}: ${refused.text}`);
      assert.match(refused.text, /a shared link reads the statistics of its own site only/);
    }
    assert.equal((await read('x'.repeat(43), `/sites/${site.siteId}/stats`)).status, 404);
    const used = (await admin.request('GET', `/app/v1/manage/sites/${site.siteId}/shared-links`)).body.sharedLinks.find((l: { id: number }) => l.id === created.body.id);
    assert.equal(used.lastUsedAt, NOW, 'the last use is shown');

    assert.equal((await admin.request('DELETE', `/app/v1/manage/sites/${site.siteId}/shared-links/${created.body.id}`)).status, 204);
    assert.equal((await read(access, `/sites/${site.siteId}/stats?period=30d`)).status, 404, 'revoked: its grants end at once');
    assert.equal((await open(tokenOf(created.body.url))).status, 404);
    assert.equal((await fetch(created.body.url)).status, 404, 'its page answers 404');
    assert.equal((await admin.request('DELETE', `/app/v1/manage/sites/${site.siteId}/shared-links/${created.body.id}`)).status, 404);
  });

  test('locked filters apply to every read and cannot be removed; endpoints without filters are not shared', async () => {
    const created = await create({ filters: ['page:/pricing'] });
    assert.equal(created.status, 201, created.text);
    const { access } = (await open(tokenOf(created.body.url))).body;
    const locked = await read(access, `/sites/${site.siteId}/stats?period=30d`);
    assert.equal(locked.text, await v1(`/sites/${site.siteId}/stats?period=30d&filter=page:/pricing`));
    const overridden = await read(access, `/sites/${site.siteId}/stats?period=30d&filter=page:/`);
    assert.equal(overridden.text, locked.text, "a request's filter on a locked dimension gives way");
    const added = await read(access, `/sites/${site.siteId}/breakdown?period=30d&dimension=country&filter=country:DE`);
    assert.equal(added.text, await v1(`/sites/${site.siteId}/breakdown?period=30d&dimension=country&filter=country:DE&filter=page:/pricing`));
    // The sessions that saw /pricing, as the read API's filter reads them, with / (outside the lock) folded.
    const journeys = await read(access, `/sites/${site.siteId}/journeys?period=30d&steps=2`);
    const unlocked = await v1(`/sites/${site.siteId}/journeys?period=30d&steps=2&filter=page:/pricing`);
    assert.deepEqual(JSON.parse(unlocked).rows[0].path, ['/', '/pricing']);
    assert.equal(journeys.text, unlocked.replace('"/","/pricing"', `"${OTHER_PAGE_KEY}","/pricing"`));
    assert.equal(JSON.parse(journeys.text).totalSessions, 4);
    for (const path of ['/goals?period=30d', '/realtime', '/funnels']) {
      const refused = await read(access, `/sites/${site.siteId}${path}`);
      assert.equal(refused.status, 403, path);
      assert.match(refused.text, /locked to (filters|pages)/);
    }
  });

  test("a funnel's steps read through a link without locked filters, not through a locked one", async () => {
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'To pricing', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }] });
    assert.equal(funnel.status, 201, JSON.stringify(funnel.body));
    const versions = `/sites/${site.siteId}/funnels/${funnel.body.id}/versions`;
    const unlocked = (await open(tokenOf((await create({})).body.url))).body.access;
    const shared = await read(unlocked, versions);
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(JSON.parse(shared.text), (await viewer.request('GET', `/app/v1${versions}`)).body, 'the steps a member reads');
    assert.equal((await read(unlocked, `/sites/${other.siteId}/funnels/${funnel.body.id}/versions`)).status, 404, 'no other site');
    const locked = (await open(tokenOf((await create({ filters: ['country:DE'] })).body.url))).body.access;
    const refused = await read(locked, versions);
    assert.equal(refused.status, 403);
    assert.match(refused.text, /locked to filters: funnels takes no filters/);
    assert.equal((await read('y'.repeat(43), versions)).status, 404);
  });

  test('a filter the read API refuses is refused at creation, with its error', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [['planet:mars'], /unknown filter dimension/],
      [['page:'], /filter page has an empty value/],
      [['page:/a', 'page:/b'], /filter page is given twice/],
      ['page:/a', /filters must be an array/],
      // A locked link shares no goals: it is not locked to a goal filter either.
      [['goal:1'], /a shared link is not locked to a goal filter/],
    ];
    for (const [filters, message] of cases) {
      const res = await create({ filters });
      assert.equal(res.status, 400, JSON.stringify(filters));
      assert.match(res.body.error.message, message);
    }
    assert.equal((await create({ expiresOn: '2026-03-19' })).status, 400, 'a past day');
    assert.equal((await create({ embedDomains: ['https://x.example/path'] })).body.error.code, 'INVALID_PARAMS');
    assert.equal((await create({ password: 'short' })).body.error.code, 'INVALID_PARAMS');
    assert.equal((await create({}, viewer)).status, 403, 'viewers do not share');
  });

  test('a password is asked and limited as sign-in; an expiry day ends the link', async () => {
    const created = await create({ password: 'a shared secret here', expiresOn: '2026-03-21' });
    assert.equal(created.body.hasPassword, true);
    assert.equal(created.body.expiresAt, Date.UTC(2026, 2, 22));
    const token = tokenOf(created.body.url);
    assert.deepEqual((await open(token)).body, { passwordRequired: true });
    const wrong = await open(token, 'not the password');
    assert.deepEqual(wrong.body, { error: { code: 'UNAUTHORIZED', reason: 'WRONG_SHARE_PASSWORD_UNAUTHORIZED', message: 'Wrong password.' } });
    for (let i = 1; i < 10; i++) assert.equal((await open(token, `wrong ${i} password`, `198.51.100.${i}`)).status, 401);
    const locked = await open(token, 'a shared secret here', '198.51.100.200');
    assert.equal(locked.status, 429);
    assert.equal(locked.body.error.message, 'Too many failed attempts. Try again in 15 minutes.');
    clock.advance(15 * 60_000 + 1);
    const right = await open(token, 'a shared secret here');
    assert.equal(right.status, 200, right.text);
    assert.equal((await read(right.body.access, `/sites/${site.siteId}/stats?period=7d`)).status, 200);
    clock.advance(12 * 3_600_000);
    assert.equal((await read(right.body.access, `/sites/${site.siteId}/stats?period=7d`)).status, 404, 'an opening reads for 12 hours');
    clock.set(Date.UTC(2026, 2, 22) - 60_000);
    const late = await open(token, 'a shared secret here');
    assert.equal(late.body.expiresAt, Date.UTC(2026, 2, 22), 'an opening ends with the link');
    assert.equal((await read(late.body.access, `/sites/${site.siteId}/stats?period=7d`)).status, 200);
    clock.set(Date.UTC(2026, 2, 22));
    assert.equal((await read(late.body.access, `/sites/${site.siteId}/stats?period=7d`)).status, 404, 'expired');
    assert.equal((await open(token, 'a shared secret here')).status, 404);
    clock.set(NOW);
  });

  test("an opening counts once against its client's sign-in rate limit (20 a minute), its password check included", async () => {
    const token = tokenOf((await create({ password: 'a shared secret here' })).body.url);
    const address = '203.0.113.77';
    for (let i = 1; i <= 11; i++) assert.equal((await open(token, 'a shared secret here', address)).status, 200, `opening ${i} with the password`);
    for (let i = 12; i <= 20; i++) assert.equal((await open(token, undefined, address)).status, 202, `opening ${i} without it`);
    const refused = await open(token, 'a shared secret here', address);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error.message, 'Too many sign-in attempts from this address. Try again in a minute.');
    assert.equal((await open('z'.repeat(43), undefined, address)).status, 429, 'an unknown link past the limit is refused before it is looked up');
    assert.equal((await open(token, 'a shared secret here', '203.0.113.78')).status, 200, 'another client has its own limit');
  });

  test('the page sends no Referer, is framed only on the embed domains, and the token stays out of the log', async () => {
    const created = await create({ embedDomains: ['Client.Example', 'agency.example'] });
    const page = await fetch(created.body.url);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    const embed = await fetch(created.body.embedUrl);
    assert.match(embed.headers.get('content-security-policy')!, /frame-ancestors https:\/\/client\.example https:\/\/agency\.example(;|$)/);
    const plain = await create({});
    const plainEmbed = await fetch(plain.body.embedUrl);
    assert.match(plainEmbed.headers.get('content-security-policy')!, /frame-ancestors 'none'/, 'no domains listed: framed nowhere');
    assert.equal((await fetch(`${server.url}/share/${'a'.repeat(43)}`)).status, 404);

    const token = tokenOf(created.body.url);
    await open(token);
    const log = logLines.join('');
    assert.match(log, /\/share\/\[secret\]/);
    assert.equal(log.includes(token), false, 'the token is not in the log');
  });

  // Runs last: the goal it adds is the site's from then on.
  test('a link locked to values other than pages shares the goals under its locks, and goal filters', async () => {
    const goal = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' });
    assert.equal(goal.status, 201, JSON.stringify(goal.body));
    const member = async (path: string) => JSON.stringify((await viewer.request('GET', `/app/v1/sites/${site.siteId}${path}`)).body);
    for (const country of ['DE', 'US']) {
      const access = (await open(tokenOf((await create({ filters: [`country:${country}`] })).body.url))).body.access;
      const goals = await read(access, `/sites/${site.siteId}/goals?period=30d`);
      assert.equal(goals.status, 200, goals.text);
      assert.equal(goals.text, await member(`/goals?period=30d&filter=country:${country}`), `the goals a member reads under country:${country}`);
      const converted = JSON.parse(goals.text).goals[0].uniqueConversions;
      assert.equal(converted, country === 'DE' ? 4 : 0, 'the four visitors who saw /pricing were in Germany');
      const filtered = await read(access, `/sites/${site.siteId}/stats?period=30d&raw=clip&filter=goal:${goal.body.goalId}`);
      assert.equal(filtered.status, 200, filtered.text);
      assert.equal(filtered.text, await member(`/stats?period=30d&raw=clip&filter=goal:${goal.body.goalId}&filter=country:${country}`));
    }
  });
});

describe("shared links' reads are counted per client before the access token is looked up", () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let siteId: string;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1', SVC_APP_RATE_LIMIT: '10/60s' } });
    siteId = (await createSite(server)).siteId;
  });
  after(() => server.stop());

  test('unknown access tokens cost no more than a known one: past the limit, a client is refused without a lookup', async () => {
    const created = await server.admin('POST', `/sites/${siteId}/shared-links`, {});
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const opened = await new AppClient(server).request('POST', '/app/v1/share', { token: new URL(created.body.url).pathname.split('/')[2] });
    const access: string = opened.body.access;
    const read = async (token: string, address: string) =>
      (await fetch(`${server.url}/app/v1/sites/${siteId}/stats?period=7d`, { headers: { 'x-share-access': token, 'x-forwarded-for': address } })).status;
    // The real store, its grant look-ups counted.
    const store = server.ctx.accounts.store;
    const lookUp = store.sharedLinkByGrant.bind(store);
    let lookups = 0;
    store.sharedLinkByGrant = (grantId, now) => {
      lookups++;
      return lookUp(grantId, now);
    };
    try {
      const unknown = (i: number) => String(i).padStart(43, 'u');
      for (let i = 1; i <= 10; i++) assert.equal(await read(unknown(i), '198.51.100.10'), 404, `unknown token ${i}`);
      assert.equal(lookups, 10);
      assert.equal(await read(unknown(11), '198.51.100.10'), 429, 'the 11th unknown token of the minute');
      assert.equal(await read(access, '198.51.100.10'), 429, 'and a known one, from that client');
      assert.equal(lookups, 10, 'refused before any lookup');

      for (let i = 1; i <= 10; i++) assert.equal(await read(access, '198.51.100.11'), 200, `another client's known token, read ${i}`);
      assert.equal(await read(access, '198.51.100.11'), 429, 'its 11th read of the minute');
      assert.equal(lookups, 20);
      clock.advance(60_000);
      assert.equal(await read(unknown(12), '198.51.100.10'), 404, 'a minute later');
    } finally {
      store.sharedLinkByGrant = lookUp;
    }
  });
});
