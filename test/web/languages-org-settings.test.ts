// The home page and an organisation's settings in the reader's language (issue 75), in real
// Chromium: a German account reads the catalogue's German (roles and key scopes by their names on
// screen, the shared form parts' words, a name quoted as German quotes it), and an account that chose
// no language, in an English browser, still reads the English default.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { orgSettings } from '../../src/core/messages/en/org-settings.js';
import { orgSettings as german } from '../../src/core/messages/de/org-settings.js';
import { AppClient } from '../helpers/app-client.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { createUser, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard();
  site = await createSite(dashboard.server);
  await createUser(dashboard.server, 'besitzer@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  const client = new AppClient(dashboard.server);
  assert.equal((await client.signIn('besitzer@example.com', PASSWORD)).status, 200);
  assert.equal((await client.request('PUT', '/app/v1/account/language', { language: 'de' })).status, 200);
});
after(() => dashboard?.close());

async function signedIn(email: string, path: string) {
  const opened = await openPage(dashboard, undefined, undefined, false, undefined, 'en-GB');
  await signIn(opened.page, dashboard.server, email, path);
  return opened;
}

/** Creates an API key named `name` on the settings page, with labels and buttons in `words`' language; the region that shows it once. */
async function createKey(page: Page, words: Pick<typeof german, 'keyNameField' | 'createKeyButton' | 'newKeyRegion'>, name: string) {
  await page.getByLabel(words.keyNameField).fill(name);
  await page.getByRole('button', { name: words.createKeyButton }).click();
  return page.getByRole('region', { name: words.newKeyRegion });
}

describe('the home page and the organisation settings in the reader’s language', () => {
  test('a German account reads German: the sites, its role, the settings’ sections, a new key and its scope', async () => {
    const { context, page } = await signedIn('besitzer@example.com', '/');
    await page.getByRole('heading', { name: 'Websites', level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await page.locator('.card-head .badge').textContent(), 'Inhaber');
    assert.deepEqual(await page.locator('thead th').allTextContents(), ['Website', 'Domain', 'Besucher (24 Std.)']);
    await page.getByRole('link', { name: 'Organisationseinstellungen' }).click();

    await page.getByRole('heading', { name: /^Einstellungen von /, level: 1 }).waitFor();
    for (const heading of ['Websites', 'Website hinzufügen', 'API-Schlüssel', 'Schlüssel erstellen', 'Mitglieder', 'Anmeldung', 'Mitglied einladen', 'Offene Einladungen']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    assert.equal(await page.getByRole('combobox', { name: 'Rolle von besitzer@example.com' }).locator('option:checked').textContent(), 'Inhaber');
    assert.deepEqual(await page.getByRole('combobox', { name: 'Rolle', exact: true }).locator('option').allTextContents(), Object.values(german.roleOptions));
    await page.getByRole('checkbox', { name: 'Zwei-Faktor-Anmeldung für alle Mitglieder verlangen' }).waitFor();
    await page.getByRole('checkbox', { name: 'Single Sign-on verlangen' }).waitFor();
    await page.getByText('Noch keine Schlüssel.').waitFor();

    const shown = await createKey(page, german, 'berichte');
    assert.match((await shown.locator('p').first().textContent())!, /^Kopieren Sie den Schlüssel „berichte“ jetzt: Er wird nur dieses eine Mal angezeigt\.$/);
    await shown.getByRole('button', { name: 'Kopieren' }).waitFor();
    await shown.getByRole('button', { name: 'Fertig' }).click();
    await page.getByRole('cell', { name: 'lesen', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Schlüssel berichte widerrufen' }).click();
    await page.getByRole('dialog', { name: /^Schlüssel „berichte“ widerrufen\?/ }).getByRole('button', { name: 'Abbrechen' }).waitFor();
    await context.close();
  });

  test('an account without a language, in an English browser, reads the English default', async () => {
    const { context, page } = await signedIn('owner@example.com', '/');
    await page.getByRole('heading', { name: orgSettings.sitesTitle, level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.locator('.card-head .badge').textContent(), 'owner');
    assert.deepEqual(await page.locator('thead th').allTextContents(), ['Site', 'Domain', 'Visitors (24 h)']);
    await page.getByRole('link', { name: 'Organisation settings' }).click();

    await page.getByRole('heading', { name: / settings$/, level: 1 }).waitFor();
    for (const heading of ['Sites', 'Add a site', 'API keys', 'Create a key', 'Members', 'Sign-in', 'Invite member', 'Pending invitations']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    assert.equal(await page.getByRole('combobox', { name: 'Role of owner@example.com' }).locator('option:checked').textContent(), 'owner');
    assert.deepEqual(await page.getByRole('combobox', { name: 'Role', exact: true }).locator('option').allTextContents(), ['Viewer: sees the dashboards', 'Admin: also manages sites and keys', 'Owner: also manages members']);
    const shown = await createKey(page, orgSettings, 'reporting');
    assert.equal(await shown.locator('p').first().textContent(), 'Copy the key “reporting” now: it is shown only this once.');
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'read', exact: true }).first().waitFor();
    await context.close();
  });
});
