// Every page of the dashboard's settings half at desktop and phone width, light and dark: axe-core
// finds no serious or critical violation, and a screenshot of each is saved to look at.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { checkPage as check, createUser, LOOKS, openPage, screenshotDir, signIn, startDashboard, type Dashboard } from './harness.js';

describe('dashboard pages: accessibility and screenshots', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    console.log(`screenshots: ${screenshotDir()}`);
  });
  after(() => dashboard?.close());

  it('/setup and /login', async () => {
    for (const look of LOOKS) {
      const { context, page } = await openPage(dashboard, look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await page.goto(`${dashboard.server.url}/setup`);
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      await check(page, `setup-${look.name}`);
      await page.goto(`${dashboard.server.url}/login`);
      await page.getByLabel('Password').fill('short');
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await check(page, `login-error-${look.name}`);
      await context.close();
    }
  });

  it('/, /orgs/:orgId/settings and /sites/:siteId/settings, filled in', async () => {
    const { server } = dashboard;
    site = await createSite(server, { domain: 'shop.example' });
    await createSite(server, { domain: 'second-shop-with-a-long-name.example' });
    await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    await createUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'reporting' });
    await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
    await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Checkout', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/cart' }, { kind: 'page', pattern: '/checkout/**' }, { kind: 'event', pattern: 'purchase' }] });

    for (const look of LOOKS) {
      const { context, page } = await openPage(dashboard, look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await signIn(page, server, 'owner@example.com');
      await page.getByRole('cell', { name: 'shop.example', exact: true }).waitFor();
      await check(page, `home-${look.name}`);

      await page.goto(`${server.url}/orgs/${site.orgId}/settings`);
      await page.getByRole('cell', { name: 'reporting', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      await page.getByLabel('Role of viewer@example.com').waitFor();
      await check(page, `org-settings-${look.name}`);
      await page.getByRole('button', { name: 'Revoke key reporting' }).click();
      await page.getByRole('dialog').waitFor();
      await check(page, `org-settings-confirm-${look.name}`);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // A slow answer shows the loading state until it arrives.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/app/v1/manage/sites/*/funnels', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/sites/${site.siteId}/settings`);
      await page.getByRole('heading', { name: 'Tracker snippet' }).waitFor();
      await page.locator('#snippet code').first().waitFor();
      await check(page, `site-settings-${look.name}`);
      await page.goto(`${server.url}/sites/${site.siteId}/settings#funnels`);
      await page.locator('#funnels').getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
      release();
      await page.getByText('version 1').waitFor();
      await check(page, `site-settings-funnels-${look.name}`);
      await context.close();
    }
  });
});
