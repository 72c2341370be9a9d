// First-run setup, sign-in, sign-out, the lockout and the session cookie, against a real listening
// server on a manual clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { AppClient } from '../helpers/app-client.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'a long enough secret';
const WRONG = { error: { code: 'UNAUTHORIZED', reason: 'WRONG_PASSWORD_UNAUTHORIZED', message: 'Wrong email or password.' } };
const LOCKED = { error: { code: 'RATE_LIMITED', reason: 'LOCKED_OUT_RATE_LIMITED', message: 'Too many failed attempts. Try again in 15 minutes.' } };

describe('setup and sign-in', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let server: TestServer;
  before(async () => {
    // 127.0.0.1 is declared a trusted proxy: X-Forwarded-For then names the client address.
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });
  });
  after(() => server.stop());

  const setup = (client: AppClient, body: Record<string, unknown>) =>
    client.request('POST', '/app/v1/setup', { setupToken: ADMIN_TOKEN, organisation: 'Acme', ...body });

  test('setup creates the first owner once, then answers 404', async () => {
    const client = new AppClient(server);
    assert.deepEqual((await client.request('GET', '/app/v1/setup')).body, { needed: true });
    const wrongToken = await setup(client, { setupToken: ADMIN_TOKEN + 'x', email: 'ana@example.com', password: PASSWORD });
    assert.equal(wrongToken.status, 401);
    assert.equal((await setup(client, { email: 'not-an-email', password: PASSWORD })).body.error.code, 'INVALID_PARAMS');
    const short = await setup(client, { email: 'ana@example.com', password: 'short' });
    assert.deepEqual(short.body, { error: { code: 'INVALID_PARAMS', reason: 'TOO_SHORT_INVALID_PARAMS', message: 'password must be at least 10 characters' } });
    assert.equal(client.cookie, undefined);

    const created = await setup(client, { email: 'Ana@Example.com', password: PASSWORD, name: 'Ana' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    assert.deepEqual(created.body.user, { id: created.body.user.id, email: 'Ana@Example.com', name: 'Ana', emailConfirmed: false, language: null });
    assert.deepEqual(created.body.memberships, [{ orgId: created.body.memberships[0].orgId, orgName: 'Acme', role: 'owner' }]);
    assert.match(created.body.csrfToken, /^[\w-]{43}$/);
    assert.ok(client.cookie);

    const me = await client.request('GET', '/app/v1/session');
    assert.deepEqual(me.body, created.body);
    const asked = await client.request('GET', '/app/v1/setup');
    assert.deepEqual([asked.status, asked.body.error.reason], [404, 'SETUP_DONE_NOT_FOUND'], 'after set-up, GET answers 404 as POST does');
    const again = await setup(new AppClient(server), { email: 'bob@example.com', password: PASSWORD });
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'NOT_FOUND');
    assert.equal((await server.ctx.accounts.listUsers()).length, 1);
  });

  test('the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over plain HTTP; no HSTS without an https public URL', async () => {
    const res = await new AppClient(server).signIn('ana@example.com', PASSWORD);
    assert.equal(res.headers.get('strict-transport-security'), null);
    for (const path of ['/login', '/js/t.js']) {
      const page = await fetch(server.url + path);
      await page.arrayBuffer();
      assert.equal(page.headers.get('strict-transport-security'), null, path);
    }
    assert.equal(res.status, 200);
    const cookie = res.headers.get('set-cookie')!;
    assert.match(cookie, /^svc_session=[\w-]{43}; /);
    const attributes = cookie.split('; ').slice(1);
    assert.ok(attributes.includes('HttpOnly') && attributes.includes('SameSite=Lax') && attributes.includes('Path=/'), cookie);
    assert.ok(!attributes.includes('Secure'), cookie);
    assert.ok(attributes.includes('Max-Age=7776000'), `the cookie lives the session's 90 days: ${cookie}`);
  });

  test('X-Forwarded-Proto: https from the declared proxy makes the cookie Secure and the own origin https', async () => {
    const https = new URL(server.url);
    https.protocol = 'https:';
    const client = new AppClient(server);
    const res = await client.signIn('ana@example.com', PASSWORD, { 'x-forwarded-proto': 'https', origin: https.origin });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('set-cookie')!, /; Secure$/);
    const out = await client.request('DELETE', '/app/v1/session', undefined, { 'x-forwarded-proto': 'https', origin: https.origin });
    assert.equal(out.status, 204, out.text);
    assert.match(out.headers.get('set-cookie')!, /Max-Age=0; Secure$/);
    const plain = await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-proto': 'http' });
    assert.doesNotMatch(plain.headers.get('set-cookie')!, /Secure/);
  });

  test('email is matched in any letter case; a wrong password and an unknown email get the same answer', async () => {
    assert.equal((await new AppClient(server).signIn('ANA@example.COM', PASSWORD)).status, 200);
    const wrong = await new AppClient(server).signIn('ana@example.com', 'not the password', { 'x-forwarded-for': '198.51.100.1' });
    const unknown = await new AppClient(server).signIn('nobody@example.com', 'not the password', { 'x-forwarded-for': '198.51.100.1' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.deepEqual(wrong.body, WRONG);
    assert.equal(unknown.status, 401);
    assert.equal(unknown.text, wrong.text);
  });

  test('an unknown email takes as long to refuse as a wrong password', async () => {
    const median = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await new AppClient(server).signIn(email, 'not the password', { 'x-forwarded-for': `198.51.100.${60 + times.length}` });
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const [known, unknown] = [await median('ana@example.com'), await median('nobody-else@example.com')];
    // Both spend one scrypt verification; without the dummy hash an unknown email answers in ~1 ms.
    assert.ok(unknown > known * 0.5 && unknown < known * 2, `wrong password ${known.toFixed(0)} ms, unknown email ${unknown.toFixed(0)} ms`);
  });

  test('sign-out deletes the session: the old cookie gets 401', async () => {
    const client = new AppClient(server);
    await client.signIn('ana@example.com', PASSWORD);
    const cookie = client.cookie;
    const withoutToken = await client.request('DELETE', '/app/v1/session', undefined, { 'x-csrf-token': 'wrong' });
    assert.equal(withoutToken.status, 403);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 200);
    const out = await client.request('DELETE', '/app/v1/session');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie')!, /^svc_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    client.cookie = cookie;
    const stale = await client.request('GET', '/app/v1/session');
    assert.equal(stale.status, 401);
    assert.equal(stale.body.error.code, 'UNAUTHORIZED');
  });

  test('a session ends after 30 days without use, not before', async () => {
    const client = new AppClient(server);
    await client.signIn('ana@example.com', PASSWORD);
    clock.advance(29 * 86_400_000);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 200);
    clock.advance(29 * 86_400_000);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 200, 'each use restarts the 30 days');
    clock.advance(30 * 86_400_000);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 401);
  });

  test('a session ends 90 days after sign-in, however recently it was used', async () => {
    const client = new AppClient(server);
    await client.signIn('ana@example.com', PASSWORD);
    for (let i = 0; i < 3; i++) {
      clock.advance(29 * 86_400_000);
      assert.equal((await client.request('GET', '/app/v1/session')).status, 200, `day ${29 * (i + 1)}`);
    }
    clock.advance(2 * 86_400_000 + 23 * 3_600_000);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 200, '89 days and 23 hours after sign-in');
    clock.advance(3_600_000);
    assert.equal((await client.request('GET', '/app/v1/session')).status, 401, '90 days after sign-in, used an hour ago');
    assert.equal((await client.signIn('ana@example.com', PASSWORD)).status, 200, 'signing in again starts a new session');
    assert.equal((await client.request('GET', '/app/v1/session')).status, 200);
  });

  test('10 failures for one email lock it for 15 minutes, from every address', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await new AppClient(server).signIn('ana@example.com', `wrong ${i}`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      assert.deepEqual(res.body, WRONG, `attempt ${i + 1}`);
    }
    const locked = await new AppClient(server).signIn('ANA@example.com', PASSWORD, { 'x-forwarded-for': '203.0.113.99' });
    assert.equal(locked.status, 429);
    assert.deepEqual(locked.body, LOCKED);
    assert.equal(locked.headers.get('set-cookie'), null);
    clock.advance(15 * 60_000 - 1000);
    assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '203.0.113.99' })).status, 429);
    clock.advance(1000);
    assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '203.0.113.99' })).status, 200);
  });

  test('10 failures from one address lock it for 15 minutes, for every email', async () => {
    const address = { 'x-forwarded-for': '192.0.2.7' };
    for (let i = 0; i < 10; i++) {
      assert.equal((await new AppClient(server).signIn(`guess${i}@example.com`, 'wrong password', address)).status, 401);
    }
    assert.deepEqual((await new AppClient(server).signIn('ana@example.com', PASSWORD, address)).body, LOCKED);
    assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '192.0.2.8' })).status, 200);
    clock.advance(15 * 60_000);
    assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, address)).status, 200);
  });

  test('failures older than 15 minutes do not count', async () => {
    const address = { 'x-forwarded-for': '192.0.2.50' };
    for (let i = 0; i < 9; i++) await new AppClient(server).signIn('ana@example.com', 'wrong password', address);
    clock.advance(15 * 60_000 + 1);
    assert.equal((await new AppClient(server).signIn('ana@example.com', 'wrong password', address)).status, 401);
    assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, address)).status, 200);
  });

  test('a foreign Origin cannot sign in or set up', async () => {
    const res = await new AppClient(server).signIn('ana@example.com', PASSWORD, { origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.headers.get('set-cookie'), null);
  });
});

describe('behind an HTTPS public URL', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { SVC_PUBLIC_URL: 'https://stats.example.com' } });
  });
  after(() => server.stop());

  test('the cookie is Secure, and the public URL is the only own Origin', async () => {
    const setupBody = { setupToken: ADMIN_TOKEN, organisation: 'Acme', email: 'ana@example.com', password: PASSWORD };
    const fromLocal = await new AppClient(server).request('POST', '/app/v1/setup', setupBody);
    assert.equal(fromLocal.status, 403, 'the local address is not the public origin');
    const client = new AppClient(server);
    const res = await client.request('POST', '/app/v1/setup', setupBody, { origin: 'https://stats.example.com' });
    assert.equal(res.status, 201, res.text);
    assert.match(res.headers.get('set-cookie')!, /; Secure$/);
    const out = await client.request('DELETE', '/app/v1/session', undefined, { origin: 'https://stats.example.com' });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie')!, /Max-Age=0; Secure$/);
  });

  test('every page, asset and API answer carries Strict-Transport-Security; /api/e does not', async () => {
    for (const path of ['/login', '/', '/app/v1/session', '/js/t.js', '/healthz', '/admin/v1/orgs', '/no-such-page']) {
      const res = await fetch(server.url + path, { redirect: 'manual' });
      await res.arrayBuffer();
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', path);
    }
    const collect = await fetch(server.url + '/api/e', { method: 'POST', body: '{}' });
    assert.equal(collect.status, 202);
    assert.equal(collect.headers.get('strict-transport-security'), null);
  });
});

describe('client address without a declared proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  test('X-Forwarded-Proto from an undeclared source is ignored: the cookie is not Secure, the own origin stays http', async () => {
    const client = new AppClient(server);
    const setup = await client.request('POST', '/app/v1/setup', { setupToken: ADMIN_TOKEN, organisation: 'Acme', email: 'ana@example.com', password: PASSWORD }, { 'x-forwarded-proto': 'https' });
    assert.equal(setup.status, 201, setup.text);
    assert.doesNotMatch(setup.headers.get('set-cookie')!, /Secure/);
    const https = new URL(server.url);
    https.protocol = 'https:';
    const res = await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-proto': 'https', origin: https.origin });
    assert.equal(res.status, 403, 'an https Origin is not this service’s own when no declared proxy says so');
  });

  test('X-Forwarded-For from an undeclared source is ignored: the socket peer is locked', async () => {
    for (let i = 0; i < 10; i++) {
      await new AppClient(server).signIn(`guess${i}@example.com`, 'wrong password', { 'x-forwarded-for': `203.0.113.${i + 1}` });
    }
    const res = await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '198.51.100.200' });
    assert.deepEqual(res.body, LOCKED);
  });
});
