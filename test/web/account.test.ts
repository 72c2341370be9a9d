// The account pages in the browser, with the names on screen: `/account/security` sets up two-factor
// sign-in from a QR code that decodes to the key shown beside it (read back from the rendered
// pixels), shows the ten recovery codes once, and sign-in then asks for `Code`; `/account` changes the
// password and refuses to delete an organisation's last owner; an organisation's requirement sends a
// member to the security page. Each view is axe-clean at desktop and phone width, light and dark,
// and the set-up is done with the keyboard alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import decodeQR from 'qr/decode.js';
import { totpCode } from '../../src/accounts/totp.js';
import { AppClient } from '../helpers/app-client.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, LOOKS, openPage, PASSWORD, signIn, startDashboard, submitSignIn, type Dashboard } from './harness.js';

/** Presses Tab until the focused element is the control named `name` (at most 40 times). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return '';
      const id = element.getAttribute('id');
      const label = id ? document.querySelector(`label[for="${id}"]`)?.textContent : undefined;
      return (label ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    });
    if (focused === name) return;
  }
  assert.fail(`Tab never reached ${name}`);
}

/** The text of the QR code as the page drew it: its pixels read back from a canvas and decoded here. */
async function qrText(page: Page): Promise<string> {
  const image = await page.evaluate(async () => {
    const img = document.querySelector('img.qr') as HTMLImageElement;
    await img.decode();
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(img, 0, 0, size, size);
    return { width: size, height: size, data: Array.from(context.getImageData(0, 0, size, size).data) };
  });
  return decodeQR({ width: image.width, height: image.height, data: Uint8Array.from(image.data) });
}

describe('account pages in the browser', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    site = await createSite(dashboard.server, { domain: 'account-shop.example' });
  });
  after(() => dashboard?.close());

  it('two-factor set-up with the keyboard: a QR code of the key shown, ten recovery codes once, then sign-in asks for the code', async () => {
    const { server } = dashboard;
    await createUser(server, 'tf-page@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'tf-page@example.com', '/account/security');
    await page.getByRole('button', { name: 'Enable two-factor sign-in' }).waitFor();
    await tabTo(page, 'Enable two-factor sign-in');
    await page.keyboard.press('Enter');
    const img = page.getByRole('img', { name: 'QR code of the two-factor key for your authenticator app' });
    await img.waitFor();
    const key = String(await page.locator('code.secret-text').textContent()).replace(/\s/g, '');
    assert.match(key, /^[A-Z2-7]{32}$/);
    const uri = await qrText(page);
    assert.equal(new URL(uri).searchParams.get('secret'), key, 'the QR code holds the key shown as text');
    assert.ok(uri.startsWith('otpauth://totp/svc:tf-page%40example.com?'), uri);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await checkPage(page, 'security-setup');
    assert.ok(
      requests.every((url) => url.startsWith(server.url) || url.startsWith('data:')),
      `nothing leaves the service: ${requests.join(', ')}`,
    );

    await tabTo(page, 'Code');
    await page.keyboard.type(totpCode(key, Date.now()));
    await tabTo(page, 'Current password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    const shown = page.getByRole('region', { name: 'Recovery codes' });
    await shown.waitFor();
    const codes = String(await shown.locator('code').textContent()).trim().split('\n');
    assert.equal(codes.length, 10);
    await checkPage(page, 'security-recovery-codes');
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Two-factor sign-in is on. 10 of 10 recovery codes are left').waitFor();
    await page.getByRole('button', { name: 'Disable two-factor sign-in' }).waitFor();
    await checkPage(page, 'security-enabled');
    await page.reload();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Recovery codes' }).count(), 0, 'the codes are not shown again');
    await context.close();

    const next = await openPage(dashboard);
    await submitSignIn(next.page, server, 'tf-page@example.com');
    await next.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await checkPage(next.page, 'sign-in-code');
    await next.page.getByLabel('Code').fill('000000');
    await next.page.getByRole('button', { name: 'Verify' }).click();
    await next.page.getByText('Wrong code.').waitFor();
    // A code another sign-in used a moment ago: the page says to wait for the next one. The next
    // step's code (accepted one step early), never the one the set-up may have used in this step.
    const usedCode = totpCode(key, Date.now() + 30_000);
    const elsewhere = await new AppClient(server).request('POST', '/app/v1/session', { email: 'tf-page@example.com', password: PASSWORD, code: usedCode });
    assert.equal(elsewhere.status, 200, elsewhere.text);
    await next.page.getByLabel('Code').fill(usedCode);
    await next.page.getByRole('button', { name: 'Verify' }).click();
    await next.page.getByText('This code was just used. Wait for your authenticator app to show the next one').waitFor();
    await next.page.getByLabel('Code').fill(codes[0]!);
    await next.page.getByRole('button', { name: 'Verify' }).click();
    await next.page.waitForURL(`${server.url}/`);
    await next.page.getByRole('cell', { name: 'account-shop.example', exact: true }).waitFor();
    await next.context.close();
  });

  it('the pages are axe-clean at desktop and phone width, light and dark', async () => {
    const { server } = dashboard;
    await createUser(server, 'looks@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    for (const look of LOOKS) {
      const context = await dashboard.browser.newContext({ viewport: look.viewport, colorScheme: look.colorScheme, locale: 'en-GB' });
      await context.addInitScript('globalThis.__name = (fn) => fn');
      const page = await context.newPage();
      await signIn(page, server, 'looks@example.com', '/account');
      await page.getByRole('heading', { name: 'Change password' }).waitFor();
      await checkPage(page, `account-${look.name}`);
      await page.goto(`${server.url}/account/security`);
      await page.getByRole('button', { name: 'Enable two-factor sign-in' }).click();
      await page.getByRole('img', { name: /^QR code/ }).waitFor();
      await checkPage(page, `security-setup-${look.name}`);
      await context.close();
    }
  });

  it('/account changes the password with the keyboard, and refuses to delete the last owner', async () => {
    const { server } = dashboard;
    const own = await createSite(server, { domain: 'solo-shop.example' });
    await createUser(server, 'solo@example.com', [{ orgId: own.orgId, role: 'owner' }]);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'solo@example.com', '/account');
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await tabTo(page, 'Current password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type('a new long password');
    await page.keyboard.press('Enter');
    await page.getByText('Password changed. Your other sessions ended.').waitFor();

    const remove = page.getByRole('region').or(page.locator('section')).filter({ has: page.getByRole('heading', { name: 'Delete account' }) });
    await remove.getByLabel('Current password').fill('a new long password');
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete account' }).click();
    await page.getByText(/you are the last owner of /).waitFor();
    assert.equal((await server.admin('GET', '/users')).body.users.some((u: { email: string }) => u.email === 'solo@example.com'), true);
    await context.close();
  });

  it('Email reports: per site, Weekly report and Monthly report, saved at once; the site settings show the reports state', async () => {
    const { server } = dashboard;
    await createUser(server, 'reports@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'reports@example.com', '/account');
    const group = page.getByRole('group', { name: /account-shop\.example/ });
    await group.getByLabel('Weekly report').waitFor();
    // Without mail set up, `Send a test report` is disabled and says why.
    assert.equal(await group.getByRole('button', { name: /^Send a test report/ }).isDisabled(), true);
    await group.getByText('A test report needs mail, which this service does not send yet.').waitFor();
    await checkPage(page, 'account-email-reports');
    const saved = page.waitForResponse((r) => r.url().includes('/account/digests/') && r.request().method() === 'PUT');
    await group.getByLabel('Weekly report').focus();
    await page.keyboard.press('Space');
    assert.equal((await saved).status(), 200);
    await page.reload();
    assert.equal(await page.getByRole('group', { name: /account-shop\.example/ }).getByLabel('Weekly report').isChecked(), true);
    assert.equal(await page.getByRole('group', { name: /account-shop\.example/ }).getByLabel('Monthly report').isChecked(), false);
    await page.goto(`${server.url}/sites/${site.siteId}/settings#reports`);
    await page.getByRole('heading', { name: 'Email reports' }).waitFor();
    await page.getByText('Not configured: the operator sets SVC_SMTP_URL and SVC_PUBLIC_URL.').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Send a test report/ }).isDisabled(), true);
    await page.getByText('No report webhooks.').waitFor();
    const form = page.getByRole('form', { name: 'Add a report webhook' });
    await form.getByLabel('Webhook URL').fill('http://not-https.example/hook');
    await form.getByLabel('Signing secret').fill('a secret');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText(/the webhook URL breaks a URL rule/).waitFor();
    await checkPage(page, 'site-settings-email-reports');
    await context.close();
  });

  it('an organisation that requires two-factor sign-in sends a member without it to the security page', async () => {
    const { server } = dashboard;
    const strict = await createSite(server, { domain: 'strict-shop.example' });
    await createUser(server, 'strict-member@example.com', [{ orgId: strict.orgId, role: 'viewer' }]);
    assert.equal((await server.admin('PUT', `/orgs/${strict.orgId}/two-factor`, { required: true })).status, 200);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'strict-member@example.com');
    await page.waitForURL(`${server.url}/account/security`);
    await page.getByText('An organisation you are a member of requires two-factor sign-in').waitFor();
    await checkPage(page, 'security-required');
    await context.close();
  });
});
