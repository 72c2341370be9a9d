// The goals, funnel, journeys and realtime pages in the reader's language (issue 75), in real
// Chromium: a German account reads the catalogue's German (table headers, a funnel's steps and
// drop-off, the journeys' columns, the live counts) and no English entry of their sections; a reader
// without a language and an English browser reads them in English as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { frame, names } from '../../src/core/messages/en/common.js';
import { period } from '../../src/core/messages/en/period.js';
import { goals } from '../../src/core/messages/en/goals.js';
import { journeys } from '../../src/core/messages/en/journeys.js';
import { realtime } from '../../src/core/messages/en/realtime.js';
import de from '../../src/core/messages/de/web.js';
import { AppClient } from '../helpers/app-client.js';
import { browserHeaders, BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { englishOn, englishOnly } from './catalogue-text.js';
import { createUser, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

const DAY = 86_400_000;

let dashboard: Dashboard;
let site: SiteFixture;
let funnelId: number;

/** Three visits three days ago: two reach /pricing from the home page, one stays on it. */
function events(now: number) {
  const ts = Math.floor(now / DAY) * DAY - 3 * DAY + 10 * 3_600_000;
  const visit = (ip: string, u: string, at = ts) => ({ ip, ua: BROWSER_UA, country: 'DE', ts: at, u });
  return [visit('10.8.0.1', '/'), visit('10.8.0.1', '/pricing', ts + 60_000), visit('10.8.0.2', '/'), visit('10.8.0.2', '/pricing', ts + 90_000), visit('10.8.0.3', '/')];
}

before(async () => {
  dashboard = await startDashboard();
  site = await createSite(dashboard.server);
  await dashboard.server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' });
  const funnel = await dashboard.server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Home to pricing', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }] });
  funnelId = (funnel.body as { id: number }).id;
  assert.equal((await importEvents(dashboard.server, site.siteId, events(Date.now()))).body.accepted, 5);
  assert.equal(await dashboard.server.collect({ s: site.siteId, u: '/live' }, browserHeaders(site.domain)), 202);
  await dashboard.server.flush();
  await createUser(dashboard.server, 'de@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  const client = new AppClient(dashboard.server);
  assert.equal((await client.signIn('de@example.com', PASSWORD)).status, 200);
  assert.equal((await client.request('PUT', '/app/v1/account/language', { language: 'de' })).status, 200);
  await createUser(dashboard.server, 'en@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

const ENGLISH = new Set(
  [englishOnly(frame, de.frame), englishOnly(names, de.names), englishOnly(period, de.period), englishOnly(goals, de.goals), englishOnly(journeys, de.journeys), englishOnly(realtime, de.realtime)].flatMap((set) => [...set]),
);

async function signedIn(email: string, path: string) {
  const opened = await openPage(dashboard, undefined, undefined, false, undefined, 'en-GB');
  await signIn(opened.page, dashboard.server, email, path);
  return opened;
}

const ready = (page: Page, panel: string) => page.locator(`[data-panel="${panel}"][data-state="ready"]`).waitFor();
const headers = (page: Page, table: string) => page.locator(`${table} thead th`).allTextContents();

describe('the goals, funnel, journeys and realtime pages in the reader’s language', () => {
  test('a German account reads them in German: table headers, steps and drop-off, journeys, live counts; no English entry left', async () => {
    const { context, page } = await signedIn('de@example.com', `/sites/${site.siteId}/goals?period=7d`);
    await ready(page, 'goals');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.deepEqual(await headers(page, '[data-panel="goals"]'), ['Ziel', 'Conversions', 'Conversion-Rate', 'Eindeutige Conversions', 'Änderung Conversions', 'Änderung Rate']);
    await page.getByRole('heading', { name: 'Trichter' }).waitFor();
    assert.match((await page.locator('.funnel-list li').first().textContent())!, /^Home to pricing 2 Schritte innerhalb von 60 Min\., Version 1$/);
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the goals page');

    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/funnels/${funnelId}?period=7d`);
    await ready(page, 'funnel');
    const steps = page.locator('.funnel-steps li');
    assert.match((await steps.nth(0).textContent())!, /^1\. Seite \/\s*3 Besucher$/);
    assert.match((await steps.nth(1).textContent())!, /^1 Besucher verloren \(33(,3)?\s%\)2\. Seite \/pricing\s*2 Besucher · 66(,7)?\s% von Schritt 1$/);
    assert.deepEqual(await page.locator('.funnel-totals dt').allTextContents(), ['Eingestiegen', 'Abgeschlossen', 'Conversion-Rate', 'Änderung Rate']);
    assert.deepEqual(await page.getByLabel('Version').locator('option').allTextContents(), ['1 (aktuell)']);
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the funnel page');

    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?period=7d`);
    await ready(page, 'journeys');
    const columns = await headers(page, 'table.journeys');
    assert.equal(columns[0], 'Schritt 1');
    assert.equal(columns.at(-1), 'Besuche');
    assert.match((await page.locator('.journeys-total').textContent())!, /^Erste Seiten der Besuche: (der häufigste Pfad|die \d+ häufigsten Pfade) aus \d+ Besuchen\.$/);
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the journeys page');

    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/realtime`);
    await page.locator('.feed').waitFor();
    assert.match((await page.locator('.current').textContent())!, /^1 Besucher in den letzten 5 Minuten$/);
    await page.getByRole('heading', { name: /^Live-Feed · letzte 30 Minuten$/ }).waitFor();
    assert.deepEqual(await page.locator('.panels section').first().locator('thead th').allTextContents(), ['Seiten', 'Besucher']);
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the realtime page');
    await context.close();
  });

  test('without a language chosen, an English browser reads them in English as before', async () => {
    const { context, page } = await signedIn('en@example.com', `/sites/${site.siteId}/goals?period=7d`);
    await ready(page, 'goals');
    assert.deepEqual(await headers(page, '[data-panel="goals"]'), ['Goal', 'Conversions', 'Conversion rate', 'Unique conversions', 'Conversions change', 'Rate change']);
    assert.match((await page.locator('.funnel-list li').first().textContent())!, /^Home to pricing 2 steps within 60 min, version 1$/);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/funnels/${funnelId}?period=7d`);
    await ready(page, 'funnel');
    assert.match((await page.locator('.funnel-steps li').nth(1).textContent())!, /^1 visitor lost \(33(\.3)?%\)2\. Page \/pricing\s*2 visitors · 66(\.7)?% from step 1$/);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/journeys?period=7d`);
    await ready(page, 'journeys');
    assert.equal((await headers(page, 'table.journeys')).at(-1), 'Sessions');
    assert.match((await page.locator('.journeys-total').textContent())!, /^First pages of visits: the \d+ most frequent paths? of \d+ sessions\.$/);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/realtime`);
    await page.locator('.feed').waitFor();
    assert.match((await page.locator('.current').textContent())!, /^1 visitor in the last 5 minutes$/);
    await context.close();
  });
});
