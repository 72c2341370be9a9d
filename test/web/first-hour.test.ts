// What a new site owner meets in the first hour, in real Chromium against a real server: the sign-in
// page's focus and icon, the focus after a filter chip goes, a Details search without match, the chart's y
// labels for small counts and its tooltip on a tap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { axeViolations, checkPage, createUser, DESKTOP, filled, openPage, PHONE, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;
let funnelId: number;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  const day = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 2);
  const report = await importEvents(server, site.siteId, [
    { ts: day + 9 * 3_600_000, ip: '10.2.0.1', ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', country: 'FR', u: '/pricing' },
  ]);
  assert.equal(report.body.accepted, 1, JSON.stringify(report));
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Pricing to signup', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }] });
  funnelId = funnel.body.id;
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] }); // the worker backfills the funnel over the imported day
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
});
after(() => dashboard?.close());

async function signedIn(viewport = DESKTOP, hasTouch = false, email = 'owner@example.com') {
  const opened = await openPage(dashboard, viewport, undefined, hasTouch);
  await signIn(opened.page, dashboard.server, email);
  return opened;
}

const focusedLabel = (page: import('playwright-core').Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? document.activeElement?.tagName);

describe("a site owner's first hour", () => {
  test('the sign-in page focuses Email on load and has an icon', async () => {
    const { context, page } = await openPage(dashboard);
    await page.goto(`${dashboard.server.url}/login`);
    await page.getByLabel('Email').waitFor();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'email');
    await page.keyboard.type('someone@example.com');
    assert.equal(await page.getByLabel('Email').inputValue(), 'someone@example.com');
    // Every page links the icon, served as SVG from the page's origin (the CSP's img-src).
    const icon = (await page.locator('link[rel="icon"]').getAttribute('href'))!;
    assert.equal(await page.evaluate(async (href) => (await fetch(href)).headers.get('content-type'), icon), 'image/svg+xml');
    await context.close();
  });

  test('removing a filter chip moves the focus to the next chip, then to the period picker', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=page:/pricing&filter=country:FR`);
    await page.getByRole('button', { name: 'Remove filter Page' }).click();
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'country:FR');
    // The address changes before the render that moves the focus: wait for that render's chips.
    await page.getByRole('button', { name: 'Remove filter Page' }).waitFor({ state: 'detached' });
    assert.equal(await focusedLabel(page), 'Remove filter Country');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.search === '');
    await page.getByRole('list', { name: 'Active filters' }).waitFor({ state: 'detached' });
    assert.equal(await focusedLabel(page), 'period');
    await context.close();
  });

  test('a Details search without match says so', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await page.locator('[data-panel="pages"] tbody tr').first().waitFor();
    await page.locator('[data-panel="pages"]').getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Page: details' });
    await dialog.getByLabel('Search').fill('nothing-like-this');
    await dialog.getByText('No page matches “nothing-like-this”.').waitFor();
    assert.equal(await dialog.getByText('No data for this period.').count(), 0);
    await context.close();
  });

  test('a funnel names its steps by kind and pattern and shows the visitors lost between them, for a viewer too', async () => {
    const { context, page } = await signedIn(DESKTOP, false, 'viewer@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/funnels/${funnelId}`);
    const steps = page.locator('.funnel-steps li');
    await steps.nth(1).getByText('Event signup').waitFor();
    assert.equal((await steps.nth(0).locator('.step-head strong').textContent())!.trim(), '1. Page /pricing');
    assert.equal(await steps.nth(1).locator('.drop-off').textContent(), '1 visitor lost (100%)');
    assert.equal(await steps.nth(0).locator('.drop-off').count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('realtime lists say they cover 30 minutes; a feed entry of another day shows its date', async () => {
    const { context, page } = await signedIn();
    // Just after midnight in the site's zone (UTC), the feed still holds events of the day before.
    const generatedAt = Date.UTC(2026, 2, 10, 0, 10);
    const entry = { event: 'pageview', path: '/', referrer: '', country: 'FR', city: '', browser: 'Firefox', os: 'Linux', device: 'desktop' };
    await page.route('**/app/v1/sites/*/realtime', (route) =>
      route.fulfill({
        json: {
          generatedAt,
          currentVisitors: 1,
          pageviewsPerMinute: [{ t: generatedAt, value: 2 }],
          topPages: [{ key: '/', visitors: 1, views: 2 }],
          topReferrers: [],
          topCountries: [],
          feed: [{ ...entry, ts: generatedAt - 60_000 }, { ...entry, ts: generatedAt - 20 * 60_000 }],
        },
      }),
    );
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/realtime`);
    await page.locator('.feed li').first().waitFor();
    for (const title of ['Pages', 'Referrers', 'Countries']) {
      assert.equal((await page.getByRole('region', { name: `${title}, last 30 minutes` }).locator('h2').textContent())!, `${title} · last 30 minutes`);
    }
    assert.deepEqual(await page.locator('.feed time').allTextContents(), ['0:09:00', '9 Mar 2026, 23:50:00']);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('the members table fits a 375 px phone', async () => {
    await createUser(dashboard.server, 'a-member-with-a-rather-long-address@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    const { context, page } = await signedIn({ width: 375, height: 740 });
    await page.goto(`${dashboard.server.url}/orgs/${site.orgId}/settings`);
    await page.getByLabel('Role of a-member-with-a-rather-long-address@example.com').waitFor();
    const members = page.locator('#members');
    const card = (await members.boundingBox())!;
    for (const control of [page.getByLabel('Role of a-member-with-a-rather-long-address@example.com'), page.getByRole('button', { name: 'Remove a-member-with-a-rather-long-address@example.com' })]) {
      const box = (await control.boundingBox())!;
      assert.ok(box.x + box.width <= card.x + card.width, `${await control.getAttribute('aria-label')} ends at ${box.x + box.width}, past the card's ${card.x + card.width}`);
    }
    const overflow = await members.locator('table').evaluate((table) => table.scrollWidth - table.parentElement!.clientWidth);
    assert.ok(overflow <= 0, `the table is ${overflow} px wider than its box`);
    await checkPage(page, 'members-375');
    await context.close();
  });

  test('while a new period loads, the previous figures are dimmed and marked busy', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    // The panels and the key figures (which load apart from the panels) have all answered.
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('[data-panel]')).every((p) => p.getAttribute('data-state') === 'ready') && document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false',
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/app/v1/sites/*/{stats,timeseries,breakdown}?*period=7d*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Period', { exact: true }).selectOption('7d');
    await page.waitForFunction(() => document.querySelector('.kpis')?.getAttribute('aria-busy') === 'true');
    // An element's opacity once its transitions (the dimming's) have ended.
    const opacity = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate(async (element) => {
          await Promise.all(element.getAnimations().map((animation) => animation.finished));
          return Number(getComputedStyle(element).opacity);
        });
    assert.ok((await opacity('.kpi-value')) < 1, 'the tiles are dimmed');
    assert.equal(await page.locator('.chart-area').getAttribute('aria-busy'), 'true');
    assert.ok((await opacity('.chart')) < 1, 'the chart is dimmed');
    assert.equal(await page.locator('[data-panel="pages"]').getAttribute('aria-busy'), 'true');
    assert.ok((await opacity('[data-panel="pages"] .rows')) < 1, 'the panels are dimmed');
    release();
    await page.waitForFunction(() => document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' && document.querySelector('[data-panel="pages"]')?.getAttribute('aria-busy') === 'false');
    assert.equal(await opacity('.kpi-value'), 1);
    await context.close();
  });

  test('the chart labels a maximum of 1 visitor with distinct whole numbers', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await page.locator('.chart svg').waitFor();
    const labels = await page.locator('.chart svg .grid text').allTextContents();
    assert.deepEqual(labels, ['0', '1']);
    await context.close();
  });

  test('a tap on the chart shows its tooltip on a phone', async () => {
    const { context, page } = await signedIn(PHONE, true);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    // Every part above the chart holds its answer: the tiles' reasons and the note under them, which
    // come with theirs, would move the chart after its box is measured.
    await filled(page);
    const chart = page.locator('.chart svg');
    // A tap lands only inside the window: the chart may start below it on a phone.
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    // The last event of a tap is the click the browser makes of it, after the finger has lifted.
    await chart.evaluate((svg) => {
      (globalThis as { tapped?: Promise<void> }).tapped = new Promise((resolve) => svg.addEventListener('click', () => resolve(), { once: true }));
    });
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    const tooltip = page.locator('.chart .tooltip');
    await tooltip.waitFor();
    // The tooltip stays after the finger lifts.
    await page.evaluate(() => (globalThis as { tapped?: Promise<void> }).tapped);
    assert.equal(await tooltip.isVisible(), true);
    assert.match((await tooltip.textContent())!, /Visitors: /);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
