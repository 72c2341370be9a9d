// Revenue and scroll depth in the dashboard, in real Chromium against a real server: the goals page's
// revenue columns, a revenue goal made in the settings form, the pages' Details with their scroll
// depth, axe-core clean at desktop and phone width.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, DESKTOP, filled, openPage, PHONE, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Orders', kind: 'event', pattern: 'order', currency: 'EUR' })).status, 201);
  assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signups', kind: 'event', pattern: 'signup' })).status, 201);
  const threeDaysAgo = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3) + 9 * 3_600_000;
  const v = (n: number) => ({ ua: BROWSER_UA, ip: `10.2.0.${n}` });
  const lines = [
    ...['0.1', '0.2', '0.7', '19.99'].map((amount, i) => ({ ...v(i + 1), ts: threeDaysAgo + i * 60_000, u: '/shop', e: 'order', revenue: { amount, currency: 'EUR' } })),
    { ...v(9), ts: threeDaysAgo + 600_000, u: '/shop', e: 'order', revenue: { amount: 5, currency: 'USD' } },
    { ...v(9), ts: threeDaysAgo + 660_000, u: '/shop', e: 'signup' },
    { ...v(1), ts: threeDaysAgo + 700_000, u: '/long' },
    { ...v(1), ts: threeDaysAgo + 710_000, u: '/long', e: 'engage', p: { t: 5000 }, sd: 80 },
    { ...v(2), ts: threeDaysAgo + 720_000, u: '/long' },
    { ...v(2), ts: threeDaysAgo + 730_000, u: '/long', e: 'engage', p: { t: 5000 }, sd: 45 },
    { ...v(3), ts: threeDaysAgo + 740_000, u: '/quiet' },
  ];
  const report = await importEvents(server, site.siteId, lines);
  assert.equal(report.body.accepted, lines.length, JSON.stringify(report.body));
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

async function signedIn(viewport = DESKTOP, next?: string) {
  const opened = await openPage(dashboard, viewport);
  await signIn(opened.page, dashboard.server, 'owner@example.com', next);
  return opened;
}

/** The rows of a table as the cells' text. */
const cells = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td'), (c) => c.textContent!.trim())));

describe('revenue and scroll depth in the dashboard', () => {
  test('the goals page shows the revenue, average and currency of revenue goals, dashes for the others', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals?period=7d`);
    await page.waitForFunction(() => document.querySelector('[data-panel="goals"]')?.getAttribute('data-state') === 'ready');
    const headers = await page.locator('[data-panel="goals"] thead th').allTextContents();
    assert.deepEqual(headers.slice(-3), ['Revenue', 'Average revenue', 'Currency']);
    const rows = await cells(page, '[data-panel="goals"] tbody tr');
    const orders = rows.find((r) => r[0]!.startsWith('Orders'))!;
    const signups = rows.find((r) => r[0]!.startsWith('Signups'))!;
    // 0.10 + 0.20 + 0.70 + 19.99 = 20.99 EUR over 4: 5.2475 → 5.25; the USD order is counted, its revenue left out.
    assert.deepEqual(orders.slice(1, 2).concat(orders.slice(-3)), ['5', '20.99', '5.25', 'EUR']);
    assert.match((await page.locator('[data-panel="goals"] tbody tr', { hasText: 'Orders' }).locator('td[title^="Revenue in"]').getAttribute('title'))!, /1 conversion in another currency is left out/);
    assert.deepEqual(signups.slice(-3), ['–', '–', '–']);
    await context.close();
  });

  test('the goal form makes a revenue goal of an event goal with a currency', async () => {
    const { server } = dashboard;
    const { context, page: signedInPage } = await signedIn(DESKTOP, `/sites/${site.siteId}/settings#goals`);
    const page = signedInPage.getByRole('form', { name: 'New goal' });
    await page.getByLabel('Goal name').fill('Tips');
    assert.equal(await page.getByLabel('Revenue currency (optional)').count(), 0, 'page goals take no currency');
    await page.getByLabel('Kind').selectOption('event');
    await page.getByLabel('Goal pattern').fill('tip');
    await page.getByLabel('Revenue currency (optional)').fill('usd');
    assert.equal(await page.getByLabel('Revenue currency (optional)').inputValue(), 'USD');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await signedInPage.getByText('revenue in USD').waitFor();
    const goals = (await server.admin('GET', `/sites/${site.siteId}/goals`)).body.goals as Array<{ name: string; currency?: string }>;
    assert.equal(goals.find((g) => g.name === 'Tips')?.currency, 'USD');
    // A currency the API refuses is said in the form.
    await page.getByLabel('Goal name').fill('Bad');
    await page.getByLabel('Kind').selectOption('event');
    await page.getByLabel('Goal pattern').fill('bad');
    await page.getByLabel('Revenue currency (optional)').fill('e1');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await signedInPage.getByText('currency: a currency is an ISO 4217 code of three capital letters, such as EUR').waitFor();
    assert.deepEqual(await axeViolations(signedInPage), [], 'settings with the currency field, desktop');
    await context.close();
    const phone = await signedIn(PHONE, `/sites/${site.siteId}/settings#goals`);
    await phone.page.getByRole('form', { name: 'New goal' }).getByLabel('Kind').selectOption('event');
    await phone.page.getByLabel('Revenue currency (optional)').waitFor();
    assert.deepEqual(await axeViolations(phone.page), [], 'settings with the currency field, phone');
    await phone.context.close();
  });

  test("the pages' Details show each page's scroll depth; axe-core clean at desktop and phone width", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d`);
      await filled(page);
      await page.locator('[data-panel="pages"]').getByRole('button', { name: /Details/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Page: details' });
      await dialog.locator('tbody tr').first().waitFor();
      assert.equal((await dialog.locator('thead th').allTextContents()).at(-1), 'Scroll depth');
      const rows = Object.fromEntries((await cells(page, '.details tbody tr')).map((r) => [r[0], r.at(-1)]));
      assert.equal(rows['/long'], '63%', '(80 + 45) / 2 rounded half up');
      assert.equal(rows['/quiet'], '–');
      assert.deepEqual(await axeViolations(page), [], `details at ${viewport.width} px`);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals?period=7d`);
      await page.waitForFunction(() => document.querySelector('[data-panel="goals"]')?.getAttribute('data-state') === 'ready');
      assert.deepEqual(await axeViolations(page), [], `goals at ${viewport.width} px`);
      await context.close();
    }
  });

  test('with a filter, the Details leave the scroll depth out (the API reads it unfiltered)', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d&filter=country:FR`);
    await filled(page);
    await page.locator('[data-panel="pages"]').getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Page: details' });
    await dialog.locator('.details-rows[aria-busy="false"]').waitFor();
    assert.ok(!(await dialog.locator('thead th').allTextContents()).includes('Scroll depth'));
    await context.close();
  });
});
