// The Journeys view in real Chromium against a real server: reached from the site's tabs with the
// keyboard, its rows equal the API's answer (from the start of visits, then from a chosen page, both
// directions), the empty state, and axe-core at desktop and phone width, light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, EVERY_LOOK, openPage, signIn, startDashboard, type Dashboard } from './harness.js';
import type { JourneysAnswer } from '../../src/core/answers.js';

const DAY = 86_400_000;

let dashboard: Dashboard;
let site: SiteFixture;

/** Four sessions two days ago: / → /pricing → /signup (twice), / → /blog, /blog → /pricing → /pricing (one step). */
before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  const start = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 9 * 3_600_000;
  const session = (ip: string, paths: string[]) => paths.map((u, i) => ({ ip, ua: BROWSER_UA, ts: start + i * 60_000, u }));
  const events = [
    ...session('10.9.0.1', ['/', '/pricing', '/signup']),
    ...session('10.9.0.2', ['/', '/pricing', '/signup']),
    ...session('10.9.0.3', ['/', '/blog']),
    ...session('10.9.0.4', ['/blog', '/pricing', '/pricing']),
  ];
  const report = await importEvents(server, site.siteId, events);
  assert.equal(report.body.accepted, events.length, JSON.stringify(report.body));
  await server.flush();
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

/** Waits until the view holds an answer (or its failure). */
const settled = (page: Page) => page.waitForSelector('[data-panel="journeys"]:not([data-state="loading"])');

/** The API's answer for the view's address, read as the page reads it (the session's /app/v1). */
async function apiAnswer(page: Page): Promise<JourneysAnswer> {
  const search = new URL(page.url()).searchParams;
  const params = new URLSearchParams({ period: search.get('period') ?? '30d', raw: 'clip', direction: search.get('direction') ?? 'next', steps: search.get('steps') ?? '3', limit: '20' });
  if (search.get('page')) params.set('page', search.get('page')!);
  return page.evaluate(async ([siteId, query]) => (await fetch(`/app/v1/sites/${siteId}/journeys?${query}`)).json(), [site.siteId, params.toString()] as const);
}

/** The table's rows as the API's: each row's paths (empty steps left out) and sessions. */
async function shownRows(page: Page) {
  return page.locator('table.journeys tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      path: Array.from(row.querySelectorAll('.step-path')).map((cell) => cell.textContent),
      ends: Array.from(row.querySelectorAll('td.end'), (cell) => cell.textContent),
      sessions: Number(row.querySelector('td.num')!.firstChild!.textContent!.replace(/\D/g, '')),
    })),
  );
}

/** The rows shown become the API's answer for the address (the previous view's stay, dimmed, until then). */
async function rowsEqualApi(page: Page) {
  await settled(page);
  const answer = await apiAnswer(page);
  assert.ok(answer.rows.length > 0, JSON.stringify(answer));
  // A shorter path's end (or start) of visit said once, in the empty step beside it.
  const search = new URL(page.url()).searchParams;
  const previous = search.get('page') !== null && search.get('direction') === 'previous';
  const ends = (path: readonly string[]) => {
    const gap = answer.steps - path.length;
    return Array.from({ length: gap }, (_, i) => (i !== (previous ? gap - 1 : 0) ? '' : previous ? 'Start of visit' : 'End of visit'));
  };
  const expected = answer.rows.map((row) => ({ path: row.path, ends: ends(row.path), sessions: row.sessions }));
  for (let tries = 0; tries < 50 && !isDeepStrictEqual(await shownRows(page), expected); tries++) await page.waitForTimeout(100);
  assert.deepEqual(await shownRows(page), expected);
  return answer;
}

describe('journeys view', () => {
  test('reached from the tabs with the keyboard, its rows are the API’s', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'owner@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/realtime`);
    await page.getByRole('link', { name: 'Journeys' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.endsWith('/journeys'));
    const first = await rowsEqualApi(page);
    assert.deepEqual(first.rows[0]!.path, ['/', '/pricing', '/signup']);
    assert.equal(first.rows[0]!.sessions, 2);
    assert.equal(await page.getByRole('link', { name: 'Journeys' }).getAttribute('aria-current'), 'page');

    // Without a page there is no direction (the rows are the visits' first pages); with one, the
    // paths before /pricing, two steps long.
    assert.equal(await page.getByLabel('Direction').count(), 0);
    await page.getByLabel('Page').fill('/pricing');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('page') === '/pricing');
    await rowsEqualApi(page);
    await page.getByLabel('Direction').selectOption({ label: 'Previous pages' });
    await page.getByLabel('Steps').selectOption('2');
    await page.waitForURL((url) => url.searchParams.get('direction') === 'previous' && url.searchParams.get('steps') === '2');
    const previous = await rowsEqualApi(page);
    assert.equal(previous.steps, 2);
    assert.equal(await page.getByRole('columnheader').first().textContent(), 'Step 1');

    // Next pages of /pricing, and back to the previous view with Back.
    await page.getByLabel('Direction').selectOption({ label: 'Next pages' });
    await page.waitForURL((url) => url.searchParams.get('direction') === 'next');
    await rowsEqualApi(page);
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('direction') === 'previous');
    await rowsEqualApi(page);
    await context.close();
  });

  test('says when no visit went through the page', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'owner@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?page=${encodeURIComponent('/nowhere')}`);
    await settled(page);
    assert.equal(await page.locator('[data-panel="journeys"] .empty').textContent(), 'No visit went through /nowhere in this period.');
    await context.close();
  });

  test('passes axe-core at desktop and phone width, light and dark', async () => {
    for (const look of EVERY_LOOK) {
      const { context, page } = await openPage(dashboard, look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await signIn(page, dashboard.server, 'owner@example.com');
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?filter=country:FR`);
      await settled(page);
      await checkPage(page, `journeys-${look.name}`);
      await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?page=%2Fpricing&direction=previous`);
      await settled(page);
      await checkPage(page, `journeys-previous-${look.name}`);
      await context.close();
    }
  });
});
