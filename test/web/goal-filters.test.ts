// Goal filters on the dashboard, in real Chromium against a real server: the address keeps
// `filter=goal:<id>`, its chip names the goals, the tiles show the converters, conversions and the
// conversion rate the API answers (the rate in bounce rate's place, and charted), each breakdown row
// its converters, conversions and rate; the Events panel's Goals tab lists every goal and filters by
// the one clicked; the filter dialog offers the site's goals by name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { formatCount, formatMetric, formatRatio } from '../../web/lib/format.js';
import type { SiteFixture } from '../helpers/server.js';
import { checkPage, CHROME_UA, createUser, DESKTOP, filled, FIREFOX_UA, goalFixtureSite, PHONE, signedInPage, startDashboard, visitor, type Dashboard } from './harness.js';


let dashboard: Dashboard;
/** Four visitors in three countries; an event goal, a one-page goal and a wildcard page goal. */
let site: SiteFixture;
let goalIds: Record<string, number>;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  const a = visitor('10.4.0.1', FIREFOX_UA, 'FR');
  const b = visitor('10.4.0.2', CHROME_UA, 'DE');
  const c = visitor('10.4.0.3', CHROME_UA, 'FR');
  const d = visitor('10.4.0.4', FIREFOX_UA, 'US');
  ({ site, goalIds } = await goalFixtureSite(server, (at) => [
    { ...a, ts: at(9), u: '/', r: 'https://www.google.com/' },
    { ...a, ts: at(9, 1), u: '/pricing' },
    { ...a, ts: at(9, 2), u: '/pricing', e: 'signup' },
    { ...a, ts: at(9, 3), u: '/pricing', e: 'signup' },
    { ...b, ts: at(10), u: '/blog/first' },
    { ...b, ts: at(10, 1), u: '/pricing' },
    { ...c, ts: at(11), u: '/' },
    { ...d, ts: at(12), u: '/blog/second', r: 'https://www.google.com/' },
  ]));
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

const signedIn = (viewport = DESKTOP) => signedInPage(dashboard, 'owner@example.com', viewport);

/** The read API's answer, read by the signed-in page as the dashboard reads it. */
const api = (page: Page, path: string, params: string) =>
  page.evaluate(async (url) => (await fetch(url)).json(), `/app/v1/sites/${encodeURIComponent(site.siteId)}${path}?${params}`);

const tileValue = (page: Page, metric: string) => page.locator(`.kpi[data-metric="${metric}"] .kpi-value`).textContent();
const chips = (page: Page) => page.locator('.chips .chip').evaluateAll((items) => items.map((li) => li.textContent?.replace('×', '').trim()));

describe('goal filters on the dashboard', () => {
  test('a goal filter in the address: its chip names the goal, the tiles and the rows (converters, conversion rate) show what the API answers', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      const filter = `goal:${goalIds['Saw pricing']}`;
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=${filter}`);
      await filled(page);
      assert.deepEqual(await chips(page), ['Goal is Saw pricing']);
      const params = `period=30d&filter=${filter}&raw=clip`;
      const { stats } = await api(page, '/stats', `${params}&elapsed=true`);
      assert.equal(stats.visitors.value, 2, 'two visitors saw /pricing');
      assert.equal(await tileValue(page, 'visitors'), formatCount(stats.visitors.value));
      assert.equal(await page.locator('.kpi[data-metric="visitors"] .kpi-label').textContent(), 'Converters');
      assert.equal(await tileValue(page, 'conversions'), formatCount(stats.conversions.value));
      assert.equal(await tileValue(page, 'conversionRate'), formatMetric('conversionRate', stats.conversionRate.value));
      assert.equal(await tileValue(page, 'conversionRate'), formatMetric('conversionRate', 0.5));
      assert.equal(await page.locator('.kpi[data-metric="bounceRate"]').count(), 0, 'the conversion rate stands in its place');
      // The conversions say what pageviews would: no pageviews tile, nor views per visit.
      assert.equal(await page.locator('.kpi[data-metric="pageviews"], .kpi[data-figure="viewsPerVisit"]').count(), 0, 'no pageviews under a goal filter');
      // Each country's converters, conversions and rate, as the API's breakdown rows give them.
      const { rows } = await api(page, '/breakdown', `${params}&dimension=country&limit=10`);
      const panel = page.locator('[data-panel="locations"]');
      assert.deepEqual(await panel.locator('thead th').allTextContents(), ['Country', 'Converters', 'Conversion rate']);
      const shown = await panel.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td.num'), (td) => td.textContent)));
      assert.deepEqual(
        shown,
        rows.map((r: { visitors: number; conversionRate: number | null }) => [formatCount(r.visitors), formatMetric('conversionRate', r.conversionRate)]),
      );
      // The row's conversions in its rate's title, the word's plural by the count.
      const conversions = `${rows[0].conversions} ${rows[0].conversions === 1 ? 'conversion' : 'conversions'};`;
      assert.ok(((await panel.locator('td.conversion-rate').first().getAttribute('title')) ?? '').startsWith(conversions), conversions);
      assert.equal(rows.length, 2, 'France and Germany');
      await checkPage(page, `goal-filter-${name}`);
      // Details lists the same converters and rates beside the other figures.
      await panel.getByRole('button', { name: 'Details: Country' }).click();
      const details = page.getByRole('dialog', { name: 'Country: details' });
      await details.locator('tbody tr').first().waitFor();
      const heads = await details.locator('thead th').allTextContents();
      assert.deepEqual(heads.slice(0, 3).map((h) => h.replace(/[▾▴]/g, '').trim()), ['Country', 'Converters', 'Conversion rate']);
      assert.ok(!heads.some((h) => h.startsWith('Pageviews')), `no pageviews under a goal filter: ${heads.join(', ')}`);
      const first = await details.locator('tbody tr').first().locator('td.num').allTextContents();
      assert.deepEqual(first.slice(0, 2), shown[0]);
      await context.close();
    }
  });

  test('the conversion rate and the conversions chart under a goal filter, by the hour on a one-day period; the filter removed, conversions stay charted', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=goal:${goalIds['Signup']}|${goalIds['Saw pricing']}`);
    await filled(page);
    assert.deepEqual(await chips(page), ['Goal is Signup or Saw pricing']);
    for (const metric of ['conversionRate', 'conversions']) {
      await page.locator(`.kpi[data-metric="${metric}"]`).click();
      await page.waitForURL((url) => url.searchParams.get('metric') === metric);
      await filled(page);
      assert.equal(await page.locator('[data-panel="chart"]').getAttribute('data-state'), 'ready', metric);
      assert.equal(await page.locator(`.kpi[data-metric="${metric}"]`).getAttribute('aria-pressed'), 'true');
    }
    // A one-day period charts them by the hour under a goal filter; without one, the chart says what to do.
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=today&filter=goal:${goalIds['Signup']}&metric=conversions`);
    await filled(page);
    assert.equal(await page.locator('[data-panel="chart"]').getAttribute('data-state'), 'ready');
    const hourly = await api(page, '/timeseries', `period=today&filter=goal:${goalIds['Signup']}&raw=clip&metric=conversions`);
    assert.equal(hourly.grain, 'hour');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=today&metric=conversions`);
    await page.locator('[data-panel="chart"]').getByText('filter by a goal to chart its conversions by the hour').waitFor();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=goal:${goalIds['Signup']}|${goalIds['Saw pricing']}&metric=conversions`);
    await filled(page);
    await page.getByRole('button', { name: 'Remove filter Goal' }).click();
    await page.waitForURL((url) => !url.search.includes('goal'));
    assert.equal(new URL(page.url()).searchParams.get('metric'), 'conversions', 'conversions stay charted');
    await context.close();
  });

  test("the Events panel's Goals tab lists every goal, page goals too, as the goals answer gives them; a goal clicked filters the view by it", async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
      await filled(page);
      const events = page.locator('[data-panel="events"]');
      await events.getByRole('tab', { name: 'Goals' }).click();
      const { goals } = await api(page, '/goals', 'period=30d');
      assert.deepEqual(await events.locator('thead th').allTextContents(), ['Goal', 'Converters', 'Conversion rate']);
      const rows = await events.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())));
      assert.deepEqual(
        rows,
        goals.map((g: { name: string; uniqueConversions: number; conversionRate: number }) => [g.name, formatCount(g.uniqueConversions), formatRatio(g.conversionRate, 'en-GB')]),
      );
      assert.deepEqual(rows.map((r) => r[0]).sort(), ['Read the blog', 'Saw pricing', 'Signup']);
      await checkPage(page, `goals-tab-${name}`);
      await events.getByRole('button', { name: 'Read the blog' }).click();
      await page.waitForURL((url) => url.searchParams.get('filter') === `goal:${goalIds['Read the blog']}`);
      await filled(page);
      assert.deepEqual(await chips(page), ['Goal is Read the blog']);
      assert.equal(await tileValue(page, 'visitors'), '2', 'two visitors read the blog');
      assert.equal(await tileValue(page, 'conversionRate'), formatMetric('conversionRate', 0.5));
      await context.close();
    }
  });

  test('the filter dialog offers Goal: the site\'s goals by name, `is` only, applied as goal:<id>; its chip edits it', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
      await filled(page);
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a filter' });
      await dialog.getByLabel('Dimension').selectOption({ label: 'Goal' });
      assert.deepEqual(await dialog.getByLabel('Operator').locator('option').allTextContents(), ['is']);
      await dialog.getByRole('listbox').getByRole('option').first().waitFor();
      assert.deepEqual((await dialog.locator('.value-key').allTextContents()).sort(), ['Read the blog', 'Saw pricing', 'Signup']);
      await checkPage(page, `filter-goal-${name}`);
      await dialog.getByRole('combobox', { name: 'Value' }).fill('pric');
      await page.waitForFunction(() => Array.from(document.querySelectorAll('li[role="option"] .value-key'), (k) => k.textContent).join() === 'Saw pricing');
      await dialog.getByText('On Apply: Goal is Saw pricing').waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === `goal:${goalIds['Saw pricing']}`);
      assert.deepEqual(await chips(page), ['Goal is Saw pricing']);
      // The chip opens the dialog on its goal; a second goal joins it as an `or`.
      await page.locator('.chip-edit').click();
      const edit = page.getByRole('dialog', { name: 'Edit filter' });
      await edit.getByRole('button', { name: 'Remove value Saw pricing' }).waitFor();
      await edit.getByRole('combobox', { name: 'Value' }).fill('sign');
      await edit.getByText('On Apply: Goal is Saw pricing or Signup').waitFor();
      await edit.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === `goal:${goalIds['Saw pricing']}|${goalIds['Signup']}`);
      await filled(page);
      assert.deepEqual(await chips(page), ['Goal is Saw pricing or Signup']);
      await context.close();
    }
  });
  test('a goal filter said in words names its goal: the Save as segment dialog, the saved segment in the list, the journeys page', async () => {
    const { context, page } = await signedIn();
    const filter = `goal:${goalIds.Signup}`;
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=${filter}`);
    await filled(page);
    await page.getByRole('button', { name: 'Save as segment' }).click();
    const save = page.getByRole('dialog', { name: 'Save as segment' });
    assert.equal(await save.locator('p.muted').textContent(), 'Goal is Signup');
    await save.getByLabel('Name').fill('Signed up');
    await save.getByRole('button', { name: 'Save' }).click();
    await save.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Segments', exact: true }).click();
    const listed = page.getByRole('dialog').locator('li.segment', { hasText: 'Signed up' });
    assert.equal(await listed.locator('.muted').textContent(), 'Goal is Signup');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?filter=${filter}`);
    const words = page.locator('.view-filters');
    await words.waitFor();
    await page.waitForFunction(() => document.querySelector('.view-filters')?.textContent?.includes('Goal is Signup'));
    assert.match((await words.textContent()) ?? '', /^Under Goal is Signup\. /);
    await context.close();
  });
});
