// First-run setup, sign-in and sign-out through the pages, in Chromium against a listening svc.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppClient } from '../helpers/app-client.js';
import { createUser, DESKTOP, openPage, PASSWORD, signIn, startDashboard, submitSignIn, type Dashboard } from './harness.js';

describe('dashboard sign-in in the browser', () => {
  let dashboard: Dashboard;
  before(async () => {
    // 127.0.0.1 is declared a trusted proxy: a page that sends X-Forwarded-For is another client.
    dashboard = await startDashboard({ env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });
  });
  after(() => dashboard?.close());

  it('creates the first account at /setup, signs it in, and /setup is gone after', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await page.goto(`${server.url}/setup`);
    await page.getByLabel('Setup token').fill('not the token at all');
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Organisation').fill('Acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(new URL(page.url()).pathname, '/setup', 'a wrong token keeps the form');
    assert.equal((await server.admin('GET', '/users')).body.users.length, 0);

    await page.getByLabel('Setup token').fill(server.adminToken);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Acme' }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible());
    const users = (await server.admin('GET', '/users')).body.users;
    assert.deepEqual(users.map((u: { email: string }) => u.email), ['first@example.com']);

    const again = await fetch(`${server.url}/setup`);
    assert.equal(again.status, 404);
    await context.close();
  });

  it('signs in, and sends a wrong password and an unknown email to the same message', async () => {
    const { server } = dashboard;
    await createUser(server, 'signin@example.com');
    const { context, page } = await openPage(dashboard);
    for (const [email, password] of [
      ['signin@example.com', 'wrong password here'],
      ['nobody@example.com', PASSWORD],
    ]) {
      await submitSignIn(page, server, email!, password);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), 'Wrong email or password.');
      assert.equal(new URL(page.url()).pathname, '/login');
    }
    await signIn(page, server, 'signin@example.com');
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();

  });

  it('sends an anonymous browser to /login?next= and back after sign-in, but never off the origin', async () => {
    const { server } = dashboard;
    const site = await server.admin('POST', '/orgs', { name: 'Next org' });
    await createUser(server, 'next@example.com', [{ orgId: site.body.id, role: 'admin' }]);
    const { context, page } = await openPage(dashboard);
    await page.goto(`${server.url}/orgs/${site.body.id}/settings?tab=keys`);
    assert.equal(page.url(), `${server.url}/login?next=${encodeURIComponent(`/orgs/${site.body.id}/settings?tab=keys`)}`);
    await page.getByLabel('Email').fill('next@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/orgs/${site.body.id}/settings?tab=keys`);
    await context.close();
  });

  it('after sign-in never leaves the origin, whatever next= normalises to', async () => {
    const { server } = dashboard;
    await createUser(server, 'stay@example.com');
    // Another origin on this machine: any request it receives is a navigation off the service.
    const visits: string[] = [];
    const evil = createServer((request, response) => {
      visits.push(request.url ?? '');
      response.end('evil');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(evil.address() as AddressInfo).port}`;
    try {
      for (const [next, landing] of [
        [`/.//${host}/`, '/'],
        [`/..//${host}`, '/'],
        [`/%2e//${host}`, '/'],
        [`/a/..//${host}`, '/'],
        [`//${host}/`, '/'],
        [`/\\${host}/`, '/'],
        [`\\/${host}/`, '/'],
        [`http://${host}/`, '/'],
        ['https://evil.example/', '/'],
        ['javascript:alert(1)', '/'],
        [`/\t/${host}`, '/'],
        [`/\n/${host}`, '/'],
        [`/%09/${host}`, `/%09/${host}`],
        ['/ok?x=1#y', '/ok?x=1#y'],
      ]) {
        const attempt = await openPage(dashboard);
        await signIn(attempt.page, server, 'stay@example.com', next);
        const url = new URL(attempt.page.url());
        assert.equal(url.origin, server.url, JSON.stringify(next));
        assert.equal(url.pathname + url.search + url.hash, landing, JSON.stringify(next));
        await attempt.context.close();
      }
      assert.deepEqual(visits, [], 'no sign-in sent the browser to the other origin');
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('signs out: the session ends on the server and the pages ask to sign in again', async () => {
    const { server } = dashboard;
    await createUser(server, 'leaver@example.com');
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'leaver@example.com');
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session');
    assert.ok(cookie, 'signed in with svc_session');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/login`);
    const replay = new AppClient(server);
    replay.cookie = cookie.value;
    assert.equal((await replay.request('GET', '/app/v1/session')).status, 401, 'the old cookie no longer works');
    await page.goto(`${server.url}/`);
    assert.equal(page.url(), `${server.url}/login`, '/ is where sign-in goes anyway');
    await context.close();
  });

  // Last: the lockout also covers the client address, so no sign-in from it works after. The page is
  // a client of its own, which the other tests' sign-ins (from 127.0.0.1) count nothing against.
  it('refuses sign-in after 10 failures with a message that says so', async () => {
    const { server } = dashboard;
    await createUser(server, 'locked@example.com');
    const locked = await openPage(dashboard, DESKTOP, { 'x-forwarded-for': '203.0.113.10' });
    for (let i = 0; i < 10; i++) {
      await submitSignIn(locked.page, server, 'locked@example.com', `wrong password ${i}`);
      await locked.page.getByRole('alert').waitFor();
    }
    await submitSignIn(locked.page, server, 'locked@example.com', PASSWORD);
    const alert = locked.page.getByRole('alert');
    await alert.waitFor();
    assert.match(String(await alert.textContent()), /Too many failed attempts\. Try again in 15 minutes\./);
    await locked.context.close();
  });
});
