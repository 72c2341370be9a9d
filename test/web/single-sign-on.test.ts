// Single sign-on in Chromium: `Sign in with <name>` on /login, through the test provider's own sign-in
// page, back to the page the browser wanted; a refused sign-in's reason on /login; an owner's
// `Sign-in domains` (the operator's, shown to the owner) and `Require single sign-on`, and `Create key` with its scope.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { singleSignOn } from '../../src/core/messages/en/single-sign-on.js';
import { startTestProvider, type TestProvider } from '../../support/oidc-provider.js';
import { SSO_NAME, ssoAddresses, ssoServerOptions } from '../helpers/single-sign-on.js';
import { createUser, DESKTOP, startDashboard, type Dashboard } from './harness.js';

describe('single sign-on in the browser', () => {
  let dashboard: Dashboard;
  let provider: TestProvider;
  let orgId: number;
  before(async () => {
    const addresses = await ssoAddresses();
    provider = await startTestProvider(addresses.provider);
    dashboard = await startDashboard(ssoServerOptions(addresses));
    orgId = (await dashboard.server.admin('POST', '/orgs', { name: 'Browser SSO' })).body.id;
    // Olga's account is made by her first single sign-on, from the operator's invitation (so its email is confirmed).
    await dashboard.server.admin('POST', `/orgs/${orgId}/invitations`, { email: 'olga@sso.example', role: 'owner' });
    await dashboard.server.admin('PUT', `/orgs/${orgId}/sign-in`, { domains: ['sso.example', 'Partner.example'] });
    await createUser(dashboard.server, 'pam@sso.example', [{ orgId, role: 'viewer' }]);
    provider.accounts.set('olga', { email: 'olga@sso.example', email_verified: true });
    provider.accounts.set('unverified', { email: 'olga@sso.example', email_verified: false });
  });
  after(async () => {
    await dashboard?.close();
    await provider?.stop();
  });

  /** A fresh profile that accepts the test provider's certificate (the test CA is not the browser's). */
  const open = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await dashboard.browser.newContext({ viewport: DESKTOP, locale: 'en-GB', ignoreHTTPSErrors: true });
    await context.addInitScript('globalThis.__name = (fn) => fn');
    return { context, page: await context.newPage() };
  };

  /** From a page that sent the browser to /login: the button, then the provider's own sign-in form as `account`. */
  const throughProvider = async (page: Page, account: string) => {
    await page.getByRole('button', { name: `Sign in with ${SSO_NAME}` }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByLabel('Provider account').selectOption(account);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === dashboard.server.url);
  };

  it('signs in through the provider and lands on the page it wanted; the owner sets the sign-in settings and creates a manage key', async () => {
    const { context, page } = await open();
    await page.goto(`${dashboard.server.url}/orgs/${orgId}/settings`);
    assert.equal(new URL(page.url()).pathname, '/login');
    await throughProvider(page, 'olga');
    await page.waitForURL(`${dashboard.server.url}/orgs/${orgId}/settings`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.getByText('Sign-in domains: partner.example, sso.example').waitFor();
    await page.getByLabel('Require single sign-on').check();
    await page.getByRole('button', { name: 'Save sign-in' }).click();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    const saved = async () => (await dashboard.server.admin('GET', `/orgs/${orgId}/sign-in`)).body;
    for (let tries = 0; tries < 50 && (await saved()).requireSingleSignOn !== true; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await saved(), { orgId, requireSingleSignOn: true, domains: ['partner.example', 'sso.example'], singleSignOnConfigured: true });

    await page.getByLabel('Key name').fill('automation');
    await page.getByLabel('Scope').selectOption('manage');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: 'New API key' }).waitFor();
    const keys = (await dashboard.server.admin('GET', `/orgs/${orgId}/keys`)).body.keys;
    assert.deepEqual(keys.map((k: { name: string; scope: string }) => [k.name, k.scope]), [['automation', 'manage']]);
    await page.getByRole('cell', { name: 'manage', exact: true }).waitFor();
    await context.close();
  });

  it('shows why a single sign-on was refused, and the password form that refuses a member of an organisation requiring it', async () => {
    const { context, page } = await open();
    await page.goto(`${dashboard.server.url}/login?next=/x`);
    await throughProvider(page, 'unverified');
    assert.equal(new URL(page.url()).search, '?sso=unverified&next=%2Fx');
    assert.equal(await page.getByRole('alert').textContent(), singleSignOn.failures.unverified);

    await page.getByLabel('Email').fill('pam@sso.example');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Use single sign-on: Browser SSO requires it of its members').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await context.close();
  });
});
