// The sign-in, set-up, invitation and account security pages in the reader's language (issue 75), in
// real Chromium: signed out, the browser's (there is no account yet); signed in, the account's. A
// German reader finds the German entries and no English entry of these pages' sections; an English
// browser reads them in English, as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { signIn as signInWords } from '../../src/core/messages/en/sign-in.js';
import { singleSignOn } from '../../src/core/messages/en/single-sign-on.js';
import de from '../../src/core/messages/de/web.js';
import { totpCode } from '../../src/accounts/totp.js';
import { AppClient } from '../helpers/app-client.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { englishOn, englishOnly } from './catalogue-text.js';
import { createUser, DESKTOP, openPage, PASSWORD, signIn, startDashboard, submitSignIn, type Dashboard } from './harness.js';

const GERMAN = 'de-DE';
/** The English entries of these pages' sections that German words differently. */
const ENGLISH = englishOnly(singleSignOn, de.singleSignOn, englishOnly(signInWords, de.signIn));

let dashboard: Dashboard;
let site: SiteFixture;

before(async () => {
  dashboard = await startDashboard();
  site = await createSite(dashboard.server);
});
after(() => dashboard?.close());

const openIn = (locale: string) => openPage(dashboard, DESKTOP, undefined, false, undefined, locale);

async function heading(page: Page, name: string, level = 1): Promise<void> {
  await page.getByRole('heading', { name, level, exact: true }).waitFor();
}

describe('the sign-in pages in the reader’s language', () => {
  test('a German browser signs in in German: /login, a failed single sign-on’s reason, the set-up page; an English browser in English', async () => {
    const german = await openIn(GERMAN);
    await german.page.goto(`${dashboard.server.url}/login?sso=denied`);
    await heading(german.page, 'Anmelden');
    assert.equal(await german.page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await german.page.title(), 'Anmelden · svc');
    assert.equal(await german.page.getByRole('alert').textContent(), de.singleSignOn.failures.denied);
    await german.page.getByLabel('E-Mail', { exact: true }).waitFor();
    await german.page.getByLabel('Passwort', { exact: true }).waitFor();
    await german.page.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
    assert.deepEqual(await englishOn(german.page, ENGLISH), []);
    await german.page.goto(`${dashboard.server.url}/setup`);
    await heading(german.page, 'svc einrichten');
    await german.context.close();

    const english = await openIn('en-GB');
    await english.page.goto(`${dashboard.server.url}/login?sso=denied`);
    await heading(english.page, 'Sign in');
    assert.equal(await english.page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await english.page.getByRole('alert').textContent(), singleSignOn.failures.denied);
    await english.page.getByLabel('Email', { exact: true }).waitFor();
    await english.page.getByLabel('Password', { exact: true }).waitFor();
    await english.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await english.context.close();
  });

  test('a signed-out invitee reads the invitation in the browser’s language, its role named in it', async () => {
    const invited = await dashboard.server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: 'eingeladen@example.com', role: 'viewer' });
    assert.equal(invited.status, 201);
    const { context, page } = await openIn(GERMAN);
    await page.goto(invited.body.url);
    await heading(page, 'Einladung');
    await page.getByText(/^Sie sind eingeladen, Org \d+ als Betrachter beizutreten\.$/).waitFor();
    await page.getByRole('link', { name: 'Anmelden', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Konto anlegen', exact: true }).waitFor();
    await page.getByText('Die eingeladene E-Mail-Adresse.').waitFor();
    assert.deepEqual(await englishOn(page, ENGLISH), []);
    await context.close();
  });

  test('a German account’s security page is German through two-factor set-up, and so is the code asked at sign-in in a German browser', async () => {
    const { server } = dashboard;
    const email = 'sicherheit@example.com';
    await createUser(server, email, [{ orgId: site.orgId, role: 'owner' }]);
    const client = new AppClient(server);
    assert.equal((await client.signIn(email, PASSWORD)).status, 200);
    assert.equal((await client.request('PUT', '/app/v1/account/language', { language: 'de' })).status, 200);

    // An English browser: the account's language wins once signed in.
    const { context, page } = await openIn('en-GB');
    await signIn(page, server, email, '/account/security');
    await heading(page, 'Sicherheit');
    await page.getByRole('link', { name: 'Konto', exact: true }).waitFor();
    await heading(page, 'Zwei-Faktor-Anmeldung', 2);
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'two-factor sign-in off');
    await page.getByRole('button', { name: 'Zwei-Faktor-Anmeldung aktivieren' }).click();
    await page.getByRole('img', { name: 'QR-Code des Zwei-Faktor-Schlüssels für Ihre Authenticator-App' }).waitFor();
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the set-up');
    const key = String(await page.locator('code.secret-text').textContent()).replace(/\s/g, '');
    await page.getByLabel('Code', { exact: true }).fill(totpCode(key, Date.now()));
    await page.getByLabel('Aktuelles Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Bestätigen', exact: true }).click();
    const shown = page.getByRole('region', { name: 'Wiederherstellungscodes' });
    await shown.waitFor();
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'the recovery codes');
    const codes = String(await shown.locator('code').textContent()).trim().split('\n');
    await shown.getByRole('button', { name: 'Fertig' }).click();
    await page.getByText('Die Zwei-Faktor-Anmeldung ist aktiviert. 10 von 10 Wiederherstellungscodes sind noch übrig.').waitFor();
    await page.getByRole('button', { name: 'Zwei-Faktor-Anmeldung deaktivieren' }).waitFor();
    assert.deepEqual(await englishOn(page, ENGLISH), [], 'two-factor sign-in on');
    await context.close();

    const german = await openIn(GERMAN);
    await submitSignIn(german.page, server, email);
    await heading(german.page, 'Zwei-Faktor-Anmeldung');
    assert.deepEqual(await englishOn(german.page, ENGLISH), [], 'the code asked at sign-in');
    await german.page.getByLabel('Code', { exact: true }).fill(codes[0]!);
    await german.page.getByRole('button', { name: 'Überprüfen' }).click();
    await german.page.waitForURL(`${server.url}/`);
    await german.context.close();
  });
});
