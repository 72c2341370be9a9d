// Hostnames and web vitals in the dashboard, in real Chromium against a real server: the Pages
// panel's Hostnames tab, there only for a site whose period has more than one host; the Pages
// details' Web vitals view rating each page's 75th percentiles (or saying how to measure them); axe-core clean.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, DESKTOP, filled, openPage, PHONE, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let twoHosts: SiteFixture;
let oneHost: SiteFixture;

const threeDaysAgo = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3) + 9 * 3_600_000;
const visit = (n: number, u: string, extra: Record<string, unknown> = {}) => ({ ua: BROWSER_UA, ip: `10.3.0.${n}`, ts: threeDaysAgo + n * 60_000, u, ...extra });

before(async () => {
  dashboard = await startDashboard({ env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  twoHosts = await createSite(server, { domain: 'hosts.test', timezone: 'UTC' });
  oneHost = await createSite(server, { domain: 'single.test', timezone: 'UTC' });
  const vitals = (n: number, u: string, p: Record<string, number>) => visit(n, u, { ts: threeDaysAgo + n * 60_000 + 30_000, e: 'engage', p: { t: 3000, d: 40, ...p } });
  const lines = [
    visit(1, 'https://hosts.test/'),
    visit(2, 'https://hosts.test/pricing'),
    visit(3, 'https://docs.hosts.test/start'),
    // `/`: LCP 1200 and 5000 (p75 of two: the larger), INP 150, CLS 0.3, TTFB 900; `/pricing` reports nothing.
    vitals(1, 'https://hosts.test/', { lcp: 1200, inp: 150, cls: 300, ttfb: 900 }),
    vitals(4, 'https://hosts.test/', { lcp: 5000 }),
  ];
  assert.equal((await importEvents(server, twoHosts.siteId, lines)).body.accepted, lines.length);
  assert.equal((await importEvents(server, oneHost.siteId, [visit(4, 'https://single.test/'), visit(5, '/about')])).body.accepted, 2);
  await createUser(server, 'owner@example.com', [
    { orgId: twoHosts.orgId, role: 'owner' },
    { orgId: oneHost.orgId, role: 'owner' },
  ]);
});
after(() => dashboard?.close());

async function signedIn(viewport = DESKTOP) {
  const opened = await openPage(dashboard, viewport);
  await signIn(opened.page, dashboard.server, 'owner@example.com');
  return opened;
}

describe('web vitals in the dashboard', () => {
  test("the Pages details' Web vitals view rates each page's 75th percentiles", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${twoHosts.siteId}?period=7d`);
      await filled(page);
      await page.locator('[data-panel="pages"]').getByRole('button', { name: /Details/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Page: details' });
      await dialog.locator('tbody tr').first().waitFor();
      const toggle = dialog.getByRole('button', { name: 'Web vitals' });
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      await dialog.getByRole('columnheader', { name: 'TTFB' }).waitFor();
      // As shown (innerText): the paths keep their case.
      const rows = await dialog.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('th, td'), (c) => (c as HTMLElement).innerText.trim())));
      const byPage = Object.fromEntries(rows.map((r) => [r[0], r.slice(1)]));
      assert.deepEqual(byPage['/'], ['Poor: 5,000 ms', 'Good: 150 ms', 'Poor: 0.3', 'Needs improvement: 900 ms']);
      assert.deepEqual(byPage['/pricing'], ['–', '–', '–', '–']);
      assert.deepEqual(await axeViolations(page), [], `the Web vitals view at ${viewport.width} px`);
      await context.close();
    }
  });

  test('a period without web vitals says how the tracker measures them', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${oneHost.siteId}?period=7d`);
    await filled(page);
    await page.locator('[data-panel="pages"]').getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Page: details' });
    await dialog.locator('tbody tr').first().waitFor();
    await dialog.getByRole('button', { name: 'Web vitals' }).click();
    await dialog.getByText('No web vitals here: the tracker measures them when its script tag carries data-vitals.').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});

describe('hostnames in the dashboard', () => {
  test('the Pages panel offers a Hostnames tab when the period has two hosts, with their visitors', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${twoHosts.siteId}?period=7d`);
      await filled(page);
      const panel = page.locator('[data-panel="pages"]');
      const tab = panel.getByRole('tab', { name: 'Hostnames' });
      await tab.waitFor();
      assert.deepEqual(await panel.getByRole('tab').allTextContents(), ['Top pages', 'Entry pages', 'Exit pages', 'Hostnames']);
      await tab.click();
      await page.waitForFunction(() => document.querySelector('[data-panel="pages"]')?.getAttribute('data-state') === 'ready');
      await panel.getByText('docs.hosts.test').waitFor();
      assert.equal(await tab.getAttribute('aria-selected'), 'true');
      assert.ok((await panel.textContent())!.includes('hosts.test'));
      assert.deepEqual(await axeViolations(page), [], `the Hostnames tab at ${viewport.width} px`);
      await context.close();
    }
  });

  test('a site with one host in the period has no Hostnames tab', async () => {
    const { context, page } = await signedIn();
    // The hosts are read beside the panel's rows: wait for that read before looking at the tabs.
    const hosts = page.waitForResponse((res) => res.url().includes('dimension=hostname'));
    await page.goto(`${dashboard.server.url}/sites/${oneHost.siteId}?period=7d`);
    await filled(page);
    await hosts;
    const panel = page.locator('[data-panel="pages"]');
    assert.deepEqual(await panel.getByRole('tab').allTextContents(), ['Top pages', 'Entry pages', 'Exit pages']);
    await context.close();
  });
});
