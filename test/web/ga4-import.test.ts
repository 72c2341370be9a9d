// The Imports section's `Import from Google Analytics 4` in the browser, against the local stand-in
// of Google's endpoints: a property id and a key file picked, the import listed as done with its
// days; a file that is no key answered with the server's reason; no axe violations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ga4Property, startGa4Fixture, type Ga4Fixture } from '../helpers/ga4-property.js';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { axeViolations, createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

const PROPERTY = '387654321';

describe('Import from Google Analytics 4', () => {
  let fixture: Ga4Fixture;
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(['2025-01-30', '2025-01-31']) });
    // Without days, the import runs from the property's first day to yesterday: windows of a year.
    dashboard = await startDashboard({ ...fixture.server, ga4: { ...fixture.server.ga4, windowDays: 366 } });
    site = await createSite(dashboard.server);
    await createUser(dashboard.server, 'ga4-owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  });
  after(async () => {
    await dashboard.close();
    await fixture.google.stop();
  });

  it('starts an import with a property id and a key file, and lists it when done', async () => {
    const { server } = dashboard;
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'ga4-owner@example.com', `/sites/${site.siteId}/settings#imports`);
    const form = page.getByRole('form', { name: 'Import from Google Analytics 4' });
    await form.waitFor();
    assert.deepEqual(await axeViolations(page), []);
    // A file that is not a key: the server's reason, and nothing listed.
    await form.getByLabel('GA4 property id').fill(PROPERTY);
    await form.getByLabel('Service account key (JSON)').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a key') });
    await form.getByRole('button', { name: 'Import from Google Analytics 4' }).click();
    await page.getByText(/key is not a service account key svc can use: it is not JSON/).waitFor();
    await form.getByLabel('Service account key (JSON)').setInputFiles({ name: 'ga4-reader.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(fixture.keyFile)) });
    await form.getByRole('button', { name: 'Import from Google Analytics 4' }).click();
    await page.getByText('The import from Google Analytics 4 started').waitFor();
    await page.getByRole('cell', { name: 'Done' }).waitFor();
    assert.ok(await page.getByRole('cell', { name: 'Google Analytics 4', exact: true }).isVisible());
    // The job's days are yesterday's and before: here, the property's only days.
    const [job] = (await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports;
    assert.deepEqual([job.source, job.status, job.from], ['ga4', 'done', '2025-01-30']);
    // Days as the page's locale (en-GB) writes them.
    assert.ok(await page.getByRole('cell', { name: /^30 Jan 2025 to \d{1,2} \w{3} \d{4}$/ }).isVisible());
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
