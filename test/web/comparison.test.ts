// Comparisons that do not mislead, in real Chromium against a real server: a change against nothing
// is `—`, the bounce rate's in points, the comparison is chosen and kept in the address, and the
// day under way is drawn dashed with the days to come left out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

const DAY = 86_400_000;
const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

let dashboard: Dashboard;
let site: SiteFixture;

/** Visits on a day `daysAgo` days before today (UTC): one per entry, of that many pageviews. */
function visits(daysAgo: number, pageviews: number[], ipBase: number) {
  const now = new Date();
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo);
  return pageviews.flatMap((count, v) =>
    Array.from({ length: count }, (_, i) => ({ ts: day + 9 * 3_600_000 + i * 60_000, ip: `10.3.${ipBase}.${v + 1}`, ua: UA, u: `/p${i}` })),
  );
}

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  site = await createSite(dashboard.server, { timezone: 'UTC' });
  // The last 7 days: 2 visitors, one bounce (50%). The 7 days before: 4 visitors, one bounce (25%).
  const report = await importEvents(dashboard.server, site.siteId, [...visits(2, [1, 2], 1), ...visits(9, [2, 2, 1, 2], 2)]);
  assert.equal(report.body.rejected, 0, JSON.stringify(report));
  await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

async function dashboardAt(search: string) {
  const opened = await openPage(dashboard);
  await signIn(opened.page, dashboard.server, 'owner@example.com');
  await opened.page.goto(`${dashboard.server.url}/sites/${site.siteId}${search}`);
  await opened.page.waitForFunction(() => ['overview', 'chart'].every((p) => document.querySelector(`[data-panel="${p}"]`)?.getAttribute('data-state') === 'ready'));
  return opened;
}

const change = (page: import('playwright-core').Page, metric: string) => page.locator(`.kpi[data-metric="${metric}"] .kpi-change`).textContent();

describe('comparisons that do not mislead', () => {
  test('the previous period: percent for counts, points for the bounce rate', async () => {
    const { context, page } = await dashboardAt('?period=7d');
    assert.match((await change(page, 'visitors'))!, /^-50% vs previous period$/);
    assert.match((await change(page, 'bounceRate'))!, /^\+25 pp vs previous period$/);
    assert.equal(await page.locator('.kpi[data-metric="bounceRate"] .kpi-change').getAttribute('class'), 'kpi-change down');
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('a year earlier, chosen in the view and kept in the address: no data there reads —, in a neutral colour', async () => {
    const { context, page } = await dashboardAt('?period=7d');
    await page.getByLabel('Compare with').selectOption('year');
    await page.waitForURL(/comparison=year/);
    await page.waitForFunction(() => document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' && document.querySelector('.legend .previous')?.textContent === 'A year earlier');
    assert.equal(await change(page, 'visitors'), '— vs a year earlier');
    assert.equal(await change(page, 'bounceRate'), '— vs a year earlier');
    assert.equal(await page.locator('.kpi[data-metric="visitors"] .kpi-change').getAttribute('class'), 'kpi-change ');
    assert.equal(await page.locator('.legend .previous').textContent(), 'A year earlier');
    await page.reload();
    assert.equal(await page.getByLabel('Compare with').inputValue(), 'year');
    await page.getByLabel('Compare with').selectOption('off');
    await page.waitForURL(/comparison=off/);
    await page.waitForFunction(() => document.querySelectorAll('.kpi-change').length === 0 && !document.querySelector('.legend .previous'));
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('the day under way is dashed, never a drop; the days to come are not drawn', async () => {
    const now = new Date();
    const day = (n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + n)).toISOString().slice(0, 10);
    const { context, page } = await dashboardAt(`?from=${day(-6)}&to=${day(3)}`);
    const points = async (selector: string) => ((await page.locator(`.chart svg ${selector}`).getAttribute('d')) ?? '').split(/[ML]/).filter(Boolean).length;
    assert.equal(await points('.line'), 6, 'the complete days');
    assert.equal(await points('.partial-line'), 2, 'from the last complete day to today');
    const dashes = await page.locator('.chart svg .partial-line').evaluate((element) => getComputedStyle(element).strokeDasharray);
    assert.notEqual(dashes, 'none');
    assert.equal(await page.locator('.chart svg .partial-point').count(), 1);
    assert.equal(await page.locator('.legend .partial').textContent(), 'Current day so far');
    assert.match((await page.locator('.chart svg').getAttribute('aria-label'))!, /the current day still under way/);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
