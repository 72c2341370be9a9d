// The dashboard's layout and wording in real Chromium (issue 51): goals' and funnels' changes said
// apart and labelled (the rate's in percentage points), site settings in sections with a side menu,
// wide tables that scroll sideways with a shadow at the clipped edge, no shortcuts link on a touch
// screen, panels whose tabs line up, `Direct / None` and country flags, realtime's axis labels.
// axe-core and screenshots of these views, in every language: every-language.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { formatChange, formatPoints } from '../../web/lib/format.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { createUser, DESKTOP, filled, openPage, PHONE, signIn, startDashboard, type Dashboard } from './harness.js';

const DAY = 86_400_000;

let dashboard: Dashboard;
let site: SiteFixture;
let funnelId: number;
/** GET /v1/sites/:siteId<path> with a key: the figures the pages must show. */
let read: (path: string) => Promise<any>;

/**
 * Four visitors 3 days ago (two sign up), four 10 days ago (one signs up: 25%), two in the last
 * minutes (realtime; over 7 days, a goal rate of 2 in 6); referrers absent but one, countries FR, DE and US.
 */
function events(now: number) {
  const today = Math.floor(now / DAY) * DAY;
  const visit = (ip: string, country: string, ts: number, u: string, extra: Record<string, string> = {}) => ({ ip, ua: BROWSER_UA, country, ts, u, ...extra });
  const recent = today - 3 * DAY + 10 * 3_600_000;
  const earlier = today - 10 * DAY + 10 * 3_600_000;
  return [
    visit('10.5.0.1', 'FR', recent, '/'),
    visit('10.5.0.1', 'FR', recent + 60_000, '/', { e: 'signup' }),
    visit('10.5.0.2', 'FR', recent, '/', { r: 'https://www.google.com/' }),
    visit('10.5.0.3', 'DE', recent, '/pricing'),
    visit('10.5.0.3', 'DE', recent + 60_000, '/pricing', { e: 'signup' }),
    visit('10.5.0.4', 'US', recent, '/pricing'),
    visit('10.6.0.1', 'FR', earlier, '/pricing'),
    visit('10.6.0.1', 'FR', earlier + 60_000, '/pricing', { e: 'signup' }),
    visit('10.6.0.2', 'DE', earlier, '/'),
    visit('10.6.0.3', 'US', earlier, '/pricing'),
    visit('10.6.0.4', 'US', earlier, '/'),
    visit('10.7.0.1', 'FR', now - 3 * 60_000, '/live'),
    visit('10.7.0.2', 'DE', now - 60_000, '/live'),
  ];
}

before(async () => {
  dashboard = await startDashboard();
  const { server } = dashboard;
  site = await createSite(server);
  await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
  funnelId = (await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Pricing to signup', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }] })).body.id;
  const report = await importEvents(server, site.siteId, events(Date.now()));
  assert.equal(report.body.accepted, 13, JSON.stringify(report.body));
  await server.flush();
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  const key = await createApiKey(server, site.orgId);
  read = async (path) => (await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
});
after(() => dashboard?.close());

async function signedIn(viewport = DESKTOP, path = '', hasTouch = false) {
  const opened = await openPage(dashboard, viewport, undefined, hasTouch);
  await signIn(opened.page, dashboard.server, 'owner@example.com', `/sites/${site.siteId}${path}`);
  return opened;
}

const ready = (page: Page, panel: string) => page.locator(`[data-panel="${panel}"][data-state="ready"]`).waitFor();
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

describe('goals and funnels say which change is which', () => {
  test("a goal's conversions change in percent and its rate's change in percentage points, each in a labelled column", async () => {
    const { context, page } = await signedIn(DESKTOP, '/goals?period=7d');
    await ready(page, 'goals');
    const headers = await page.locator('[data-panel="goals"] thead th').allTextContents();
    assert.deepEqual(headers, ['Goal', 'Conversions', 'Conversion rate', 'Unique conversions', 'Conversions change', 'Rate change']);
    const now = await read('/goals?period=7d');
    const day = (offset: number) => new Date(Date.parse(`${now.period.from}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);
    const before = await read(`/goals?from=${day(-7)}&to=${day(-1)}`);
    const goal = now.goals[0];
    assert.deepEqual([goal.conversionRate, before.goals[0].conversionRate, goal.delta], [0.3333, 0.25, 100], 'the fixture: 25% then 33.3%, conversions doubled');
    const cells = await page.locator('[data-panel="goals"] tbody tr').first().locator('td').allTextContents();
    assert.equal(cells[4], formatChange(goal.delta, 'en-GB'));
    assert.equal(cells[5], formatPoints(goal.conversionRate - before.goals[0].conversionRate, 'en-GB'));
    assert.equal(cells[5], '+8.3 pp');
    assert.match((await page.locator('[data-panel="goals"] tbody td').nth(5).getAttribute('class'))!, /\bup\b/);
    await context.close();
    // On a phone the conversion rate shows beside the conversions, before the table scrolls.
    const phone = await signedIn(PHONE, '/goals?period=7d');
    await ready(phone.page, 'goals');
    const box = (await phone.page.getByRole('region', { name: 'Goals and their conversions' }).boundingBox())!;
    const rate = (await phone.page.getByRole('columnheader', { name: 'Conversion rate' }).boundingBox())!;
    assert.ok(rate.x + rate.width <= box.x + box.width, `the rate's column ends at ${rate.x + rate.width} px, the table's box at ${box.x + box.width} px`);
    await phone.context.close();
  });

  test("a funnel's rate change is labelled, in percentage points against the previous period's rate", async () => {
    const { context, page } = await signedIn(DESKTOP, `/funnels/${funnelId}?period=7d`);
    await ready(page, 'funnel');
    const funnel = await read(`/funnels/${funnelId}?period=7d`);
    const change = page.locator('.funnel-totals div', { has: page.locator('dt', { hasText: 'Rate change' }) }).locator('dd');
    const expected = funnel.previous.conversionRate === 0 ? '—' : formatPoints(Math.round((funnel.conversionRate - funnel.previous.conversionRate) * 1000) / 1000, 'en-GB');
    assert.match((await change.textContent())!, new RegExp(`^${expected.replace(/[+]/g, '\\+')} vs previous period`));
    await context.close();
  });
});

describe('site settings in sections', () => {
  const SECTIONS = ['General', 'Goals', 'Funnels', 'Alerts', 'Reports', 'Shared links', 'Imports and export', 'Danger zone'];

  test('a side menu picks one section at a time; the hash names it; on a phone the menu is a list above it', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedIn(viewport, '/settings');
      const menu = page.getByRole('navigation', { name: 'Settings sections' });
      await menu.waitFor();
      assert.deepEqual(await menu.getByRole('link').allTextContents(), SECTIONS);
      await page.getByRole('heading', { name: 'General', exact: true }).waitFor();
      assert.equal(await menu.getByRole('link', { name: 'General' }).getAttribute('aria-current'), 'page');
      assert.equal(await page.getByRole('heading', { name: 'Alert rules' }).count(), 0, 'one section at a time');
      await menu.getByRole('link', { name: 'Alerts' }).click();
      await page.getByRole('heading', { name: 'Alert rules' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#alerts');
      assert.equal(await page.getByRole('heading', { name: 'General', exact: true }).count(), 0);
      assert.equal(await menu.getByRole('link', { name: 'Alerts' }).getAttribute('aria-current'), 'page');
      await page.goBack();
      await page.getByRole('heading', { name: 'General', exact: true }).waitFor();
      const [nav, body] = [await box(page, '.section-menu'), await box(page, '.settings-body')];
      if (viewport === DESKTOP) assert.ok(nav.x + nav.width <= body.x && nav.y <= body.y + 1, `beside: ${JSON.stringify([nav, body])}`);
      else assert.ok(nav.y + nav.height <= body.y, `above: ${JSON.stringify([nav, body])}`);
      await context.close();
    }
  });

  test('inputs of short values are short: not the width of the page', async () => {
    const { context, page } = await signedIn(DESKTOP, '/settings');
    const body = await box(page, '.settings-body');
    for (const label of ['Retention (months)']) {
      const input = (await page.getByLabel(label).boundingBox())!;
      assert.ok(input.width <= 160, `${label}: ${input.width} px`);
    }
    const name = (await page.getByLabel('Name', { exact: true }).boundingBox())!;
    assert.ok(name.width < body.width * 0.7, `Name: ${name.width} px of ${body.width}`);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/settings#funnels`);
    const window = (await page.getByLabel('Window (minutes)').boundingBox())!;
    assert.ok(window.width <= 160, `Window: ${window.width} px`);
    await context.close();
  });

  test('a section named by a link opens at once: the dashboard’s `Add a goal` lands on Goals', async () => {
    const { context, page } = await signedIn(DESKTOP, '/settings#goals');
    await page.getByLabel('Goal name').waitFor();
    assert.equal(await page.getByLabel('Keep single events').count(), 0);
    await context.close();
  });
});

describe('on a phone', () => {
  test('a wide table scrolls sideways inside its box, a shadow marks the clipped edge; the page itself never does', async () => {
    const { context, page } = await signedIn(PHONE, '/goals?period=7d');
    await ready(page, 'goals');
    const wrap = page.getByRole('region', { name: 'Goals and their conversions' });
    const sizes = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflow: getComputedStyle(el).overflowX, images: getComputedStyle(el).backgroundImage, attachments: getComputedStyle(el).backgroundAttachment }));
    assert.ok(sizes.scroll > sizes.client, `the table is wider than its box: ${JSON.stringify(sizes)}`);
    assert.equal(sizes.overflow, 'auto');
    assert.equal((sizes.images.match(/radial-gradient/g) ?? []).length, 2, 'a shadow for each edge');
    assert.equal(sizes.attachments, 'local, local, scroll, scroll', 'covers that scroll with the table hide the shadow of an edge reached');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    await wrap.evaluate((el) => el.scrollBy(1000, 0));
    assert.ok(await wrap.evaluate((el) => el.scrollLeft > 0), 'it scrolls');
    await page.goto(`${dashboard.server.url}/orgs/${site.orgId}/settings`);
    const sites = page.locator('.table-wrap').first();
    await sites.locator('tbody tr').first().waitFor();
    assert.equal(await sites.evaluate((el) => getComputedStyle(el).overflowX), 'auto');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    await context.close();
  });

  test('a touch screen shows no `Keyboard shortcuts` link; a desktop does', async () => {
    for (const [viewport, touch, shown] of [[PHONE, true, false], [DESKTOP, false, true]] as const) {
      const { context, page } = await signedIn(viewport, '', touch);
      await filled(page);
      assert.equal(await page.getByRole('button', { name: 'Keyboard shortcuts' }).isVisible(), shown, `touch ${touch}`);
      await context.close();
    }
  });
});

describe('the dashboard', () => {
  test('KPI tiles in one row, each change on one line inside its tile; Pages’ and Sources’ tabs line up; Events spans the row it would be alone on', async () => {
    const { context, page } = await signedIn(DESKTOP, '?period=7d');
    await filled(page);
    const changes = await page.locator('.kpi-change').evaluateAll((spans) =>
      spans.map((s) => {
        const delta = s.querySelector('.kpi-delta')!;
        const tile = s.closest('.kpi') as HTMLElement;
        return { lines: Math.round(delta.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight)), fits: s.scrollWidth <= tile.clientWidth && tile.scrollWidth <= tile.clientWidth };
      }),
    );
    assert.equal(changes.length, 6);
    assert.deepEqual(changes, changes.map(() => ({ lines: 1, fits: true })), JSON.stringify(changes));
    // The six figures and views per visit side by side on a desktop: no tile alone on a row.
    const tops = await page.locator('.kpi').evaluateAll((tiles) => tiles.map((t) => t.getBoundingClientRect().top));
    assert.deepEqual(new Set(tops).size, 1, JSON.stringify(tops));
    // The row filled: no empty column after the last tile (the `Add a goal` note below keeps none).
    const [lastTile, grid] = [await box(page, '.kpi:last-child'), await box(page, '.kpis')];
    assert.ok(lastTile.x + lastTile.width >= grid.x + grid.width - 2, `the last tile ends at ${lastTile.x + lastTile.width} of ${grid.x + grid.width}`);
    const [pagesTab, sourcesTab] = [await box(page, '[data-panel="pages"] [role="tab"]'), await box(page, '[data-panel="sources"] [role="tab"]')];
    assert.equal(pagesTab.y, sourcesTab.y);
    const [pagesRows, sourcesRows] = [await box(page, '[data-panel="pages"] .rows'), await box(page, '[data-panel="sources"] .rows')];
    assert.equal(pagesRows.y, sourcesRows.y);
    const [events, panels] = [await box(page, '[data-panel="events"]'), await box(page, '.panels')];
    assert.equal(events.width, panels.width);
    assert.ok((await box(page, '[data-panel="devices"]')).width < panels.width / 2, 'panels that pair keep half the row');
    await context.close();
  });

  test("organisation settings on a phone: each site's row stacked, a checkbox's label beside its box, room above each part's heading", async () => {
    const { context, page } = await openPage(dashboard, PHONE);
    await signIn(page, dashboard.server, 'owner@example.com', `/orgs/${site.orgId}/settings`);
    await page.getByRole('heading', { name: 'Invite member' }).waitFor();
    const sites = page.locator('#sites');
    // The site's name whole on one line (its row a block, not four narrow columns).
    const name = (await sites.locator('tbody td').first().boundingBox())!;
    const card = (await sites.boundingBox())!;
    assert.ok(name.width > card.width / 2, `the site's cell is ${name.width} px of ${card.width}`);
    const [checkbox, label] = [(await page.getByRole('checkbox', { name: /Require two-factor/ }).boundingBox())!, (await page.getByText('Require two-factor sign-in for every member').boundingBox())!];
    assert.ok(label.y < checkbox.y + checkbox.height && label.x > checkbox.x, `the label beside its box: ${JSON.stringify([checkbox, label])}`);
    for (const [heading, above] of [
      ['Add a site', '#sites table'],
      ['Sign-in', '#members .field.checkbox'],
      ['Invite member', 'form[aria-label="Sign-in settings"]'],
    ] as const) {
      const [top, before] = [(await page.getByRole('heading', { name: heading, exact: true }).boundingBox())!, (await page.locator(above).first().boundingBox())!];
      assert.ok(top.y - (before.y + before.height) >= 12, `${heading}: ${top.y - (before.y + before.height)} px below what comes before it`);
    }
    await context.close();
  });

  test('the referrer (none) row reads Direct / None and stays unfilterable; countries beside their flags', async () => {
    const { context, page } = await signedIn(DESKTOP, '?period=7d');
    await filled(page);
    const first = (id: string) => page.locator(`[data-panel="${id}"] tbody tr td:first-child`).allTextContents();
    assert.deepEqual(await first('sources'), ['Direct / None', 'google.com']);
    assert.equal(await page.locator('[data-panel="sources"] .row-filter', { hasText: 'Direct' }).count(), 0, 'a label, not a filter');
    assert.deepEqual(await first('locations'), ['🇫🇷 France', '🇩🇪 Germany', '🇺🇸 United States']);
    // The flag is decoration: the row's button is named by the country alone.
    await page.getByRole('button', { name: 'France', exact: true }).waitFor();
    await page.locator('[data-panel="sources"]').getByRole('tab', { name: 'UTM sources' }).click();
    await filled(page);
    assert.deepEqual(await first('sources'), ['(none)'], 'only the referrer’s (none) is Direct / None');
    await context.close();
  });

  test("realtime's chart has a count axis and a clock axis", async () => {
    const { context, page } = await signedIn(DESKTOP, '/realtime');
    await page.locator('.minute-bars').waitFor();
    const max = await read('/realtime').then((r) => Math.max(1, ...r.pageviewsPerMinute.map((p: { value: number }) => p.value)));
    assert.deepEqual(await page.locator('.y-axis span').allTextContents(), [String(max), '0']);
    const clock = await page.locator('.x-axis span').allTextContents();
    assert.equal(clock.length, 3);
    for (const text of clock) assert.match(text, /^\d{1,2}:\d{2}/);
    const [bars, axis] = [await box(page, '.minute-bars'), await box(page, '.x-axis')];
    assert.ok(axis.y >= bars.y + bars.height && Math.abs(axis.x - bars.x) < 2, 'the clock under the bars');
    await context.close();
  });
});
