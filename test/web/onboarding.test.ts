// A site's first minutes in real Chromium against a real server: Add site takes a pasted address
// and the browser's zone and lands on the new site, whose dashboard waits for the first event with
// the tracker snippet, its Copy button, the warning about a local address (a public site's, not
// the local site's) and the collection outcomes in words, until the figures take its place.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserHeaders, createSite, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, DESKTOP, PHONE, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  site = await createSite(dashboard.server, { timezone: 'UTC' });
  await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(dashboard.server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
});
after(() => dashboard?.close());

/** A signed-in page in a browser whose own time zone is `timezoneId`. */
async function signedIn(email: string, viewport = DESKTOP, timezoneId = 'UTC') {
  const context = await dashboard.browser.newContext({ viewport, locale: 'en-GB', timezoneId });
  await context.addInitScript('globalThis.__name = (fn) => fn');
  const page = await context.newPage();
  await signIn(page, dashboard.server, email);
  return { context, page };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Waiting for the first event' });

describe("a new site's first minutes", () => {
  test('Add site takes a pasted address, says what it keeps, keeps single events 13 months unless told, defaults to the browser’s zone and lands on the new site', async () => {
    const { context, page } = await signedIn('owner@example.com', DESKTOP, 'Europe/Paris');
    await page.goto(`${dashboard.server.url}/orgs/${site.orgId}/settings`);
    const zone = page.getByLabel('Time zone');
    await page.waitForFunction(() => (document.querySelector('input[list]') as HTMLInputElement | null)?.value === 'Europe/Paris');
    await page.getByLabel('Domain', { exact: true }).fill('https://www.Example.com/pricing?plan=pro');
    await page.getByText('Adds the site as example.com: events come from it and its subdomains.').waitFor();
    const keep = page.getByLabel('Keep single events');
    assert.equal(await keep.inputValue(), '396', '13 months preselected');
    assert.deepEqual(await keep.locator('option').allTextContents(), ['30 days', '13 months', '25 months']);
    const hint = await keep.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    assert.match(hint, /^Filtered views .* reach back this far.* about 540 MB more disk than kept 30 days\.$/);
    await checkPage(page, 'add-site-desktop');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.waitForURL((url) => /^\/sites\/[^/]+$/.test(url.pathname));
    const siteId = new URL(page.url()).pathname.split('/')[2]!;
    const created = (await dashboard.server.admin('GET', `/sites/${siteId}`)).body;
    assert.deepEqual([created.domain, created.name, created.timezone, created.rawDays], ['example.com', 'example.com', 'Europe/Paris', 396]);
    await panel(page).waitFor();
    assert.equal(await zone.count(), 0);
    await context.close();
  });

  test('a browser zone the service does not list leaves UTC', async () => {
    const { context, page } = await signedIn('owner@example.com', DESKTOP, 'Europe/Paris');
    await page.route('**/app/v1/timezones', (route) => route.fulfill({ json: { timezones: ['America/New_York', 'UTC'] } }));
    await page.goto(`${dashboard.server.url}/orgs/${site.orgId}/settings`);
    await page.waitForFunction(() => (document.querySelector('input[list]') as HTMLInputElement | null)?.value === 'UTC');
    await context.close();
  });

  test('a site without events waits for the first one: snippet, Copy, the local address warning, outcomes in words, then the figures', async () => {
    const { server } = dashboard;
    const { context, page } = await signedIn('owner@example.com');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(`${server.url}/sites/${site.siteId}`);
    await panel(page).waitFor();
    const snippet = (await server.admin('GET', `/sites/${site.siteId}/snippet`)).body.snippet as string;
    assert.equal(await page.getByLabel('Tracker snippet').textContent(), snippet);
    await panel(page).getByText('a local address that visitors\' browsers cannot reach. Set SVC_PUBLIC_URL', { exact: false }).waitFor();
    await panel(page).getByText(`every page of ${site.domain}, a public site`, { exact: false }).waitFor();
    assert.equal(await page.getByRole('group', { name: 'Key figures' }).count(), 0);

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);

    const log = page.getByRole('log', { name: 'Events received' });
    await log.getByText('None yet').waitFor();
    await checkPage(page, 'first-event-desktop');
    assert.equal(await server.collect({ s: site.siteId, u: '/signup' }, { ...browserHeaders(site.domain), origin: 'https://elsewhere.example' }), 202);
    await log.getByText("dropped: sent from a page outside the site's domain").waitFor();
    assert.equal(await log.locator('li').filter({ hasText: '/signup' }).count(), 1);

    // The service may store the accepted event at once: the panel is held until its outcome shows.
    let holding = true;
    await page.route('**/app/v1/sites/*/installation', async (route) => {
      const answer = await route.fetch();
      const body = await answer.json();
      await route.fulfill({ response: answer, json: holding ? { ...body, hasEvents: false } : body });
    });
    assert.equal(await server.collect({ s: site.siteId, u: '/pricing' }, browserHeaders(site.domain)), 202);
    await log.getByText('accepted', { exact: true }).waitFor();
    await server.flush();
    holding = false;
    // Stored: the figures take the panel's place, read anew (one visitor).
    await page.getByRole('group', { name: 'Key figures' }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-panel="overview"]')?.getAttribute('data-state') === 'ready');
    assert.equal(await panel(page).count(), 0);
    assert.equal((await page.locator('.kpi-value').first().textContent())?.trim(), '1');
    await context.close();
  });

  test('the local site (localhost) is for this machine only: no warning about a local address, a tag with data-dev, events from any loopback origin', async () => {
    const { server } = dashboard;
    const local = await createSite(server, { domain: 'localhost', timezone: 'UTC' });
    await server.admin('PUT', `/orgs/${local.orgId}/members/${(await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members.find((m: { email: string }) => m.email === 'owner@example.com').userId}`, { role: 'owner' });
    const { context, page } = await signedIn('owner@example.com');
    await page.goto(`${server.url}/sites/${local.siteId}`);
    await panel(page).getByText('This site is for this machine only', { exact: false }).waitFor();
    assert.equal(await panel(page).locator('.error').count(), 0, 'a local address is what a local site needs');
    assert.match((await page.getByLabel('Tracker snippet').textContent()) ?? '', / data-dev><\/script>$/);
    assert.equal(await server.collect({ s: local.siteId, u: '/try' }, { ...browserHeaders(local.domain), origin: 'http://127.0.0.1:5173' }), 202);
    await server.flush();
    // Stored: the figures take the panel's place.
    await page.getByRole('group', { name: 'Key figures' }).waitFor();
    await context.close();
  });

  test('a refused clipboard selects the snippet instead; a viewer sees the panel too, on a phone', async () => {
    const { server } = dashboard;
    const empty = await createSite(server);
    await server.admin('PUT', `/orgs/${empty.orgId}/members/${(await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members.find((m: { email: string }) => m.email === 'viewer@example.com').userId}`, { role: 'viewer' });
    const { context, page } = await signedIn('viewer@example.com', PHONE);
    await context.addInitScript('navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"))');
    await page.goto(`${server.url}/sites/${empty.siteId}`);
    await panel(page).waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Selected: press Ctrl+C' }).waitFor();
    const snippet = (await server.admin('GET', `/sites/${empty.siteId}/snippet`)).body.snippet as string;
    assert.equal(await page.evaluate(() => window.getSelection()?.toString()), snippet);
    await checkPage(page, 'first-event-phone');
    await context.close();
  });
});
