// Custom properties on the dashboard, in real Chromium against a real server: the Events panel's
// Properties tab picks a key among the site's and ranks its values, a click on a value filters the
// view by it, the filter shows as a chip that the keyboard removes, and the goal form takes the
// property values a goal requires; axe-core at desktop and phone width, light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, filled, LOOKS, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  const day = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 2);
  const at = (hour: number) => day + hour * 3_600_000;
  // Three visitors sign up on plan pro, one on free; the pro ones also choose a colour.
  const lines = [
    ...[1, 2, 3].map((v) => ({ ip: `10.4.0.${v}`, ua: CHROME, ts: at(8 + v), u: '/signup', e: 'signup', p: { plan: 'pro', colour: v === 1 ? 'red' : 'blue' } })),
    { ip: '10.4.0.9', ua: CHROME, ts: at(12), u: '/signup', e: 'signup', p: { plan: 'free' } },
    ...[1, 2, 3, 9].map((v) => ({ ip: `10.4.0.${v}`, ua: CHROME, ts: at(8 + (v % 8)) - 60_000, u: '/' })),
  ];
  const report = await importEvents(server, site.siteId, lines);
  assert.equal(report.body.accepted, lines.length, JSON.stringify(report.body));
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

const eventsPanel = (page: Page) => page.locator('[data-panel="events"]');
const rowsOf = (page: Page) => eventsPanel(page).locator('.rows tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim())));

describe('custom properties on the dashboard', () => {
  test('the Properties tab ranks the values of a picked key; a value filters the view, its chip goes with the keyboard', async () => {
    for (const look of LOOKS) {
      const { context, page } = await openPage(dashboard, look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await signIn(page, dashboard.server, 'owner@example.com');
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d`);
      await filled(page);
      const tab = eventsPanel(page).getByRole('tab', { name: 'Properties' });
      await tab.click();
      await page.locator('[data-panel="events"][data-state="ready"] .rows').waitFor();
      const picker = eventsPanel(page).getByLabel('Property', { exact: true });
      assert.deepEqual(await picker.locator('option').allTextContents(), ['plan', 'colour'], 'keys by events carrying them');
      // The values first; (none) last: the pageviews, which carry no property, of all four visitors.
      assert.deepEqual(await rowsOf(page), [['pro', '3'], ['free', '1'], ['(none)', '4']]);
      await checkPage(page, `properties-${look.name}`);
      await picker.selectOption('colour');
      await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-panel="events"] .rows tbody tr td')).some((td) => td.textContent?.trim() === 'blue'));
      assert.deepEqual(await rowsOf(page), [['blue', '2'], ['red', '1'], ['(none)', '4']]);
      await context.close();
    }

    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'owner@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d`);
    await filled(page);
    await eventsPanel(page).getByRole('tab', { name: 'Properties' }).click();
    await page.locator('[data-panel="events"][data-state="ready"] .rows').waitFor();
    await eventsPanel(page).getByRole('button', { name: 'pro', exact: true }).click();
    await page.waitForURL(/filter=prop\.plan%3Apro/);
    await filled(page);
    const chip = page.locator('.filter-bar li', { hasText: 'Property plan is pro' });
    await chip.waitFor();
    const visitors = await page.locator('.kpi', { has: page.locator('.kpi-label', { hasText: 'Visitors' }) }).locator('.kpi-value').textContent();
    assert.equal(visitors, '3', 'the view counts the visitors of the events with the value');
    await checkPage(page, 'property-filter');
    // The chip's button is reached and pressed with the keyboard.
    const remove = chip.getByRole('button', { name: 'Remove filter Property plan' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.search.includes('filter='));
    assert.equal(await page.locator('.filter-bar li', { hasText: 'Property plan' }).count(), 0);
    await context.close();
  });

  test('the goal form takes the property values an event goal requires', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'owner@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/settings#goals`);
    const form = page.locator('#goals');
    await form.getByLabel('Goal name').fill('Pro signup');
    await form.getByLabel('Kind').selectOption('event');
    await form.getByLabel('Goal pattern').fill('signup');
    await form.getByLabel('Property values (optional)').fill('plan=pro\nnot a pair');
    await form.getByRole('button', { name: 'Add goal' }).click();
    await form.getByText('“not a pair” is not one').waitFor();
    await form.getByLabel('Property values (optional)').fill('plan = pro\n\n');
    await form.getByRole('button', { name: 'Add goal' }).click();
    await form.locator('td', { hasText: 'with plan = pro' }).waitFor();
    const goals = await dashboard.server.admin('GET', `/sites/${site.siteId}/goals`);
    assert.deepEqual(goals.body.goals.map((g: { name: string; props?: unknown }) => [g.name, g.props]), [['Pro signup', { plan: 'pro' }]]);
    await checkPage(page, 'goal-props');
    await context.close();
  });
});
