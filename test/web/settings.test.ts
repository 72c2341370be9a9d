// The settings pages doing real work: an API key created in the page works on /v1 and is shown once;
// a funnel edited in the page makes version 2 while version 1 stays readable (page pattern fields
// state their syntax and limits, and show why a pattern is refused); an alert rule's
// `Send test` reaches a local HTTPS receiver and its delivery history shows it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';
import { axeViolations, createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

/** The text of a control's accessible description (its `aria-describedby` element). */
const description = (control: Locator) => control.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');

describe('dashboard settings pages in the browser', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  let receiver: Receiver;
  before(async () => {
    [dashboard, receiver] = await Promise.all([
      startDashboard({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: '1' }, alerts: { resolve: loopbackResolver, ca: testCertificates().ca, timeoutMs: 2_000 } }),
      startReceiver(),
    ]);
    site = await createSite(dashboard.server);
    await createUser(dashboard.server, 'admin@example.com', [{ orgId: site.orgId, role: 'admin' }]);
  });
  after(async () => {
    await dashboard.close();
    await receiver.close();
  });

  it('shows and changes how long single events are kept, among the same choices as Add site, and says what retention keeps', async () => {
    const { server } = dashboard;
    await server.admin('PATCH', `/sites/${site.siteId}`, { rawDays: 120 });
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'admin@example.com', `/sites/${site.siteId}/settings`);
    const rawDays = page.getByLabel('Keep single events');
    assert.equal(await rawDays.inputValue(), '120');
    assert.deepEqual(await rawDays.locator('option').allTextContents(), ['30 days', '120 days', '13 months', '25 months'], 'a span set through the API shows as it is');
    assert.match(await description(rawDays), /Filtered views .* reach back this far.* 540 MB more disk .* deletes the older single events/);
    assert.match(await description(page.getByLabel('Retention (months)')), /events and daily figures alike/);
    await rawDays.selectOption({ label: '25 months' });
    await page.getByRole('form', { name: 'General settings' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    assert.equal((await server.admin('GET', `/sites/${site.siteId}`)).body.rawDays, 761);
    await context.close();
  });

  it('creates an API key that is shown once and reads /v1', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'admin@example.com', `/orgs/${site.orgId}/settings`);
    await page.getByLabel('Key name').fill('reporting');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: 'New API key' });
    await shown.waitFor();
    const key = String(await shown.locator('code').textContent()).trim();
    assert.ok(key.length >= 20, `a key: ${key}`);

    const read = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?period=7d`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(read.status, 200, await read.clone().text());

    await page.reload();
    await page.getByRole('cell', { name: 'reporting', exact: true }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'New API key' }).count(), 0);
    assert.equal((await page.content()).includes(key), false, 'the key is not shown again');

    // Revoked after confirmation, it stops working.
    await page.getByRole('button', { name: 'Revoke key reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(/^revoked /).waitFor();
    const after = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?period=7d`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(after.status, 401);
    await context.close();
  });

  it('edits the steps of a funnel into version 2; version 1 stays readable through /v1', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'admin@example.com', `/sites/${site.siteId}/settings#goals`);
    // Page patterns state their syntax and limits; a pattern past them is refused with the reason.
    const pageSyntax = /^Pages: \* is any text without \/, \*\* any text\. At most 512 characters and 16 wildcards\.$/;
    assert.match(await description(page.getByLabel('Goal pattern')), pageSyntax);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Funnels' }).click();
    await page.getByLabel('Funnel name').fill('Checkout');
    const steps = page.getByRole('form', { name: 'Steps of the new funnel' });
    assert.match(await description(steps.getByLabel('Step 1 pattern')), pageSyntax);
    await steps.getByLabel('Step 1 pattern').fill(`/${'*/'.repeat(17)}`);
    await steps.getByLabel('Step 2 pattern').fill('/pay');
    await steps.getByRole('button', { name: 'Create funnel' }).click();
    await steps.getByText('steps[0].pattern: a page pattern has at most 16 wildcards (* or **), this one has 17').waitFor();
    await steps.getByLabel('Step 1 pattern').fill('/cart');
    await steps.getByRole('button', { name: 'Create funnel' }).click();
    await page.getByText('version 1').waitFor();

    await page.getByRole('button', { name: 'Edit steps of Checkout' }).click();
    const editor = page.getByRole('form', { name: 'Steps of Checkout' });
    await editor.getByRole('button', { name: 'Add step' }).click();
    await editor.getByLabel('Step 3 kind').selectOption('event');
    await editor.getByLabel('Step 3 pattern').fill('purchase');
    await editor.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText('version 2').waitFor();

    const key = (await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'check' })).body.key as string;
    const read = async (query: string) => {
      const funnels = await (await fetch(`${server.url}/v1/sites/${site.siteId}/funnels`, { headers: { authorization: `Bearer ${key}` } })).json();
      const id = funnels.funnels.find((f: { name: string }) => f.name === 'Checkout').id;
      const response = await fetch(`${server.url}/v1/sites/${site.siteId}/funnels/${id}?period=7d${query}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
      return response.json();
    };
    const current = await read('');
    assert.equal(current.funnel.version, 2);
    assert.equal(current.steps.length, 3);
    const first = await read('&version=1');
    assert.equal(first.funnel.version, 1);
    assert.equal(first.steps.length, 2);
    await context.close();
  });

  it("sends a test of an alert rule to an HTTPS receiver and shows it in the rule's history, in the site's time zone", async () => {
    const { server } = dashboard;
    // A zone 5 h 45 min from the browser's: a time shown in the browser's zone cannot pass for it.
    assert.equal((await server.admin('PATCH', `/sites/${site.siteId}`, { timezone: 'Asia/Kathmandu' })).status, 200);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'admin@example.com', `/sites/${site.siteId}/settings#alerts`);
    const form = page.getByRole('form', { name: 'New alert rule' });
    await form.getByLabel('Type').selectOption('spike');
    await form.getByLabel('Threshold').fill('50');
    await form.getByLabel('Webhook URL').fill(receiver.url('/dashboard-hook'));
    await form.getByLabel('Signing secret').fill('a shared secret');
    await form.getByLabel('Email addresses').fill('ops@example.com\n\noncall@example.com\n');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('heading', { name: /Spike: ≥ 50 visitors/ }).waitFor();
    // The rule mails its addresses beside the webhook, and says so.
    await page.getByText('Mailed to ops@example.com, oncall@example.com').waitFor();
    const rules = (await server.admin('GET', `/sites/${site.siteId}/alerts`)).body.alerts as Array<{ threshold: number; emails: string[] }>;
    assert.deepEqual(rules.find((rule) => rule.threshold === 50)?.emails, ['ops@example.com', 'oncall@example.com']);

    // A URL the service refuses: its reason and how to fix it show in words next to the form.
    await form.getByLabel('Webhook URL').fill('http://plain.example/hook');
    await form.getByLabel('Signing secret').fill('another secret');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#alerts .error').waitFor();
    assert.equal(await page.locator('#alerts .error').textContent(), 'This webhook URL is refused. The URL must start with https:// (plain http and other schemes are refused).');

    await page.getByRole('button', { name: /^Send test of rule/ }).click();
    await page.getByText('Test queued').waitFor();
    const deadline = Date.now() + 10_000;
    while (receiver.requestsTo('/dashboard-hook').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [delivered] = receiver.requestsTo('/dashboard-hook');
    assert.ok(delivered, 'the receiver got the test');
    assert.equal(JSON.parse(delivered.body).test, true);
    const history = page.getByRole('table', { name: 'Delivery history' });
    await history.getByText('Delivered', { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal(await history.getByRole('cell', { name: 'test', exact: true }).count(), 1);
    const ruleId = (await page.getByRole('button', { name: /^Send test of rule/ }).getAttribute('aria-label'))!.replace('Send test of rule ', '');
    const [queued] = (await server.admin('GET', `/alerts/${ruleId}/history`)).body.deliveries as Array<{ createdAt: string | number }>;
    const inSiteZone = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kathmandu' }).format(new Date(queued!.createdAt));
    await history.getByRole('columnheader', { name: 'Queued (Asia/Kathmandu)' }).waitFor();
    assert.equal(await history.getByRole('cell', { name: inSiteZone, exact: true }).count(), 1, `the delivery queued at ${inSiteZone}, site time`);
    // The open history refreshes itself: a test sent from elsewhere shows without a click.
    assert.equal((await server.admin('POST', `/alerts/${ruleId}/test`)).status, 202);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Delivery history"] tbody tr').length === 2, undefined, { timeout: 15_000 });
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
