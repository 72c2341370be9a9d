// The site settings' Imports section in the browser: a file picked and imported, its progress bar
// while it is queued and running, the import listed when done, deleted after confirmation, the
// columns an older export lacks said in words, and the export link, Umami's export chosen as the
// source; keyboard-named controls and no axe violations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { firstExport, plausibleExport, uploadPlausibleExport, zipOf } from '../helpers/plausible-export.js';
import { umamiCsv } from '../helpers/umami-export.js';
import { axeViolations, createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

describe('the Imports section of site settings', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    site = await createSite(dashboard.server);
    await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  });
  after(async () => {
    await dashboard.close();
  });

  it('imports a picked file with a progress bar, lists it, deletes it, and links the export', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'owner@example.com', `/sites/${site.siteId}/settings#imports`);
    const section = page.getByRole('region', { name: 'Imports' }).first();
    await page.getByRole('heading', { name: 'Imports' }).waitFor();
    await section.getByText('No imports yet.').waitFor();
    // Held in the queue, so that its bar can be seen before it runs.
    await server.ctx.imports.stop();
    await page.getByLabel('Import file').setInputFiles({ name: 'plausible-export.zip', mimeType: 'application/zip', buffer: await zipOf(plausibleExport(['2025-02-01', '2025-02-02'])) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('plausible-export.zip is uploaded').waitFor();
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    assert.match((await bar.getAttribute('aria-label')) ?? '', /Queued/);
    assert.deepEqual(await axeViolations(page), []);
    server.ctx.imports.start();
    await page.getByRole('cell', { name: 'Done' }).waitFor();
    assert.equal(await page.getByRole('progressbar').count(), 0);
    assert.ok(await page.getByRole('cell', { name: '1 Feb 2025 to 2 Feb 2025' }).isVisible());
    assert.ok(await page.getByRole('cell', { name: '42' }).isVisible());
    // The export of all data, in Plausible's format.
    const link = page.getByRole('link', { name: 'Export all data' });
    assert.equal(await link.getAttribute('href'), `/app/v1/manage/sites/${encodeURIComponent(site.siteId)}/export`);
    assert.ok(await page.getByText(/holds the rolled-up days and the imported days: today is not rolled up yet/).isVisible(), 'the days the export holds are said next to it');
    const exported = await page.evaluate(async (href) => {
      const res = await fetch(href!);
      return { status: res.status, type: res.headers.get('content-type'), bytes: (await res.arrayBuffer()).byteLength };
    }, await link.getAttribute('href'));
    assert.equal(exported.status, 200);
    assert.equal(exported.type, 'application/zip');
    assert.ok(exported.bytes > 1000);
    assert.deepEqual(await axeViolations(page), []);
    // Deleted after confirmation: gone from the list and from the statistics.
    await page.getByRole('button', { name: /^Delete the Plausible import of / }).click();
    await page.getByRole('button', { name: 'Delete import' }).click();
    await page.getByText('No imports yet.').waitFor();
    assert.deepEqual((await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports, []);
    // One CSV of Plausible's first export: imported, and what its table lacks said under the list.
    const exits = firstExport(['2025-02-03'], '/pricing')['imported_exit_pages_20250203_20250203.csv']!;
    await page.getByLabel('Import file').setInputFiles({ name: 'exits.csv', mimeType: 'text/csv', buffer: Buffer.from(exits) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('cell', { name: 'Done' }).waitFor();
    const note = await page.getByText(/^3 Feb 2025 to 3 Feb 2025: An older export/).innerText();
    assert.match(note, /exit pages without visit duration, bounces and pageviews\. What these columns give is unknown on its days, never counted as 0\./);
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: /^Delete the Plausible import of / }).click();
    await page.getByRole('button', { name: 'Delete import' }).click();
    await page.getByText('No imports yet.').waitFor();
    // A file that is not an export: the server's reason in place.
    await page.getByLabel('Import file').setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(/not a file of Plausible's export/).waitFor();
    await context.close();
  });

  it("imports Umami's data export chosen as the source", async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'owner@example.com', `/sites/${site.siteId}/settings#imports`);
    const section = page.getByRole('region', { name: 'Imports' }).first();
    await page.getByRole('heading', { name: 'Imports' }).waitFor();
    await page.getByLabel('Source').selectOption({ label: 'Umami' });
    // The choice reads whole; the file it takes is said below it.
    await page.getByText("Umami's data export (.csv or .csv.gz)").waitFor();
    assert.deepEqual(await page.getByLabel('Source').locator('option').allTextContents(), ['Plausible', 'GoatCounter', 'Umami']);
    const row = { session_id: 's-1', visit_id: 'v-1', hostname: site.domain, browser: 'chrome', os: 'Windows 10', device: 'desktop', url_path: '/', event_type: '1', created_at: '2025-03-01 10:00:00' };
    await page.getByLabel('Import file').setInputFiles({ name: 'umami-export.csv', mimeType: 'text/csv', buffer: Buffer.from(umamiCsv([row, { ...row, url_path: '/pricing', created_at: '2025-03-01 10:01:00' }])) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await section.getByRole('cell', { name: 'Done' }).waitFor();
    assert.ok(await section.getByRole('cell', { name: 'Umami', exact: true }).isVisible());
    assert.ok(await section.getByRole('cell', { name: '1 Mar 2025 to 1 Mar 2025' }).isVisible());
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});

describe('the dashboard with imported days', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    site = await createSite(dashboard.server);
    await createUser(dashboard.server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    await uploadPlausibleExport(dashboard.server, site.siteId, ['2025-02-01', '2025-02-02', '2025-02-03']);
  });
  after(async () => {
    await dashboard.close();
  });

  it('shows imported figures, and a one-line note where a view leaves them out', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    // Three days: read by day, imported days included, no note.
    await signIn(page, server, 'viewer@example.com', `/sites/${site.siteId}?from=2025-02-01&to=2025-02-03`);
    const overview = page.getByRole('region', { name: 'Overview' });
    await page.locator('[data-panel="overview"][data-state="ready"]').waitFor();
    await page.locator('[data-panel="chart"][data-state="ready"]').waitFor();
    assert.match(await overview.innerText(), /30/);
    assert.equal(await page.getByRole('note').count(), 0);
    // One day: its hours cannot come from daily totals.
    await page.goto(`${server.url}/sites/${site.siteId}?from=2025-02-02&to=2025-02-02`);
    await page.getByRole('note').waitFor();
    assert.match(await page.getByRole('note').innerText(), /Imported history is left out/);
    assert.deepEqual(await axeViolations(page), []);
    // One filter: the tiles and the countries count the imported days; pages under it need single
    // events, which these days (long before the raw window) never had: a note in the panel, no error.
    await page.goto(`${server.url}/sites/${site.siteId}?from=2025-02-01&to=2025-02-03&filter=country:FR`);
    const pages = page.locator('[data-panel="pages"][data-state="ready"]');
    await pages.waitFor();
    await page.locator('[data-panel="locations"][data-state="ready"]').waitFor();
    assert.equal(await page.locator('.error').count(), 0);
    assert.match(await pages.locator('[data-note="no-single-events"]').innerText(), /Not counted for these days: these filters need single events/);
    await context.close();
  });

  it('says which panel leaves imported days out when they lie inside the raw window', async () => {
    const { server } = dashboard;
    const recent = await createSite(server);
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    await uploadPlausibleExport(server, recent.siteId, [day(6), day(5)]);
    await server.admin('PUT', `/orgs/${recent.orgId}/members/${(await server.admin('GET', '/users')).body.users.find((u: { email: string }) => u.email === 'viewer@example.com').id}`, { role: 'viewer' });
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'viewer@example.com', `/sites/${recent.siteId}?period=7d&filter=country:FR`);
    await page.locator('[data-panel="pages"][data-state="ready"]').waitFor();
    await page.locator('[data-panel="locations"][data-state="ready"]').waitFor();
    // The tiles count them (one filter); pages under the filter read single events, and say what they leave out.
    assert.match(await page.locator('[data-panel="pages"]').innerText(), /Without the imported history/);
    assert.doesNotMatch(await page.locator('[data-panel="locations"]').innerText(), /Without the imported history/);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
