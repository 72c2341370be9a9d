// A site's settings in the reader's language (issue 75), in real Chromium: a German account reads the
// catalogue's German in each part (general and time zone, alert rules, email reports, shared links,
// imports), with no English-only entry of the siteSettings and siteFields sections left on it; an
// account with no language chosen, in an English browser, reads the English as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { siteSettings } from '../../src/core/messages/en/site-settings.js';
import { siteFields } from '../../src/core/messages/en/site-fields.js';
import de from '../../src/core/messages/de/web.js';
import { AppClient } from '../helpers/app-client.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard();
  site = await createSite(dashboard.server);
  await createUser(dashboard.server, 'de@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(dashboard.server, 'en@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  const client = new AppClient(dashboard.server);
  assert.equal((await client.signIn('de@example.com', PASSWORD)).status, 200);
  assert.equal((await client.request('PUT', '/app/v1/account/language', { language: 'de' })).status, 200);
});
after(() => dashboard?.close());

/** The strings of an English section whose German differs: text that must not show on a German page. */
function englishOnly(english: object, translated: object, into = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(english)) {
    const other = (translated as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (value !== other && !value.includes('{')) into.add(value.trim());
    } else englishOnly(value as object, other as object, into);
  }
  return into;
}
const ENGLISH = new Set([...englishOnly(siteSettings, de.siteSettings), ...englishOnly(siteFields, de.siteFields)]);

/** The page's text nodes, accessible names and titles that are English-only entries of the two sections. */
async function englishOn(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) found.push(node.textContent!.trim());
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], option'))) found.push(el.getAttribute('aria-label') ?? '', el.getAttribute('title') ?? '', el.textContent ?? '');
    return found;
  });
  return [...new Set(texts.filter((text) => ENGLISH.has(text)))];
}

/** Opens the settings section `hash` and waits for its heading `title`. */
async function section(page: Page, hash: string, title: string): Promise<void> {
  await page.goto(`${dashboard.server.url}/sites/${site.siteId}/settings#${hash}`);
  await page.getByRole('heading', { name: title, level: 2 }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe("a site's settings in the reader's language", () => {
  test('a German account reads German in every part: time zone, alert rules, reports, shared links, imports', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'de@example.com', `/sites/${site.siteId}/settings`);
    await page.getByRole('heading', { name: 'Allgemein', level: 2 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.match(await page.title(), /Einstellungen von /);
    assert.deepEqual(await page.getByRole('navigation', { name: 'Bereiche der Einstellungen' }).getByRole('link').allTextContents(), [
      'Allgemein', 'Ziele', 'Trichter', 'Benachrichtigungen', 'Berichte', 'Geteilte Links', 'Import und Export', 'Gefahrenbereich',
    ]);
    await page.getByLabel('Zeitzone').waitFor();
    await page.getByText('Tippen Sie zum Suchen, zum Beispiel Europe/Berlin.').waitFor();
    const keep = page.getByLabel('Einzelne Ereignisse aufbewahren');
    assert.deepEqual(await keep.locator('option').allTextContents(), ['30 Tage', '13 Monate', '25 Monate']);
    assert.deepEqual(await englishOn(page), [], 'general');

    await section(page, 'alerts', 'Benachrichtigungsregeln');
    await page.getByText('Noch keine Benachrichtigungsregeln.').waitFor();
    assert.deepEqual(await page.getByLabel('Art', { exact: true }).locator('option').allTextContents(), ['Anstieg', 'Einbruch', 'Stille', 'Ziel']);
    await page.getByRole('button', { name: 'Regel hinzufügen' }).waitFor();
    assert.deepEqual(await englishOn(page), [], 'alert rules');

    await section(page, 'reports', 'E-Mail-Berichte');
    await page.getByRole('heading', { name: 'Bericht-Webhooks' }).waitFor();
    assert.deepEqual(await englishOn(page), [], 'email reports');

    await section(page, 'shared-links', 'Geteilte Links');
    await page.getByText('Keine geteilten Links.').waitFor();
    assert.deepEqual(await englishOn(page), [], 'shared links');
    // The link shown once: its frame (./copy.tsx's `Done`) is another section's.
    await page.getByRole('button', { name: 'Link erstellen' }).click();
    await page.getByText(/^Jeder mit diesem Link sieht das Dashboard/).waitFor();

    await section(page, 'imports', 'Importe');
    await page.getByRole('form', { name: 'Datei importieren' }).waitFor();
    await page.getByText('CSV-Export von Plausible (.zip oder .csv)').waitFor();
    await page.getByRole('link', { name: 'Alle Daten exportieren' }).waitFor();
    assert.deepEqual(await englishOn(page), [], 'imports');
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('with no language chosen, an English browser reads the English as before', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'en@example.com', `/sites/${site.siteId}/settings`);
    await page.getByRole('heading', { name: 'General', level: 2 }).waitFor();
    await page.getByLabel('Time zone').waitFor();
    assert.deepEqual(await page.getByLabel('Keep single events').locator('option').allTextContents(), ['30 days', '13 months', '25 months']);
    await section(page, 'alerts', 'Alert rules');
    assert.deepEqual(await page.getByLabel('Type', { exact: true }).locator('option').allTextContents(), ['Spike', 'Drop', 'Silence', 'Goal']);
    await section(page, 'shared-links', 'Shared links');
    await page.getByRole('columnheader', { name: 'Last use' }).waitFor();
    await section(page, 'imports', 'Imports');
    await page.getByRole('link', { name: 'Export all data' }).waitFor();
    await context.close();
  });
});
