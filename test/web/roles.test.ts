// What each role sees and can do in the pages (docs/dashboard.md), the same requests replayed as a lower
// role, and cross-origin pages that try to use a signed-in browser's session.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { AppClient } from '../helpers/app-client.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { createUser, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

describe('dashboard roles in the browser', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    site = await createSite(dashboard.server);
    await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    await createUser(dashboard.server, 'admin@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    await createUser(dashboard.server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    await createUser(dashboard.server, 'stranger@example.com');
  });
  after(() => dashboard?.close());

  it('a viewer sees the site in the list but no settings, and the settings pages say why', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'viewer@example.com');
    await page.getByRole('link', { name: site.domain }).or(page.getByRole('cell', { name: site.domain })).first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'Organisation settings' }).count(), 0);
    await page.goto(`${server.url}/orgs/${site.orgId}/settings`);
    await page.getByText('settings are for admins and owners').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    await page.goto(`${server.url}/sites/${site.siteId}/settings`);
    await page.getByText('settings are for admins and owners').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Send test' }).count(), 0);
    await context.close();
  });

  it('an admin manages sites and keys but sees no members; an owner sees members', async () => {
    const { server } = dashboard;
    const admin = await openPage(dashboard);
    await signIn(admin.page, server, 'admin@example.com', `/orgs/${site.orgId}/settings`);
    await admin.page.getByRole('heading', { name: 'API keys' }).waitFor();
    await admin.page.getByRole('heading', { name: 'Sites' }).waitFor();
    assert.equal(await admin.page.getByRole('heading', { name: 'Members' }).count(), 0);
    await admin.context.close();

    const owner = await openPage(dashboard);
    await signIn(owner.page, server, 'owner@example.com', `/orgs/${site.orgId}/settings`);
    await owner.page.getByRole('heading', { name: 'Members' }).waitFor();
    await owner.page.getByLabel('Role of viewer@example.com').waitFor();
    // The owner makes the viewer an admin from the page.
    const changed = owner.page.waitForResponse((r) => r.url().includes('/members/') && r.request().method() === 'PUT');
    await owner.page.getByLabel('Role of viewer@example.com').selectOption('admin');
    const response = await changed;
    assert.equal(response.status(), 200);
    const members = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members;
    const viewerId = members.find((m: { email: string }) => m.email === 'viewer@example.com').userId;
    assert.equal(members.find((m: { email: string }) => m.email === 'viewer@example.com').role, 'admin');
    await server.admin('PUT', `/orgs/${site.orgId}/members/${viewerId}`, { role: 'viewer' });

    // The owner's request, replayed by an admin, is refused: members are the owner's alone.
    const admin2 = new AppClient(server);
    assert.equal((await admin2.signIn('admin@example.com', PASSWORD)).status, 200);
    const replayed = await admin2.request('PUT', new URL(response.url()).pathname, response.request().postDataJSON());
    assert.equal(replayed.status, 403);
    assert.equal(replayed.body.error.code, 'FORBIDDEN');
    const after = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members;
    assert.equal(after.find((m: { userId: number }) => m.userId === viewerId).role, 'viewer');
    await owner.context.close();
  });

  it("the admin's own page requests, replayed as a viewer and as a non-member, are refused and change nothing", async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    const changes: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/app/v1/manage/') && request.method() !== 'GET') changes.push(request);
    });
    await signIn(page, server, 'admin@example.com', `/sites/${site.siteId}/settings#goals`);
    await page.getByLabel('Goal name').fill('Signup');
    await page.getByLabel('Goal pattern').fill('/welcome');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.getByRole('cell', { name: 'Signup', exact: true }).waitFor();
    await page.goto(`${server.url}/orgs/${site.orgId}/settings`);
    await page.getByLabel('Key name').fill('replayed');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: 'New API key' }).waitFor();
    assert.equal(changes.length, 2);
    const before = {
      goals: (await server.admin('GET', `/sites/${site.siteId}/goals`)).body,
      keys: (await server.admin('GET', `/orgs/${site.orgId}/keys`)).body,
    };

    for (const [email, status] of [
      ['viewer@example.com', 403],
      ['stranger@example.com', 404],
    ] as const) {
      const client = new AppClient(server);
      assert.equal((await client.signIn(email, PASSWORD)).status, 200);
      for (const request of changes) {
        const path = new URL(request.url()).pathname;
        const replayed = await client.request(request.method(), path, request.postDataJSON());
        assert.equal(replayed.status, status, `${email} ${request.method()} ${path}`);
        assert.equal(replayed.body.error.code, status === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
      }
    }
    assert.deepEqual((await server.admin('GET', `/sites/${site.siteId}/goals`)).body, before.goals);
    assert.deepEqual((await server.admin('GET', `/orgs/${site.orgId}/keys`)).body, before.keys);
    await context.close();
  });

  describe('from another origin', () => {
    let evil: Server;
    let evilOrigin: string;
    before(async () => {
      evil = createServer((request, response) => {
        const html = decodeURIComponent((request.url ?? '/').split('?html=')[1] ?? '');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilOrigin = `http://evil.test:${(evil.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => evil.close(() => resolve())));

    it('a form post and a credentialed fetch from another site change nothing and read nothing', async () => {
      const { server } = dashboard;
      const { context, page } = await openPage(dashboard);
      await signIn(page, server, 'owner@example.com');
      const keysBefore = (await server.admin('GET', `/orgs/${site.orgId}/keys`)).body.keys.length;

      const form = `<!doctype html><title>x</title><form method="post" action="${server.url}/app/v1/manage/orgs/${site.orgId}/keys" enctype="text/plain"><input name='{"name":"csrf","x":"' value='"}'></form>`;
      const posted = page.waitForResponse((r) => r.url().startsWith(`${server.url}/app/v1/manage/`));
      await page.goto(`${evilOrigin}/?html=${encodeURIComponent(form)}`);
      await page.evaluate(() => document.forms[0]!.submit());
      const formAnswer = await posted;
      await page.waitForURL(`${server.url}/app/v1/manage/orgs/${site.orgId}/keys`);
      assert.ok(formAnswer.status() >= 400, `form post answered ${formAnswer.status()}`);

      await page.goto(`${evilOrigin}/?html=${encodeURIComponent('<!doctype html><title>x</title>')}`);
      const outcome = await page.evaluate(async (base) => {
        const results: string[] = [];
        for (const [method, path] of [
          ['GET', '/app/v1/session'],
          ['GET', '/app/v1/sites'],
          ['POST', `/app/v1/manage/orgs/${base.orgId}/keys`],
        ] as const) {
          try {
            const response = await fetch(base.url + path, { method, credentials: 'include', headers: method === 'POST' ? { 'content-type': 'application/json' } : {}, body: method === 'POST' ? '{"name":"fetch"}' : undefined });
            results.push(`${method} ${path}: read ${response.status} ${await response.text()}`);
          } catch (error) {
            results.push(`${method} ${path}: blocked`);
          }
        }
        return results;
      }, { url: server.url, orgId: site.orgId });
      for (const line of outcome) assert.match(line, /: blocked$/, line);
      assert.equal((await server.admin('GET', `/orgs/${site.orgId}/keys`)).body.keys.length, keysBefore);
      await context.close();
    });
  });
});
