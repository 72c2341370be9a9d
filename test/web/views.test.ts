// The site's analytics views in real Chromium, against a real server holding imported events of
// known figures: KPI tiles, panels, click filters and their chips, the address as the view,
// readable API errors, CSV exports, realtime refresh, goals, funnels, the viewer role, axe-core
// and screenshots at desktop and phone width.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { formatMetric } from '../../web/lib/format.js';
import { shownMetrics } from '../../src/core/metric-registry.js';
import { sitePath } from '../../src/core/app-paths.js';
import { dashboardReads } from '../../src/core/dashboard-reads.js';
import { parseCsv } from '../helpers/csv.js';
import { browserHeaders, BROWSER_UA, createApiKey, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, DESKTOP, filled, openPage, PHONE, screenshotDir, signIn, startDashboard, type Dashboard } from './harness.js';

const TZ = 'Europe/Paris';
const LOCALE = 'en-GB';
const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const FORMULA_CAMPAIGN = '=HYPERLINK("http://evil.example","x")';

let dashboard: Dashboard;
let site: SiteFixture;
let funnelId: number;
let read: (path: string) => Promise<any>;

/** Five visitors three days ago: 7 pageviews, one signup, known pages, places, sources and devices. */
function knownEvents(day: number) {
  const at = (hour: number, minute = 0) => day + hour * 3_600_000 + minute * 60_000;
  const v = (ip: string, ua: string, country: string) => ({ ip, ua, country });
  const a = v('10.1.0.1', BROWSER_UA, 'FR');
  const b = v('10.1.0.2', IPHONE, 'FR');
  const c = v('10.1.0.3', FIREFOX, 'DE');
  const d = v('10.1.0.4', BROWSER_UA, 'US');
  const e = v('10.1.0.5', MAC_SAFARI, 'US');
  return [
    { ...a, ts: at(9), u: '/', r: 'https://www.google.com/' },
    { ...a, ts: at(9, 2), u: '/pricing' },
    { ...b, ts: at(10), u: '/' },
    { ...c, ts: at(11), u: `/blog?utm_source=newsletter&utm_medium=email&utm_campaign=${encodeURIComponent(FORMULA_CAMPAIGN)}` },
    { ...d, ts: at(12), u: '/pricing', r: 'https://news.ycombinator.com/' },
    { ...d, ts: at(12, 3), u: '/signup' },
    { ...d, ts: at(12, 4), u: '/signup', e: 'signup' },
    { ...e, ts: at(13), u: '/' },
  ];
}

before(async () => {
  dashboard = await startDashboard({ env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: TZ });
  await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Pricing to signup', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }] });
  funnelId = funnel.body.id;
  // A second version of the funnel: the version selector offers both.
  await server.admin('PUT', `/sites/${site.siteId}/funnels/${funnelId}/steps`, { steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'page', pattern: '/signup' }] });
  const threeDaysAgo = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3);
  const report = await importEvents(server, site.siteId, knownEvents(threeDaysAgo));
  assert.equal(report.body.accepted, 8, JSON.stringify(report));
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
  const key = await createApiKey(server, site.orgId);
  read = async (path) => (await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
});
after(() => dashboard?.close());

async function signedIn(email = 'owner@example.com', viewport = DESKTOP) {
  const opened = await openPage(dashboard, viewport);
  await signIn(opened.page, dashboard.server, email);
  return opened;
}

const tile = (page: Page, label: string) => page.locator('.kpi', { has: page.locator('.kpi-label', { hasText: label }) });
const panel = (page: Page, id: string) => page.locator(`[data-panel="${id}"]`);

/** The panel's rows as [key as shown, visitors as shown]. */
async function panelRows(page: Page, id: string): Promise<string[][]> {
  return panel(page, id).locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent!.trim())));
}

describe('site dashboard', () => {
  test('the KPI tiles show the figures of the read API and every panel its rows', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    const { stats } = await read('/stats?period=30d');
    assert.equal(stats.visitors.value, 5);
    assert.equal(stats.pageviews.value, 7);
    const labels = ['Visitors', 'Pageviews', 'Visits', 'Bounce rate', 'Visit duration', 'Conversions'];
    for (const [i, metric] of shownMetrics([]).entries()) {
      assert.equal(await tile(page, labels[i]!).locator('.kpi-value').textContent(), formatMetric(metric, stats[metric].value, LOCALE), labels[i]);
    }
    assert.deepEqual(await panelRows(page, 'pages'), [['/', '3'], ['/pricing', '2'], ['/blog', '1'], ['/signup', '1']]);
    assert.deepEqual(await panelRows(page, 'locations'), [['🇫🇷 France', '2'], ['🇺🇸 United States', '2'], ['🇩🇪 Germany', '1']]);
    assert.deepEqual((await panelRows(page, 'sources')).map((r) => r[0]), ['Direct / None', 'google.com', 'news.ycombinator.com']);
    assert.equal((await panelRows(page, 'devices')).length >= 3, true);
    // The signup event is the Signup goal: its conversion rate beside its visitors (from the goals
    // answer, read apart from the panels that filled() waits for).
    await panel(page, 'events').locator('.goal-rate').waitFor();
    assert.deepEqual(await panelRows(page, 'events'), [['pageview', '5', ''], ['signup', '1', '20%']]);
    assert.equal(await page.locator('.zone .tz').textContent(), TZ);
    await context.close();
  });

  test('the page shell preloads the session, the sites and every first read of the view, and the page takes those answers', async () => {
    const { context, page } = await signedIn();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (/preload/i.test(message.text())) warnings.push(message.text());
    });
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d&metric=pageviews&filter=country:FR`);
    await filled(page);
    const preloaded = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]'), (link) => new URL(link.href).pathname + new URL(link.href).search),
    );
    const reads = dashboardReads('?period=7d&metric=pageviews&filter=country:FR').map((r) => `/app/v1${sitePath(site.siteId, r)}`);
    assert.deepEqual(preloaded, ['/app/v1/session', '/app/v1/sites', ...reads]);
    // Each asked once: the preload, whose answer the page's own read takes (the browser's resource
    // timing lists every request it made; a read that missed its preload would be a second entry).
    const fetched = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name)).filter((url) => url.pathname.startsWith('/app/v1/')).map((url) => url.pathname + url.search),
    );
    for (const path of preloaded) assert.equal(fetched.filter((p) => p === path).length, 1, path);
    assert.deepEqual(warnings, []);
    assert.equal(await tile(page, 'Pageviews').getAttribute('aria-pressed'), 'true');
    await context.close();
  });

  test('a row click filters every figure and the address; removing the chip restores them', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    await panel(page, 'pages').getByRole('button', { name: '/pricing', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'page:/pricing');
    await filled(page);
    assert.equal(await tile(page, 'Visitors').locator('.kpi-value').textContent(), '2');
    assert.deepEqual(await panelRows(page, 'locations'), [['🇫🇷 France', '1'], ['🇺🇸 United States', '1']]);
    const chip = page.getByRole('button', { name: 'Remove filter Page' });
    await chip.click();
    await page.waitForURL((url) => url.search === '');
    await filled(page);
    assert.equal(await tile(page, 'Visitors').locator('.kpi-value').textContent(), '5');
    assert.equal(await page.getByRole('button', { name: 'Remove filter Page' }).count(), 0);
    await context.close();
  });

  test('period and metric in the address select the picker and the chart, and a reload keeps them', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d&metric=pageviews`);
    await filled(page);
    for (let round = 0; round < 2; round++) {
      assert.equal(await page.getByLabel('Period', { exact: true }).inputValue(), '7d');
      assert.equal(await tile(page, 'Pageviews').getAttribute('aria-pressed'), 'true');
      assert.equal(await tile(page, 'Visitors').getAttribute('aria-pressed'), 'false');
      assert.match((await page.locator('.chart svg').getAttribute('aria-label'))!, /^Pageviews over the period, 7 days/);
      await page.reload();
      await filled(page);
    }
    // A tile click and a preset change write the address.
    await tile(page, 'Bounce rate').click();
    await page.waitForURL((url) => url.searchParams.get('metric') === 'bounceRate');
    await page.getByLabel('Period', { exact: true }).selectOption('90d');
    await page.waitForURL((url) => url.searchParams.get('period') === '90d' && url.searchParams.get('metric') === 'bounceRate');
    // Hovering the chart shows a bucket's date in the site's zone and its value.
    await filled(page);
    const box = (await page.locator('.chart svg').boundingBox())!;
    // The right margin of the plot is 12 px: the last bucket is there.
    await page.mouse.move(box.x + box.width - 12, box.y + box.height / 2);
    const tooltip = page.locator('.chart .tooltip');
    await tooltip.waitFor();
    const today = new Intl.DateTimeFormat(LOCALE, { timeZone: TZ, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date());
    assert.equal(await tooltip.locator('strong').textContent(), today);
    assert.match((await tooltip.textContent())!, /Bounce rate: /);
    // Keyboard: `w` picks the last 7 days; `?` lists the shortcuts.
    await page.locator('body').press('w');
    await page.waitForURL((url) => url.searchParams.get('period') === '7d');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await context.close();
  });

  test('two filters over a year read the days inside the raw window, with one notice and no error box', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=year&filter=country:FR&filter=device:mobile`);
    await filled(page);
    await page.locator('[data-note="raw-window"]').getByText(/count from .*they need single events/).waitFor();
    assert.equal(await page.locator('.error').count(), 0, 'no error box');
    assert.equal(await page.getByRole('button', { name: 'Remove filter Country' }).count(), 1);
    await context.close();
  });

  test('Export CSV downloads what the panel shows; a formula is neutralised', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    const names: string[] = [];
    const download = async (trigger: () => Promise<void>) => {
      const [file] = await Promise.all([page.waitForEvent('download'), trigger()]);
      names.push(file.suggestedFilename());
      return parseCsv(readFileSync((await file.path())!, 'utf8'));
    };
    const pages = await download(() => panel(page, 'pages').getByRole('link', { name: 'Export CSV' }).click());
    // Named as the panel and the days it counts.
    const { period } = await read('/stats?period=30d');
    assert.equal(names[0], `page-${period.from}-to-${period.to}.csv`);
    // Every figure Details shows: a page's landings' bounce rate, visit duration and time on page (the
    // dashboard's raw=clip reads), and its scroll depth (empty: no page reported one).
    assert.deepEqual(pages[0], ['Page', 'Visitors', 'Views', 'Share of visitors', 'Bounce rate', 'Visit duration', 'Time on page', 'Scroll depth']);
    assert.deepEqual(new Set(pages.slice(1).map((r) => r[7])), new Set(['']));
    assert.deepEqual(pages.slice(1).map((r) => [r[0], r[1]]), await panelRows(page, 'pages'));
    assert.deepEqual(pages.slice(1).map((r) => r[2]), ['3', '2', '1', '1']);

    await panel(page, 'sources').getByRole('tab', { name: 'UTM campaigns' }).click();
    await filled(page);
    // The campaign first, `(none)` (the visits without one) after it.
    assert.deepEqual(await panelRows(page, 'sources'), [[FORMULA_CAMPAIGN, '1'], ['(none)', '4']]);
    const campaigns = await download(() => panel(page, 'sources').getByRole('link', { name: 'Export CSV' }).click());
    assert.deepEqual(campaigns[0], ['UTM campaign', 'Visitors', 'Views', 'Share of visitors', 'Bounce rate', 'Visit duration']);
    // The campaign's one visitor read one page: a bounce, of no duration (figures as the API gives them).
    assert.deepEqual(campaigns[2], [`'${FORMULA_CAMPAIGN}`, '1', '1', '0.2', '1', '0']);
    assert.equal(names[1], `utm-campaign-${period.from}-to-${period.to}.csv`);

    // Device classes capitalised on screen (the CSV keeps the key).
    await panel(page, 'devices').getByRole('tab', { name: 'Devices' }).click();
    await filled(page);
    assert.deepEqual(await panelRows(page, 'devices'), [['Desktop', '4'], ['Mobile', '1']]);

    const series = await download(() => panel(page, 'chart').getByRole('link', { name: 'Export CSV' }).click());
    assert.deepEqual(series[0], ['Bucket', 'visitors', 'Previous bucket', 'Previous visitors']);
    assert.equal(names[2], `visitors-${period.from}-to-${period.to}.csv`);
    assert.equal(series.length, 31);
    assert.equal(series.slice(1).reduce((n, r) => n + Number(r[1]), 0), 5);
    await context.close();
  });

  test('Details lists every row with search and pages', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    await panel(page, 'pages').getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Page: details' });
    await dialog.getByText('1–4 of 4').waitFor();
    await dialog.getByLabel('Search').fill('pric');
    await dialog.getByText('1–1 of 1').waitFor();
    assert.deepEqual(await dialog.locator('tbody tr td:first-child').allTextContents(), ['/pricing']);
    await dialog.getByRole('button', { name: '/pricing' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'page:/pricing');
    await context.close();
  });

  test('Details shows views, bounce rate and visit duration per key, each column sortable', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d`);
    await filled(page);
    await panel(page, 'locations').getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Country: details' });
    await dialog.getByText('1–3 of 3').waitFor();
    assert.deepEqual(await dialog.locator('thead th').allTextContents(), ['Country', 'Visitors ▾', 'Pageviews', 'Bounce rate', 'Visit duration']);
    const table = async () => (await dialog.locator('tbody tr').all()).map((row) => row.locator('td').allTextContents());
    // FR: a (2 pages over 2 minutes) and b (one page, a bounce); US: d (2 pages and a signup, 4 minutes) and e (a bounce); DE: c (a bounce).
    // Keys as read, without their flags.
    const named = (key: string) => key.replace(/^\P{L}+/u, '');
    const byCountry = async () => Object.fromEntries((await Promise.all(await table())).map(([key, ...figures]) => [named(key!), figures]));
    assert.deepEqual(await byCountry(), {
      France: ['2', '3', '50%', '1m 0s'],
      'United States': ['2', '3', '50%', '2m 0s'],
      Germany: ['1', '1', '100%', '0s'],
    });
    // Each figure is the one the dashboard shows filtered by the key: the API's stats under its filter.
    for (const [code, name] of [['FR', 'France'], ['US', 'United States'], ['DE', 'Germany']]) {
      const stats = (await read(`/stats?period=7d&filter=country:${code}`)).stats;
      const shown = (await byCountry())[name!]!;
      assert.deepEqual(shown.slice(2), [formatMetric('bounceRate', stats.bounceRate.value, LOCALE), formatMetric('avgDuration', stats.avgDuration.value, LOCALE)], name);
    }
    const keys = async () => (await dialog.locator('tbody tr td:first-child').allTextContents()).map(named);
    await dialog.getByRole('button', { name: 'Visit duration' }).click();
    assert.equal(await dialog.locator('th[aria-sort="descending"]').textContent(), 'Visit duration ▾');
    assert.deepEqual(await keys(), ['United States', 'France', 'Germany']);
    await dialog.getByRole('button', { name: 'Visit duration' }).click();
    assert.deepEqual(await keys(), ['Germany', 'France', 'United States']);
    await dialog.getByRole('button', { name: 'Country' }).click();
    assert.equal(await dialog.locator('th[aria-sort="ascending"]').textContent(), 'Country ▴');
    assert.deepEqual(await keys(), ['France', 'Germany', 'United States']);
    // Pages: views, the landings' bounce rate, visit duration, time on page and scroll depth.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await panel(page, 'pages').getByRole('button', { name: /Details/ }).click();
    const pages = page.getByRole('dialog', { name: 'Page: details' });
    await pages.getByText('1–4 of 4').waitFor();
    assert.deepEqual(await pages.locator('thead th').allTextContents(), ['Page', 'Visitors ▾', 'Pageviews', 'Bounce rate', 'Visit duration', 'Time on page', 'Scroll depth']);
    await context.close();
  });
});

describe('other views', () => {
  test('goals and funnels: conversions, steps with the rate from the previous step, the version selector', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals`);
    const row = page.locator('[data-panel="goals"] tbody tr');
    await row.first().waitFor();
    await page.locator('[data-panel="goals"][data-state="ready"]').waitFor();
    // Conversions, rate, unique conversions, the change of conversions (none before: —) and of the rate (— too).
    assert.deepEqual((await row.first().locator('td').allTextContents()).slice(1, 6), ['1', '20%', '1', '—', '—']);
    await page.getByRole('link', { name: 'Pricing to signup' }).click();
    await page.waitForURL(`**/funnels/${funnelId}`);
    const steps = page.locator('.funnel-steps li');
    await steps.first().waitFor();
    assert.deepEqual(await page.getByLabel('Version').locator('option').allTextContents(), ['2 (current)', '1']);
    // Each step is named by its kind and pattern; the visitors lost come between steps.
    await steps.first().getByText('Page /pricing').waitFor();
    assert.match((await steps.nth(0).textContent())!, /^1\. Page \/pricing\s*2 visitors$/);
    assert.match((await steps.nth(1).textContent())!, /^1 visitor lost \(50%\)2\. Page \/signup\s*1 visitor · 50% from step 1/);
    await page.getByLabel('Version').selectOption('1');
    await page.waitForURL((url) => url.searchParams.get('version') === '1');
    await page.waitForFunction(() => document.querySelector('[data-panel="funnel"]')?.getAttribute('data-state') === 'ready');
    await steps.nth(1).getByText('Event signup').waitFor();
    assert.match((await steps.nth(1).textContent())!, /1 visitor · 50% from step 1/);
    await context.close();
  });

  test('realtime shows a new event without a reload', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/realtime`);
    const current = page.locator('.current-visitors');
    await current.waitFor();
    const before = Number(await current.textContent());
    assert.equal(await dashboard.server.collect({ s: site.siteId, u: '/live' }, browserHeaders(site.domain)), 202);
    await dashboard.server.flush();
    await page.waitForFunction((n) => Number(document.querySelector('.current-visitors')?.textContent) > n, before, { timeout: 12_000 });
    await page.locator('.feed', { hasText: '/live' }).waitFor();
    await context.close();
  });

  test('a viewer sees every view and no settings link', async () => {
    const { context, page } = await signedIn('viewer@example.com');
    for (const path of ['', '/realtime', '/goals', `/funnels/${funnelId}`]) {
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}${path}`);
      await page.getByRole('navigation', { name: 'Site' }).waitFor();
      await page.locator('[data-state="ready"], .current-visitors').first().waitFor();
      assert.equal(await page.getByRole('link', { name: /settings/i }).count(), 0, path);
    }
    await context.close();
  });

  test('axe-core finds no serious or critical violation; screenshots at desktop and phone width', async () => {
    const shots = screenshotDir();
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn('owner@example.com', viewport);
      for (const [view, path] of [['dashboard', ''], ['realtime', '/realtime'], ['goals', '/goals'], ['funnel', `/funnels/${funnelId}`]] as const) {
        await page.goto(`${dashboard.server.url}/sites/${site.siteId}${path}`);
        if (view === 'dashboard') await filled(page);
        else await page.locator('[data-state="ready"], .current-visitors').first().waitFor();
        assert.deepEqual(await axeViolations(page), [], `${view} at ${name} width`);
        await page.screenshot({ path: join(shots, `${view}-${name}.png`), fullPage: true });
      }
      if (name === 'desktop') {
        await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
        await filled(page);
        await panel(page, 'pages').getByRole('button', { name: /Details/ }).click();
        await page.getByRole('dialog').locator('tbody tr').first().waitFor();
        assert.deepEqual(await axeViolations(page), [], 'details dialog');
        await page.screenshot({ path: join(shots, 'details-desktop.png') });
      }
      await context.close();
    }
    console.log(`screenshots in ${shots}`);
  });
});
