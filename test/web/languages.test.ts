// The dashboard in the reader's language (issue 75), in real Chromium: the account's language, else
// the browser's; the catalogue's words, figures, dates and country names in it (the filter dialog
// finds `Deutschland` for a German reader); the language chosen on /account and kept with the
// account. No text outside the catalogue on any view: walker.test.ts; the layout and axe-core checks
// of every view in every language: every-language.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppClient } from '../helpers/app-client.js';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { createUser, DESKTOP, filled, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

const DAY = 86_400_000;
/** The translated languages: an account reading each. */
const TRANSLATED = ['de', 'fr', 'es'] as const;

let dashboard: Dashboard;
let site: SiteFixture;

/** Three visits from Germany and one from France three days ago, one of them bouncing twice as a pageview; web vitals of `/` rated good, to improve and poor. */
function events(now: number) {
  const ts = Math.floor(now / DAY) * DAY - 3 * DAY + 10 * 3_600_000;
  const visit = (ip: string, country: string, u: string, at = ts) => ({ ip, ua: BROWSER_UA, country, ts: at, u });
  const vitals = { ...visit('10.9.0.1', 'DE', '/', ts + 30_000), e: 'engage', p: { t: 3000, d: 40, lcp: 1200, inp: 300, cls: 300, ttfb: 900 } };
  return [visit('10.9.0.1', 'DE', '/'), vitals, visit('10.9.0.1', 'DE', '/pricing', ts + 60_000), visit('10.9.0.2', 'DE', '/'), visit('10.9.0.3', 'DE', '/pricing'), visit('10.9.0.4', 'FR', '/')];
}

/** An account of the site's organisation whose language is `language` (null: none chosen). */
async function reader(email: string, language: string | null): Promise<void> {
  await createUser(dashboard.server, email, [{ orgId: site.orgId, role: 'owner' }]);
  if (language === null) return;
  const client = new AppClient(dashboard.server);
  assert.equal((await client.signIn(email, PASSWORD)).status, 200);
  assert.equal((await client.request('PUT', '/app/v1/account/language', { language })).status, 200);
}

before(async () => {
  dashboard = await startDashboard();
  site = await createSite(dashboard.server);
  await dashboard.server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'page', pattern: '/pricing' });
  assert.equal((await importEvents(dashboard.server, site.siteId, events(Date.now()))).body.accepted, 6);
  await dashboard.server.flush();
  for (const language of TRANSLATED) await reader(`${language}@example.com`, language);
});
after(() => dashboard?.close());

async function signedIn(email: string, path: string, viewport = DESKTOP, locale = 'en-GB') {
  const opened = await openPage(dashboard, viewport, undefined, false, undefined, locale);
  await signIn(opened.page, dashboard.server, email, path);
  return opened;
}

describe('the language of the dashboard', () => {
  test("a German account reads the catalogue's German: labels, figures, dates and country names; the filter dialog finds Deutschland; an export is named in German", async () => {
    const { context, page } = await signedIn('de@example.com', `/sites/${site.siteId}?period=7d`);
    await filled(page);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    const labels = await page.locator('.kpi-label').allTextContents();
    assert.deepEqual(labels.slice(0, 6), ['Besucher', 'Seitenaufrufe', 'Besuche', 'Absprungrate', 'Besuchsdauer', 'Conversions']);
    const bounce = await page.locator('[data-metric="bounceRate"] .kpi-value').textContent();
    assert.match(bounce!, /^\d+(,\d)?\s%$/, `a German percentage: ${bounce}`);
    assert.match((await page.locator('.chart svg').getAttribute('aria-label'))!, /^Besucher im Zeitraum, 7 Tage/);
    assert.deepEqual(await page.locator('[data-panel="locations"] tbody tr td:first-child').allTextContents(), ['🇩🇪 Deutschland', '🇫🇷 Frankreich']);
    await page.getByRole('button', { name: 'Filtern', exact: true }).click();
    await page.getByLabel('Dimension').selectOption('country');
    await page.locator('#filter-value').fill('deutsch');
    await page.getByRole('option', { name: /Deutschland/ }).waitFor();
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await page.getByRole('button', { name: 'Filter Land entfernen' }).waitFor();
    assert.match((await page.locator('.chip-edit').textContent())!, /^Land ist Deutschland$/);
    // An export is named by the dimension as the page writes it, its letters kept.
    const devices = page.locator('[data-panel="devices"]');
    await devices.getByRole('tab', { name: 'Geräte' }).click();
    await filled(page);
    const [file] = await Promise.all([page.waitForEvent('download'), devices.getByRole('link', { name: 'CSV exportieren' }).click()]);
    assert.match(file.suggestedFilename(), /^gerät-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    await context.close();
  });

  test("a German account's period picker, keyboard help, chart, Details dialog and web vitals are German", async () => {
    const { context, page } = await signedIn('de@example.com', `/sites/${site.siteId}?period=7d`);
    await filled(page);
    assert.equal(await page.locator('label[for="period"]').textContent(), 'Zeitraum');
    assert.equal(await page.locator('#period option:checked').textContent(), 'Letzte 7 Tage');
    assert.match((await page.locator('.period .zone').textContent())!, /^Tage in \S+$/);
    assert.equal(await page.locator('label[for="comparison"]').textContent(), 'Vergleichen mit');
    // The keyboard help: each key's period, the custom range and the list itself.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Tastenkürzel' });
    // The key renders the dialog at Preact's next turn: its rows are read once it shows.
    await help.locator('tr td:nth-child(2)').first().waitFor();
    const rows = await help.locator('tr td:nth-child(2)').allTextContents();
    assert.deepEqual(rows.slice(0, 3), ['Heute', 'Gestern', 'Letzte 7 Tage']);
    assert.deepEqual(rows.slice(-2), ['Eigener Zeitraum…', 'Diese Liste']);
    await help.getByRole('button', { name: 'Schließen' }).click();
    // The chart: its name, its legend, a German date under it and the focused bucket's tooltip.
    const legend = await page.locator('.chart .legend .key').allTextContents();
    assert.deepEqual([legend[0], legend.at(-1)], ['Besucher', 'Vorheriger Zeitraum']);
    assert.match((await page.locator('.chart .x-label').first().textContent())!, /^\d{1,2}\. \S+/);
    await page.locator('.chart svg').focus();
    await page.keyboard.press('ArrowRight');
    const tip = await page.locator('.chart .tooltip span').allTextContents();
    assert.match(tip[0]!, /^Besucher: \d+$/);
    assert.match(tip[1]!, /^Vorheriger Zeitraum \(.+\): \d+$/);
    // The Pages panel's Details: title, search, columns, pager, and the web vitals rated in German.
    await page.locator('[data-panel="pages"]').getByRole('button', { name: 'Details: Seite' }).click();
    const details = page.getByRole('dialog', { name: 'Seite: Details' });
    await details.locator('tbody tr').first().waitFor();
    await details.getByLabel('Suchen').waitFor();
    const columns = await details.locator('thead th').allTextContents();
    assert.deepEqual(columns.slice(0, 3).map((name) => name.replace(/ [▾▴]$/, '')), ['Seite', 'Besucher', 'Seitenaufrufe']);
    const pager = details.getByRole('navigation', { name: 'Seiten der Tabelle' });
    assert.equal(await pager.locator('span').textContent(), '1–2 von 2');
    assert.deepEqual(await pager.getByRole('button').allTextContents(), ['Zurück', 'Weiter']);
    await details.getByRole('button', { name: 'Web Vitals' }).click();
    const vitals = details.getByRole('region', { name: 'Web Vitals' });
    await vitals.getByRole('columnheader', { name: 'TTFB' }).waitFor();
    assert.deepEqual(await vitals.locator('tbody tr').first().locator('th, td').allTextContents(), ['/', 'Gut: 1.200 ms', 'Verbesserungswürdig: 300 ms', 'Schlecht: 0,3', 'Verbesserungswürdig: 900 ms']);
    await details.getByRole('button', { name: 'Schließen' }).click();
    // A period without web vitals says how the tracker measures them.
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=today`);
    await filled(page);
    await page.locator('[data-panel="pages"]').getByRole('button', { name: 'Details: Seite' }).click();
    const empty = page.getByRole('dialog', { name: 'Seite: Details' });
    await empty.getByRole('button', { name: 'Web Vitals' }).click();
    await empty.getByText('Hier gibt es keine Web Vitals: Der Tracker misst sie, wenn sein Script-Tag data-vitals enthält.').waitFor();
    await context.close();
  });

  test("without a language chosen, the browser's: a French browser reads French, an unknown language English", async () => {
    await reader('browser@example.com', null);
    const french = await signedIn('browser@example.com', `/sites/${site.siteId}?period=7d`, DESKTOP, 'fr-FR');
    await filled(french.page);
    assert.deepEqual((await french.page.locator('.kpi-label').allTextContents()).slice(0, 4), ['Visiteurs', 'Pages vues', 'Visites', 'Taux de rebond']);
    await french.context.close();
    const japanese = await signedIn('browser@example.com', `/sites/${site.siteId}?period=7d`, DESKTOP, 'ja-JP');
    await filled(japanese.page);
    assert.equal(await japanese.page.locator('.kpi-label').first().textContent(), 'Visitors');
    await japanese.context.close();
  });

  test('the language chosen on /account is kept with the account and applies at once; the browser’s again when none is chosen', async () => {
    await reader('chooser@example.com', null);
    const { context, page } = await signedIn('chooser@example.com', '/account');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('heading', { name: 'Cuenta', level: 1 }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Idioma' }).inputValue(), 'es');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}?period=7d`);
    await filled(page);
    assert.equal(await page.locator('.kpi-label').first().textContent(), 'Visitantes');
    await page.goto(`${dashboard.server.url}/account`);
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('');
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await context.close();
  });
});
