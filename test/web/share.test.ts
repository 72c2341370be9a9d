// Shared links in the browser, with the names on screen: an admin creates one on the site's settings
// (`Create link`, `Password`, `Filters`) and sees it once with `Copy`; a visitor without an account
// gives the password (`View dashboard`) and sees the site's figures with the locked filter, no
// settings and no `Sign out`; a link followed from the page carries no Referer; a page of another
// site cannot frame the link; `Revoke` ends it; a page left open past its access token's 12 hours
// (the service's clock moved on) opens the link again, asking its password again when it has one.
// Each view is axe-clean at desktop and phone width, light and dark.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../src/core/clock.js';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, filled, LOOKS, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

describe('shared links in the browser', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  let elsewhere: Server;
  let elsewhereUrl: string;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  let framingPage = '';
  /** The service's clock: the real one, moved forward by `ahead` (past an access token's 12 hours). */
  let ahead = 0;
  const clock: Clock = { now: () => Date.now() + ahead };

  before(async () => {
    dashboard = await startDashboard({ clock });
    site = await createSite(dashboard.server, { domain: 'shared-shop.example' });
    const now = Date.now();
    const lines = [];
    for (let i = 0; i < 6; i++) {
      lines.push({ ts: now - (i + 1) * 3_600_000, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/', country: 'DE' });
      lines.push({ ts: now - (i + 1) * 3_600_000 + 60_000, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: '/pricing', country: 'DE' });
    }
    assert.equal((await importEvents(dashboard.server, site.siteId, lines)).body.rejected, 0);
    await createUser(dashboard.server, 'sharer@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    elsewhere = createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      response.setHeader('content-type', 'text/html');
      response.end(request.url === '/frame' ? framingPage : '<!doctype html><title>elsewhere</title><p>elsewhere</p>');
    });
    await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  });
  after(async () => {
    await dashboard?.close();
    await new Promise((done) => elsewhere?.close(done));
  });

  it('an admin shares the dashboard locked to a page, behind a password; a visitor reads it, nothing more', async () => {
    const { server } = dashboard;
    const admin = await openPage(dashboard);
    await signIn(admin.page, server, 'sharer@example.com', `/sites/${site.siteId}/settings#shared-links`);
    await admin.page.getByRole('heading', { name: 'Shared links' }).waitFor();
    await admin.page.getByText('No shared links.').waitFor();
    const form = admin.page.getByRole('form', { name: 'Create a shared link' });
    await form.getByLabel('Password').fill('a shared secret here');
    await form.getByLabel('Filters').fill('page:/pricing');
    await form.getByRole('button', { name: 'Create link' }).click();
    const shown = admin.page.getByRole('region', { name: 'Shared link' });
    await shown.waitFor();
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    const url = String(await shown.locator('pre code').textContent()).trim();
    assert.match(url, new RegExp(`^${server.url}/share/[\\w-]{43}$`));
    await admin.page.getByRole('cell', { name: 'page:/pricing' }).waitFor();
    await admin.page.getByRole('cell', { name: 'never used' }).waitFor();
    await checkPage(admin.page, 'site-settings-shared-link');

    for (const look of LOOKS) {
      const context = await dashboard.browser.newContext({ viewport: look.viewport, colorScheme: look.colorScheme, locale: 'en-GB' });
      await context.addInitScript('globalThis.__name = (fn) => fn');
      const page = await context.newPage();
      await page.goto(url);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'View dashboard' }).click();
      await page.getByText('Wrong password.').waitFor();
      await checkPage(page, `share-password-${look.name}`);
      await page.getByLabel('Password', { exact: true }).fill('a shared secret here');
      await page.getByRole('button', { name: 'View dashboard' }).click();
      // The locked filter in words.
      await page.locator('.locked-filters').getByText('Limited to Page is /pricing.').waitFor();
      await filled(page);
      await page.getByRole('button', { name: /^Visitors/ }).first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Settings' }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Realtime' }).count(), 0, 'a link locked to filters shares no realtime');
      await checkPage(page, `share-dashboard-${look.name}`);
      await context.close();
    }
    await admin.page.reload();
    await admin.page.getByRole('cell', { name: 'never used' }).waitFor({ state: 'detached' });
    await admin.context.close();
  });

  it('a link followed from the shared page carries no Referer; another site cannot frame it; Revoke ends it', async () => {
    const { server } = dashboard;
    const created = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { embedDomains: ['client.example'] });
    assert.equal(created.status, 201);
    const { context, page } = await openPage(dashboard);
    await page.goto(created.body.url);
    await filled(page);
    // A link without locked filters shares the realtime view too, switched in the page.
    await page.getByRole('link', { name: 'Realtime' }).click();
    await page.getByText(/in the last 5 minutes/).waitFor();
    assert.match(page.url(), /[?&]view=realtime$/);
    await checkPage(page, 'share-realtime');
    await page.goBack();
    await filled(page);
    await page.evaluate((target) => {
      const a = document.createElement('a');
      a.href = target;
      a.textContent = 'away';
      document.body.append(a);
      a.click();
    }, `${elsewhereUrl}/landing`);
    await page.waitForURL(`${elsewhereUrl}/landing`);
    const landing = seen.find((r) => r.url === '/landing')!;
    assert.equal(landing.headers.referer, undefined, 'no Referer leaves the shared page');

    framingPage = `<!doctype html><title>framer</title><iframe title="shared" src="${created.body.embedUrl}"></iframe>`;
    const refused = new Promise<string>((done) => page.on('console', (message) => message.text().includes('frame-ancestors') && done(message.text())));
    await page.goto(`${elsewhereUrl}/frame`);
    assert.match(await refused, /frame-ancestors/, 'the browser refuses to frame the link on a page of another site');

    await page.goto(created.body.url);
    await filled(page);
    const admin = await openPage(dashboard);
    await signIn(admin.page, server, 'sharer@example.com', `/sites/${site.siteId}/settings#shared-links`);
    await admin.page.getByRole('button', { name: `Revoke link ${created.body.id}` }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await admin.page.getByRole('button', { name: `Revoke link ${created.body.id}` }).waitFor({ state: 'detached' });
    const gone = await page.goto(created.body.url);
    assert.equal(gone!.status(), 404);
    await admin.context.close();
    await context.close();
  });

  it("a page left open past its access token's 12 hours opens the link again: without a password it reads on, with one it asks it again", async () => {
    const { server } = dashboard;
    const plain = await server.admin('POST', `/sites/${site.siteId}/shared-links`, {});
    assert.equal(plain.status, 201);
    const { context, page } = await openPage(dashboard);
    let openings = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/app/v1/share') openings++;
    });
    const realtime = (status: number, accepted: (access: string | undefined) => boolean = () => true) =>
      page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/realtime') && response.status() === status && accepted(response.request().headers()['x-share-access']), {
        timeout: 30_000,
      });
    const firstRead = realtime(200);
    await page.goto(`${plain.body.url}?view=realtime`);
    const firstAccess = (await firstRead).request().headers()['x-share-access'];
    assert.match(String(firstAccess), /^[\w-]{43}$/);
    await page.getByText(/in the last 5 minutes/).waitFor();
    assert.equal(openings, 1);

    // The view reads again within 10 s: with the ended access (404), then with the next opening's.
    const ended = realtime(404, (access) => access === firstAccess);
    const readOn = realtime(200, (access) => access !== firstAccess);
    ahead += 12 * 3_600_000 + 1_000;
    await ended;
    await readOn;
    assert.equal(openings, 2, 'the link is opened again once');
    await page.getByText(/in the last 5 minutes/).waitFor();
    assert.equal(await page.getByText(/revoked or it expired/).count(), 0, 'no error shown');
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no password asked');
    // The dashboard view's reads, sent together with an ended access, open the link again once.
    ahead += 12 * 3_600_000 + 1_000;
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await filled(page);
    assert.equal(openings, 3, 'the reads that failed together opened the link once');
    assert.equal(await page.getByText(/revoked or it expired/).count(), 0, 'no error shown');

    const secret = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { password: 'a shared secret here' });
    assert.equal(secret.status, 201);
    await page.goto(secret.body.url);
    await page.getByLabel('Password', { exact: true }).fill('a shared secret here');
    await page.getByRole('button', { name: 'View dashboard' }).click();
    await filled(page);
    ahead += 12 * 3_600_000 + 1_000;
    // Switching to the realtime view reads with the ended access: the password is asked again.
    await page.getByRole('link', { name: 'Realtime' }).click();
    await page.getByLabel('Password', { exact: true }).fill('a shared secret here');
    await page.getByRole('button', { name: 'View dashboard' }).click();
    await page.getByText(/in the last 5 minutes/).waitFor();
    assert.match(page.url(), /[?&]view=realtime$/);
    assert.equal(await page.getByText(/revoked or it expired/).count(), 0, 'no error shown');
    await context.close();
  });
});
