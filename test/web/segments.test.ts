// Segments and annotations on the site dashboard, in real Chromium against a real server: a segment
// saved from the view's filters, applied, renamed and deleted, with the figures following it and
// `segment=` in the address; a refused name shown as the server says it; annotations added, edited
// and deleted with the keyboard from the chart, each marker showing its text on focus; what a viewer
// may do; axe-core on the new dialogs at desktop and phone width, light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { formatDay } from '../../web/lib/format.js';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, DESKTOP, EVERY_LOOK, filled, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

const DAY = 86_400_000;

let dashboard: Dashboard;
let site: SiteFixture;
/** Three days ago (UTC, the site's zone): the day the events and annotations are on. */
let day: string;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  const at = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 10 * 3_600_000;
  day = new Date(at).toISOString().slice(0, 10);
  const visit = (ip: string, country: string, u: string) => ({ ip, ua: BROWSER_UA, country, ts: at, u });
  const report = await importEvents(server, site.siteId, [visit('10.8.0.1', 'FR', '/'), visit('10.8.0.2', 'FR', '/pricing'), visit('10.8.0.3', 'DE', '/')]);
  assert.equal(report.body.accepted, 3, JSON.stringify(report.body));
  await server.flush();
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  await createUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
});
after(() => dashboard?.close());

async function signedIn(email = 'owner@example.com', look: (typeof EVERY_LOOK)[number] = EVERY_LOOK[0]) {
  const opened = await openPage(dashboard, look.viewport);
  await opened.page.emulateMedia({ colorScheme: look.colorScheme });
  await signIn(opened.page, dashboard.server, email);
  return opened;
}

async function open(page: Page, query = '') {
  await page.goto(`${dashboard.server.url}/sites/${site.siteId}${query}`);
  await filled(page);
}

const visitors = (page: Page) => page.locator('.kpi', { has: page.locator('.kpi-label', { hasText: 'Visitors' }) }).locator('.kpi-value').textContent();
const segmentParam = (page: Page) => new URL(page.url()).searchParams.get('segment');

/** Waits until the visitors tile shows `value` (the view's figures read again). */
async function visitorsAre(page: Page, value: string) {
  await page.waitForFunction(
    (v) => {
      const tile = Array.from(document.querySelectorAll('.kpi')).find((t) => t.querySelector('.kpi-label')?.textContent === 'Visitors');
      return tile?.querySelector('.kpi-value')?.textContent === v && document.querySelector('.kpis[aria-busy="true"]') === null;
    },
    value,
  );
}

describe('segments', () => {
  test('saved from the filters, applied, renamed and deleted, the figures following the segment', async () => {
    const { context, page } = await signedIn();
    await open(page, '?filter=country:FR');
    assert.equal(await visitors(page), '2');
    await page.getByRole('button', { name: 'Save as segment' }).click();
    const save = page.getByRole('dialog', { name: 'Save as segment' });
    await save.getByLabel('Name').fill('French visitors');
    await save.getByLabel("Shared with the site's members").check();
    await save.getByRole('button', { name: 'Save' }).click();
    await save.waitFor({ state: 'detached' });
    // The segment takes the filter's place: the same figures, read with segment=<id>.
    const id = segmentParam(page);
    assert.match(id ?? '', /^\d+$/);
    assert.deepEqual(new URL(page.url()).searchParams.getAll('filter'), []);
    await visitorsAre(page, '2');
    assert.equal(await page.locator('.segment-chip').textContent(), 'Segment French visitors×');

    await page.getByRole('button', { name: 'Remove segment' }).click();
    await visitorsAre(page, '3');
    assert.equal(segmentParam(page), null);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Segments');

    await page.getByRole('button', { name: 'Segments' }).click();
    const list = page.getByRole('dialog', { name: 'Segments' });
    await list.getByRole('button', { name: 'French visitors', exact: true }).click();
    await visitorsAre(page, '2');
    assert.equal(segmentParam(page), id);
    // Reloading the address gives the same view.
    await open(page, new URL(page.url()).search);
    await visitorsAre(page, '2');

    await page.getByRole('button', { name: 'Segments' }).click();
    await list.getByRole('button', { name: 'Rename segment French visitors' }).click();
    await list.getByRole('textbox', { name: 'Name' }).fill('France');
    await list.getByRole('button', { name: 'Save' }).click();
    await list.getByRole('button', { name: 'France', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.segment-chip', { hasText: 'France' }).waitFor();

    await page.getByRole('button', { name: 'Segments' }).click();
    await list.getByRole('button', { name: 'Delete segment France' }).click();
    await page.getByRole('dialog', { name: 'Delete the segment France?' }).getByRole('button', { name: 'Delete' }).click();
    await list.getByText('No segments yet').waitFor();
    // The deleted segment leaves the view.
    await visitorsAre(page, '3');
    assert.equal(segmentParam(page), null);
    await context.close();
  });

  test('a refused name shows the server’s message; a viewer saves personal segments only', async () => {
    const { context, page } = await signedIn('viewer@example.com');
    await open(page, '?filter=country:DE');
    await page.getByRole('button', { name: 'Save as segment' }).click();
    const save = page.getByRole('dialog', { name: 'Save as segment' });
    assert.equal(await save.getByLabel("Shared with the site's members").count(), 0);
    await save.getByLabel('Name').fill('   ');
    await save.getByRole('button', { name: 'Save' }).click();
    const error = save.getByRole('alert');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /name/i);
    await save.getByLabel('Name').fill('Germans');
    await save.getByRole('button', { name: 'Save' }).click();
    await save.waitFor({ state: 'detached' });
    await visitorsAre(page, '1');
    await page.getByRole('button', { name: 'Segments' }).click();
    const list = page.getByRole('dialog', { name: 'Segments' });
    // Its own segment: the viewer may rename and delete it.
    await list.getByRole('button', { name: 'Rename segment Germans' }).waitFor();
    await context.close();
  });

  test('the segment dialogs pass axe-core at desktop and phone width, light and dark', async () => {
    for (const look of EVERY_LOOK) {
      const { context, page } = await signedIn('owner@example.com', look);
      await open(page, '?filter=country:FR');
      await page.getByRole('button', { name: 'Save as segment' }).click();
      await page.getByRole('dialog', { name: 'Save as segment' }).getByLabel('Name').fill(`Look ${look.name}`);
      await checkPage(page, `segment-save-${look.name}`);
      await page.getByRole('dialog', { name: 'Save as segment' }).getByRole('button', { name: 'Save' }).click();
      await page.locator('.segment-chip').waitFor();
      await page.getByRole('button', { name: 'Segments' }).click();
      await page.getByRole('dialog', { name: 'Segments' }).getByRole('button', { name: `Look ${look.name}`, exact: true }).waitFor();
      // Each segment's actions on a line below its name and filters.
      const item = page.locator('.segment').first();
      const [name, rename] = [(await item.locator('.segment-apply').boundingBox())!, (await item.getByRole('button', { name: /^Rename/ }).boundingBox())!];
      assert.ok(rename.y >= name.y + name.height, `${look.name}: Rename at ${rename.y} px, the name ends at ${name.y + name.height} px`);
      await checkPage(page, `segments-list-${look.name}`);
      await page.keyboard.press('Escape');
      await checkPage(page, `segment-applied-${look.name}`);
      await context.close();
    }
  });
});

describe('annotations', () => {
  const markerName = (text: string) => `Annotation of ${formatDay(day, 'en-GB')}: ${text}`;

  test('added, edited and deleted with the keyboard; the marker shows its text on focus', async () => {
    const { context, page } = await signedIn();
    await open(page);
    await page.getByRole('button', { name: 'Add annotation' }).focus();
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: 'Add annotation' });
    await add.waitFor();
    // The focus starts in Text; Shift+Tab reaches Date.
    await page.keyboard.type('Launched the pricing page');
    await page.keyboard.press('Shift+Tab');
    await page.getByLabel('Date').fill(day);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await add.waitFor({ state: 'detached' });
    const marker = page.getByRole('button', { name: markerName('Launched the pricing page') });
    await marker.waitFor();
    assert.equal(await page.locator('.mark-text').isVisible(), false, 'the text is hidden until hover or focus');
    await marker.focus();
    assert.equal(await page.locator('.mark-text').isVisible(), true);
    assert.equal(await page.locator('.mark-text').textContent(), `${formatDay(day, 'en-GB')} Launched the pricing page`);
    await checkPage(page, 'annotation-focused-desktop');

    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit annotation' });
    await edit.waitFor();
    assert.equal(await edit.getByLabel('Date').inputValue(), day);
    await edit.getByLabel('Text').fill('Pricing page v2');
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: markerName('Pricing page v2') }).waitFor();

    await page.getByRole('button', { name: markerName('Pricing page v2') }).focus();
    await page.keyboard.press('Enter');
    await edit.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete this annotation?' });
    await confirm.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    await page.locator('.mark').waitFor({ state: 'detached' });
    await context.close();
  });

  test('a viewer sees the markers and their text, and no way to change them', async () => {
    const { server } = dashboard;
    const owner = await signedIn();
    await open(owner.page);
    await owner.page.getByRole('button', { name: 'Add annotation' }).click();
    await owner.page.getByLabel('Date').fill(day);
    await owner.page.getByLabel('Text').fill('Newsletter');
    await owner.page.getByRole('button', { name: 'Save' }).click();
    await owner.page.getByRole('button', { name: markerName('Newsletter') }).waitFor();
    await owner.context.close();
    const { context, page } = await signedIn('viewer@example.com');
    await page.goto(`${server.url}/sites/${site.siteId}`);
    await filled(page);
    const marker = page.getByRole('button', { name: markerName('Newsletter') });
    await marker.waitFor();
    assert.equal(await marker.getAttribute('aria-disabled'), 'true');
    assert.equal(await page.getByRole('button', { name: 'Add annotation' }).count(), 0);
    await marker.focus();
    assert.equal(await page.locator('.mark-text').isVisible(), true);
    await context.close();
  });

  test('the annotation dialog and markers pass axe-core at desktop and phone width, light and dark', async () => {
    for (const look of EVERY_LOOK) {
      const { context, page } = await signedIn('owner@example.com', look);
      await open(page);
      await page.locator('.mark button').first().focus();
      await checkPage(page, `annotation-marker-${look.name}`);
      await page.getByRole('button', { name: 'Add annotation' }).click();
      await page.getByRole('dialog', { name: 'Add annotation' }).waitFor();
      await checkPage(page, `annotation-dialog-${look.name}`);
      await context.close();
    }
  });
});
