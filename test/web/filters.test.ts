// Filters and the figures they stop, in real Chromium against a real server: a KPI tile without a
// value says why (the filters, or no goals yet), the `Filter` menu adds a filter from a searched
// value, goal rows link to the dashboard filtered by the goal, and the Events panel shows
// the conversion rate of the events that are goals; axe-core at desktop and phone width.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { formatCount, formatRatio } from '../../web/lib/format.js';
import { createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, CHROME_UA, createUser, DESKTOP, EVERY_LOOK, filled, FIREFOX_UA, goalFixtureSite, PHONE, signedInPage, startDashboard, visitor, type Dashboard } from './harness.js';


let dashboard: Dashboard;
/** Three visitors (one property, `plan`, of three values), an event goal, a one-page goal and a wildcard page goal. */
let site: SiteFixture;
/** One visitor and no goal. */
let bare: SiteFixture;
/** The site's goals' ids by name. */
let goalIds: Record<string, number>;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  const a = visitor('10.3.0.1', FIREFOX_UA, 'FR');
  const b = visitor('10.3.0.2', CHROME_UA, 'DE');
  const c = visitor('10.3.0.3', CHROME_UA, 'US');
  ({ site, goalIds } = await goalFixtureSite(server, (at) => [
    { ...a, ts: at(9), u: '/', r: 'https://www.google.com/' },
    { ...a, ts: at(9, 1), u: '/pricing', p: { plan: 'free' } },
    { ...a, ts: at(9, 2), u: '/pricing', e: 'signup', p: { plan: 'pro' } },
    { ...b, ts: at(10), u: '/blog/first' },
    { ...c, ts: at(11), u: '/pricing', p: { plan: 'team' } },
  ]));
  bare = await createSite(server, { timezone: 'UTC' });
  assert.equal((await importEvents(server, bare.siteId, [{ ...a, ts: Date.now() - 2 * 86_400_000, u: '/' }])).body.accepted, 1);
  await createUser(server, 'owner@example.com', [site, bare].map((s) => ({ orgId: s.orgId, role: 'owner' })));
  await createUser(server, 'viewer@example.com', [{ orgId: bare.orgId, role: 'viewer' }]);
});
after(() => dashboard?.close());

const signedIn = (viewport = DESKTOP, email = 'owner@example.com') => signedInPage(dashboard, email, viewport);

const tile = (page: Page, label: string) => page.locator('.kpi', { has: page.locator('.kpi-label', { hasText: label }) });

/** A tile's value, its visible reason (null without one) and its description (the tooltip). */
async function tileText(page: Page, label: string) {
  const t = tile(page, label);
  const reason = t.locator('.kpi-reason');
  return { value: await t.locator('.kpi-value').textContent(), reason: (await reason.count()) === 0 ? null : await reason.textContent(), title: await t.getAttribute('title') };
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim());

/** The site's dashboard, filled, with the Filter dialog open on `dimension` (its label). */
async function filterDialog(dimension: string, viewport = DESKTOP) {
  const { context, page } = await signedIn(viewport);
  await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
  await filled(page);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a filter' });
  await dialog.getByLabel('Dimension').selectOption({ label: dimension });
  return { context, page, dialog };
}

describe('filters and tiles', () => {
  test('every tile has its figure under filters: visits, their bounce rate, time on page under a page filter, views per visit', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=page:/pricing`);
      await filled(page);
      for (const label of ['Visits', 'Bounce rate']) assert.equal((await tileText(page, label)).reason, null, label);
      // The fixture sends no engage events: time on page divides by none, and the tile says so.
      assert.deepEqual(await tileText(page, 'Time on page'), { value: '–', reason: 'No time on page recorded', title: 'No time on page recorded' });
      assert.notEqual((await tileText(page, 'Visits')).value, '–');
      assert.equal(await page.locator('.kpi', { hasText: 'Visit duration' }).count(), 0, 'time on page in its place');
      assert.match((await page.locator('[data-figure="viewsPerVisit"] .kpi-value').textContent()) ?? '', /^\d/);
      // Counted under the filter: the two pageviews of /pricing (a goal) and the signup sent from it.
      assert.deepEqual(await tileText(page, 'Conversions'), { value: '3', reason: null, title: null });
      assert.deepEqual(await tileText(page, 'Visitors'), { value: '2', reason: null, title: null });
      await checkPage(page, `tile-reasons-${name}`);
      await context.close();
    }
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=country:FR`);
    await filled(page);
    assert.equal((await tileText(page, 'Bounce rate')).reason, null, 'a session filter leaves the bounce rate');
    assert.equal((await tileText(page, 'Visits')).reason, null);
    assert.equal(await page.locator('.kpi', { hasText: 'Time on page' }).count(), 0, 'visit duration without a page filter');
    await context.close();
  });

  test('conversions under a filter over a period that starts before the raw window: counted from its first day, and the tile says since when', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=90d&filter=country:FR`);
    await filled(page);
    const read = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { since: res.headers.get('svc-counted-since'), conversions: (await res.json()).stats.conversions.value };
    }, `/app/v1/sites/${encodeURIComponent(site.siteId)}/stats?period=90d&filter=country%3AFR&raw=clip&elapsed=true`);
    const since = /^conversions=(\d{4}-\d{2}-\d{2})$/.exec(read.since ?? '')?.[1];
    assert.ok(since, `the answer says from which day: ${read.since}`);
    assert.ok(read.conversions > 0, 'the French visitor converts inside the window');
    const shown = await tileText(page, 'Conversions');
    assert.equal(shown.value, formatCount(read.conversions));
    // The day as the page's locale writes it: its day of the month and year.
    assert.match(shown.reason ?? '', new RegExp(`^Counted since .*\\b${Number(since.slice(8))}\\b.*${since.slice(0, 4)}`));
    assert.equal(shown.title, shown.reason);
    await context.close();
  });

  test('conversions without goals say so, with a link to add one for those who may', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${bare.siteId}`);
    await filled(page);
    assert.deepEqual(await tileText(page, 'Conversions'), { value: '–', reason: 'No goals yet', title: 'No goals yet' });
    const add = page.getByRole('link', { name: 'Add a goal' });
    assert.equal(await add.getAttribute('href'), `/sites/${bare.siteId}/settings#goals`);
    // The note sits below the tiles, which fill their row: no empty column beside them.
    const [lastTile, grid] = await Promise.all(['.kpi:last-child', '.kpis'].map(async (selector) => (await page.locator(selector).boundingBox())!));
    assert.ok(lastTile!.x + lastTile!.width >= grid!.x + grid!.width - 2, `the last tile ends at ${lastTile!.x + lastTile!.width} of ${grid!.x + grid!.width}`);
    await checkPage(page, 'no-goals-desktop');
    await context.close();
    const viewer = await signedIn(PHONE, 'viewer@example.com');
    await viewer.page.goto(`${dashboard.server.url}/sites/${bare.siteId}`);
    await filled(viewer.page);
    assert.equal((await tileText(viewer.page, 'Conversions')).reason, 'No goals yet');
    assert.equal(await viewer.page.getByRole('link', { name: 'Add a goal' }).count(), 0);
    await checkPage(viewer.page, 'no-goals-phone-viewer');
    await viewer.context.close();
  });

  test('the Filter menu adds a filter from a searched value with Enter alone when one is left, as an `or` to one on the same dimension, and Escape returns to the button', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=page:/`);
      await filled(page);
      const button = page.getByRole('button', { name: 'Filter', exact: true });
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Add a filter' });
      assert.equal(await dialog.getByLabel('Dimension').inputValue(), 'page');
      // Every page of the period is offered, the active page filter aside.
      const options = dialog.getByRole('listbox').getByRole('option');
      await options.first().waitFor();
      assert.deepEqual(await options.locator('.value-key').allTextContents(), ['/pricing', '/', '/blog/first']);
      assert.equal(await dialog.getByRole('button', { name: 'Apply' }).isDisabled(), true);
      await checkPage(page, `filter-menu-${name}`);
      await dialog.getByRole('combobox', { name: 'Value' }).fill('PRIC');
      await page.waitForFunction(() => document.querySelectorAll('li[role="option"]').length === 1);
      // The one value left is picked without an arrow key: the field names it, the line under it says what Apply makes.
      await page.waitForFunction(() => document.getElementById('filter-value')?.getAttribute('aria-activedescendant') === 'filter-value-0');
      assert.equal(await options.first().getAttribute('aria-selected'), 'true');
      assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), 'On Apply: Page is / or /pricing');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'page:/|/pricing');
      assert.equal(await dialog.count(), 0);
      assert.equal(await focusedText(page), 'Filter');
      await page.getByRole('button', { name: 'Remove filter Page' }).waitFor();
      assert.equal((await page.locator('.chip-edit').textContent())?.trim(), 'Page is / or /pricing');

      // Escape closes the menu without a change; the focus returns to the button.
      await button.click();
      await dialog.getByRole('combobox', { name: 'Value' }).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await focusedText(page), 'Filter');
      assert.deepEqual(new URL(page.url()).searchParams.getAll('filter'), ['page:/|/pricing']);
      await context.close();
    }
  });

  test('the Filter menu lists (none) as no filter, and a value picked with the mouse is applied with Apply', async () => {
    const { context, page, dialog } = await filterDialog('Referrer');
    const none = dialog.getByRole('option', { name: /Direct \/ None/ });
    await none.waitFor();
    assert.equal(await none.getAttribute('aria-disabled'), 'true');
    await none.click({ force: true });
    assert.equal(await dialog.getByRole('button', { name: 'Apply' }).isDisabled(), true);
    assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), '');
    const google = dialog.getByRole('option', { name: /google\.com/ });
    await google.click();
    // The pick shows beside the field, which names it for screen readers.
    assert.equal(await google.getAttribute('aria-selected'), 'true');
    assert.equal(await dialog.getByRole('combobox', { name: 'Value' }).getAttribute('aria-activedescendant'), await google.getAttribute('id'));
    assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), 'On Apply: Referrer is google.com');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'referrer:google.com');
    await page.locator('.chip').getByText('Referrer is google.com').waitFor();
    await context.close();
  });

  test('goal rows link to the dashboard filtered by the goal, a wildcard page goal too', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals?period=7d`);
    const goals = page.locator('[data-panel="goals"]');
    await goals.locator('tbody tr').first().waitFor();
    const base = `/sites/${site.siteId}`;
    for (const name of ['Signup', 'Saw pricing', 'Read the blog']) {
      assert.equal(await goals.getByRole('link', { name }).getAttribute('href'), `${base}?period=7d&filter=goal%3A${goalIds[name]}`, name);
    }
    await checkPage(page, 'goal-links-desktop');
    await goals.getByRole('link', { name: 'Signup' }).click();
    await page.waitForURL((url) => url.pathname === base && url.searchParams.getAll('filter').join() === `goal:${goalIds['Signup']}` && url.searchParams.get('period') === '7d');
    await filled(page);
    await page.getByText('Goal is Signup').waitFor();
    assert.equal(await tile(page, 'Converters').locator('.kpi-value').textContent(), '1');
    await context.close();
  });

  test('the Events panel shows the conversion rate of the events that are goals, as the goals answer gives it', async () => {
    const { context, page } = await signedIn(PHONE);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    const answer = await page.evaluate(async (url) => (await fetch(url)).json(), `/app/v1/sites/${site.siteId}/goals`);
    const signup = answer.goals.find((g: { name: string }) => g.name === 'Signup');
    assert.equal(signup.conversionRate, 0.3333);
    const events = page.locator('[data-panel="events"]');
    // The rates come from the goals answer, read apart from the panels that filled() waits for.
    await events.locator('.goal-rate').waitFor();
    assert.deepEqual(await events.locator('thead th').allTextContents(), ['Event', 'Visitors', 'Conversion rate']);
    const rows = await events.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())));
    assert.deepEqual(rows, [
      ['pageview', '3', ''],
      ['signup', '1', formatRatio(signup.conversionRate, 'en-GB')],
    ]);
    assert.match((await events.locator('.goal-rate').getAttribute('title'))!, /^Goal “Signup”: /);
    // The panels of other dimensions have no such column.
    assert.equal(await page.locator('[data-panel="pages"] thead th').count(), 2);
    await checkPage(page, 'events-goal-rates-phone');
    // Under a filter, the rates are those of the filtered visitors: the one visitor from France signed up.
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=country:FR`);
    await filled(page);
    await events.locator('.goal-rate', { hasText: formatRatio(1, 'en-GB') }).waitFor();
    assert.equal(await tile(page, 'Conversions').locator('.kpi-value').textContent(), '2');
    await context.close();
  });
});

describe('filter operators in the Filter dialog', () => {
  /** The `filter` parameters of the next breakdown read the dashboard sends. */
  const nextReadFilters = (page: Page) =>
    page.waitForRequest((request) => request.url().includes('/breakdown?')).then((request) => new URL(request.url()).searchParams.getAll('filter'));

  test('a country found by its name, `is not`, then a second one as an `or`: the chip names them, the address and the reads keep their codes', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page } = await signedIn(viewport);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
      await filled(page);
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a filter' });
      await dialog.getByLabel('Dimension').selectOption({ label: 'Country' });
      // Countries are names and codes, never a text to contain.
      assert.deepEqual(await dialog.getByLabel('Operator').locator('option').allTextContents(), ['is', 'is not']);
      await dialog.getByLabel('Operator').selectOption({ label: 'is not' });
      const value = dialog.getByRole('combobox', { name: 'Value' });
      const options = dialog.getByRole('listbox').getByRole('option');
      for (const typed of ['Germany', 'ger']) {
        await value.fill(typed);
        await page.waitForFunction(() => {
          const keys = Array.from(document.querySelectorAll('li[role="option"] .value-key'), (k) => k.textContent);
          return keys.length === 1 && keys[0] === 'Germany';
        });
      }
      await checkPage(page, `filter-country-by-name-${name}`);
      await page.keyboard.press('ArrowDown');
      assert.equal(await options.first().getAttribute('aria-selected'), 'true');
      const sent = nextReadFilters(page);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'country!:DE');
      assert.match(page.url(), /filter=country%21%3ADE/);
      assert.deepEqual(await sent, ['country!:DE']);
      const chip = page.locator('.chip');
      assert.equal((await chip.locator('.chip-edit').textContent())?.trim(), 'Country is not Germany');
      await page.getByRole('button', { name: 'Remove filter Country' }).waitFor();
      // Checked once the figures under the filter have come (figures still loading are dimmed).
      await filled(page);
      await checkPage(page, `filter-is-not-chip-${name}`);
      // A second value joins the first as an `or`: the chip says both in words, the reads list both codes.
      // Enter pressed before the search has settled applies the one value it leaves.
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      await dialog.getByLabel('Dimension').selectOption({ label: 'Country' });
      await dialog.getByLabel('Operator').selectOption({ label: 'is not' });
      await value.fill('France');
      const both = nextReadFilters(page);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'country!:DE|FR');
      assert.deepEqual(await both, ['country!:DE|FR']);
      assert.equal((await chip.locator('.chip-edit').textContent())?.trim(), 'Country is not Germany or France');
      await filled(page);
      assert.equal((await tileText(page, 'Visitors')).value, '1', 'the visitor from the United States alone');
      await context.close();
    }
  });

  test('`(none)` is picked with `is not` only; `contains` applies the typed text, listing the values it matches; the chip quotes it', async () => {
    // `(none)` is worth excluding: picked with `is not` alone.
    const { context, page, dialog } = await filterDialog('Referrer');
    const none = dialog.getByRole('option', { name: /Direct \/ None/ });
    await none.waitFor();
    assert.equal(await none.getAttribute('aria-disabled'), 'true');
    assert.equal(await none.getAttribute('title'), '(none) is no filter with “is”');
    await dialog.getByLabel('Operator').selectOption({ label: 'is not' });
    assert.equal(await none.getAttribute('aria-disabled'), null);
    await dialog.getByLabel('Dimension').selectOption({ label: 'Browser' });
    await dialog.getByLabel('Operator').selectOption({ label: 'contains' });
    const apply = dialog.getByRole('button', { name: 'Apply' });
    assert.equal(await apply.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'Text' }).fill('fire');
    await dialog.getByRole('list', { name: 'Values of browser that contain “fire”' }).waitFor();
    assert.deepEqual(await dialog.locator('.value-key').allTextContents(), ['Firefox']);
    await checkPage(page, 'filter-contains-desktop');
    await apply.click();
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'browser~:fire');
    await page.getByText('Browser contains “fire”').waitFor();
    await context.close();
  });

  test('on a phone, the chip of a row clicked far down the page is in view', async () => {
    const { context, page } = await signedIn(PHONE);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}`);
    await filled(page);
    const firefox = page.locator('[data-panel="devices"]').getByRole('button', { name: 'Firefox' });
    await firefox.scrollIntoViewIfNeeded();
    await firefox.click();
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'browser:Firefox');
    const chip = page.locator('.chip', { hasText: 'Browser is Firefox' });
    await chip.waitFor();
    assert.ok((await page.evaluate(() => window.scrollY)) > PHONE.height, 'the row is more than a screen down');
    const box = (await chip.boundingBox())!;
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the chip is at ${box.y}..${box.y + box.height}`);
    await filled(page);
    await checkPage(page, 'filter-chip-sticky-phone');
    await context.close();
  });
});

describe('editing a chip, and property filters, in the Filter dialog', () => {
  const filters = (page: Page) => new URL(page.url()).searchParams.getAll('filter');

  test('a chip opens its filter in the dialog: a value removed, the operator changed and a value added replace it in its place; its remove button still removes it', async () => {
    for (const look of EVERY_LOOK) {
      const { context, page } = await signedIn(look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=country:DE|FR&filter=page:/pricing`);
      await filled(page);
      await page.getByRole('button', { name: 'Country is Germany or France' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit filter' });
      assert.equal(await dialog.getByLabel('Dimension').inputValue(), 'country');
      assert.equal(await dialog.getByLabel('Operator').inputValue(), 'is');
      const kept = dialog.getByRole('list', { name: 'Values kept' }).getByRole('listitem');
      assert.deepEqual(await kept.allTextContents(), ['Germany×', 'France×']);
      assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), 'On Apply: Country is Germany or France');
      await dialog.getByRole('listbox').getByRole('option').first().waitFor();
      await checkPage(page, `filter-edit-${look.name}`);
      await dialog.getByRole('button', { name: 'Remove value Germany' }).click();
      assert.equal(await focusedText(page), '', 'the focus back in the search field');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'filter-value');
      await dialog.getByLabel('Operator').selectOption({ label: 'is not' });
      assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), 'On Apply: Country is not France');
      // The arrow keys pick among several values; the pick joins the kept ones.
      await dialog.getByRole('combobox', { name: 'Value' }).focus();
      await page.keyboard.press('ArrowDown');
      const first = dialog.getByRole('listbox').getByRole('option').first();
      assert.equal(await first.getAttribute('aria-selected'), 'true');
      const firstKey = (await first.locator('.value-key').textContent())!;
      assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), `On Apply: Country is not ${firstKey === 'France' ? 'France' : `France or ${firstKey}`}`);
      await checkPage(page, `filter-edit-picked-${look.name}`);
      await page.keyboard.press('ArrowUp');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached' });
      const expected = firstKey === 'France' ? 'FR' : `FR|${firstKey === 'Germany' ? 'DE' : 'US'}`;
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === `country!:${expected},page:/pricing`);
      // Back on the chip, in its place.
      assert.match((await focusedText(page)) ?? '', /^Country is not France/);
      await filled(page);
      await checkPage(page, `filter-edited-chip-${look.name}`);
      await page.getByRole('button', { name: 'Remove filter Country' }).click();
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'page:/pricing');
      await context.close();
    }
  });

  test('an edited chip takes another dimension in its place; Cancel leaves it and returns to the chip', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?filter=browser:Firefox&filter=page:/pricing`);
    await filled(page);
    const chip = page.getByRole('button', { name: 'Browser is Firefox' });
    await chip.click();
    const dialog = page.getByRole('dialog', { name: 'Edit filter' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focusedText(page), 'Browser is Firefox');
    assert.deepEqual(filters(page), ['browser:Firefox', 'page:/pricing']);
    await chip.click();
    await dialog.getByLabel('Dimension').selectOption({ label: 'Country' });
    assert.equal(await dialog.getByRole('list', { name: 'Values kept' }).count(), 0, 'the values of another dimension go');
    await dialog.getByRole('combobox', { name: 'Value' }).fill('united states');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'country:US,page:/pricing');
    await context.close();
  });

  test('`Property`, a key, then its values: applied as a prop filter, its chip edited like any other', async () => {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { context, page, dialog } = await filterDialog('Property', viewport);
      const key = dialog.getByLabel('Property', { exact: true });
      await key.waitFor();
      assert.deepEqual(await key.locator('option').allTextContents(), ['plan']);
      const options = dialog.getByRole('listbox', { name: 'Values of property plan' }).getByRole('option');
      await options.first().waitFor();
      // `(none)`: the events without the key, worth excluding only.
      assert.deepEqual((await options.locator('.value-key').allTextContents()).sort(), ['(none)', 'free', 'pro', 'team']);
      assert.deepEqual(await dialog.getByLabel('Operator').locator('option').allTextContents(), ['is', 'is not', 'contains']);
      await dialog.getByRole('combobox', { name: 'Value' }).fill('tea');
      await page.waitForFunction(() => Array.from(document.querySelectorAll('li[role="option"] .value-key'), (k) => k.textContent).join() === 'team');
      assert.equal((await dialog.locator('#filter-outcome').textContent())?.trim(), 'On Apply: Property plan is team');
      await checkPage(page, `filter-property-${name}`);
      // Enter in the field (focused again: the page's check may have moved the focus).
      await dialog.getByRole('combobox', { name: 'Value' }).press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'prop.plan:team');
      await filled(page);
      assert.equal((await tileText(page, 'Visitors')).value, '1', 'the visitor from the United States');
      // Its chip opens on `Property` and its key.
      await page.getByRole('button', { name: 'Property plan is team' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit filter' });
      assert.equal(await edit.getByLabel('Dimension').inputValue(), 'property');
      assert.equal(await edit.getByLabel('Property', { exact: true }).inputValue(), 'plan');
      await edit.getByRole('combobox', { name: 'Value' }).fill('pro');
      await page.waitForFunction(() => Array.from(document.querySelectorAll('li[role="option"] .value-key'), (k) => k.textContent).join() === 'pro');
      await edit.getByRole('combobox', { name: 'Value' }).press('Enter');
      await page.waitForURL((url) => url.searchParams.getAll('filter').join() === 'prop.plan:team|pro');
      await page.getByRole('button', { name: 'Property plan is team or pro' }).waitFor();
      await context.close();
    }
  });
});

