// Shared links' views in the browser, with the names on screen: an admin locks a link to the page
// pattern `/blog/**` in the site's settings (a pattern the goals' rules refuse is refused there, with
// its message); the link shows only blog traffic (its entry pages outside the blog as one `(other
// page)` row, not a filter; a page row narrows it to that post; a period past
// the raw-event days says why it has no figures) and says why it shares no goals, funnels or
// realtime, and which periods it answers. A link without locked filters shows the goals and a
// funnel's steps, switched in the page (the link is not opened again), loaded when first opened (a
// load that fails says so). Each view is axe-clean.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OTHER_PAGE_KEY } from '../../src/core/vocabulary.js';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, filled, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

describe('shared links: a page pattern, goals and funnels', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  let funnelId: number;

  before(async () => {
    // The service's clock stands at noon (UTC, the site's zone) of the real day, so that the six
    // visitors' hours fall on the day the goal and the funnel are created and counted since, at
    // whatever hour the test runs.
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    const shift = noon.getTime() - Date.now();
    dashboard = await startDashboard({ clock: { now: () => Date.now() + shift } });
    site = await createSite(dashboard.server, { domain: 'shared-blog.example' });
    const now = Date.now() + shift;
    const lines = [];
    // Six visitors view `/` then `/pricing`; the first three also `/blog/a`, the first one `/blog/x/y` too.
    for (let i = 0; i < 6; i++) {
      const visitor = { ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, country: 'DE' };
      const ts = now - (i + 1) * 3_600_000;
      lines.push({ ts, u: '/', ...visitor }, { ts: ts + 60_000, u: '/pricing', ...visitor });
      if (i < 3) lines.push({ ts: ts + 120_000, u: '/blog/a', ...visitor });
      if (i < 1) lines.push({ ts: ts + 180_000, u: '/blog/x/y', ...visitor });
    }
    assert.equal((await importEvents(dashboard.server, site.siteId, lines)).body.rejected, 0);
    await dashboard.server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Read the blog', kind: 'page', pattern: '/blog/**' });
    const funnel = await dashboard.server.admin('POST', `/sites/${site.siteId}/funnels`, {
      name: 'Home to blog',
      windowMinutes: 60,
      steps: [
        { kind: 'page', pattern: '/' },
        { kind: 'page', pattern: '/blog/**' },
      ],
    });
    assert.equal(funnel.status, 201);
    funnelId = funnel.body.id;
    await createUser(dashboard.server, 'blog-sharer@example.com', [{ orgId: site.orgId, role: 'admin' }]);
  });
  after(() => dashboard?.close());

  it('an admin locks a link to /blog/**; it shows only blog traffic and says what it does not share', async () => {
    const { server } = dashboard;
    const admin = await openPage(dashboard);
    await signIn(admin.page, server, 'blog-sharer@example.com', `/sites/${site.siteId}/settings#shared-links`);
    const form = admin.page.getByRole('form', { name: 'Create a shared link' });
    await form.getByLabel('Filters').fill('page:blog/**');
    await form.getByRole('button', { name: 'Create link' }).click();
    await form.getByText('filters[0]: a page pattern starts with / (wildcards * and **)').waitFor();
    await form.getByLabel('Filters').fill('page:/blog/**');
    await form.getByRole('button', { name: 'Create link' }).click();
    const shown = admin.page.getByRole('region', { name: 'Shared link', exact: true });
    await shown.waitFor();
    const url = String(await shown.locator('pre code').textContent()).trim();
    await admin.page.getByRole('cell', { name: 'page:/blog/**' }).waitFor();
    await admin.context.close();

    const { context, page } = await openPage(dashboard);
    await page.goto(url);
    await page.locator('.locked-filters').getByText('Limited to Page is /blog/**.').waitFor();
    await filled(page);
    const note = page.getByRole('note');
    await note.getByText('Goals, funnels and realtime are not shared through this link').waitFor();
    await note.getByText(/Pages matching \/blog\/\*\* are counted from single events, which this site keeps for its last 30 days/).waitFor();
    // Four blog pageviews by three visitors; none of / or /pricing.
    const kpi = (metric: string) => page.locator(`.kpi[data-metric="${metric}"] .kpi-value`);
    await page.waitForFunction(() => document.querySelector('.kpi[data-metric="pageviews"] .kpi-value')?.textContent !== '…');
    assert.equal(await kpi('pageviews').textContent(), '4');
    assert.equal(await kpi('visitors').textContent(), '3');
    // Conversions count under the lock like every figure: the four blog pageviews match the goal.
    assert.equal(await kpi('conversions').textContent(), '4');
    // Bounce rate is counted under the link's page filter too (its pages' landings, raw=clip reads):
    // every visit entered on /, outside the lock, so its tile says there is no landing to count.
    assert.equal(await page.locator('.kpi[data-metric="bounceRate"]').getAttribute('title'), 'No visit entered on these pages');
    const pages = page.locator('[data-panel="pages"] tbody tr td:first-child');
    assert.deepEqual((await pages.allTextContents()).sort(), ['/blog/a', '/blog/x/y']);
    for (const name of ['Realtime', 'Goals']) assert.equal(await page.getByRole('link', { name }).count(), 0, name);
    await checkPage(page, 'share-pattern-dashboard');
    // Every visit entered on /, which the lock does not show: one `(other page)` row, which is not a filter.
    const panel = page.locator('[data-panel="pages"]');
    await panel.getByRole('tab', { name: 'Entry pages' }).click();
    await panel.getByText(OTHER_PAGE_KEY, { exact: true }).waitFor();
    assert.deepEqual(await pages.allTextContents(), [OTHER_PAGE_KEY]);
    assert.equal(await panel.getByRole('button', { name: OTHER_PAGE_KEY }).count(), 0);
    await panel.getByRole('tab', { name: 'Top pages' }).click();
    // A row of the pages narrows the figures to that post, within the lock.
    await page.locator('[data-panel="pages"]').getByRole('button', { name: '/blog/a', exact: true }).click();
    await page.waitForURL((address) => address.searchParams.getAll('filter').join() === 'page:/blog/a');
    await filled(page);
    await page.waitForFunction(() => document.querySelector('.kpi[data-metric="pageviews"] .kpi-value')?.textContent === '3');
    assert.deepEqual(await pages.allTextContents(), ['/blog/a']);
    // A period past the raw-event days reads its days inside them, and says from which day: the
    // link's lock on pages, which its viewer cannot remove, needs single events.
    await page.locator('select').first().selectOption('90d');
    await page.locator('[data-note="raw-window"]').getByText(/count from .*they need single events/).waitFor();
    assert.equal(await page.locator('[data-panel="overview"] .error').count(), 0, 'no error box');
    await context.close();
  });

  it('a link locked to a country lists the goals in its Events panel, with their rates, and filters by one', async () => {
    const created = await dashboard.server.admin('POST', `/sites/${site.siteId}/shared-links`, { filters: ['country:DE'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { context, page } = await openPage(dashboard);
    await page.goto(created.body.url);
    await page.locator('.locked-filters').getByText('Limited to Country is Germany.').waitFor();
    await page.getByRole('note').getByText('Goals count under its filters, in the Events panel.').waitFor();
    await filled(page);
    const events = page.locator('[data-panel="events"]');
    await events.getByRole('tab', { name: 'Goals' }).click();
    assert.equal(await events.getByRole('tab', { name: 'Properties' }).count(), 0, 'a locked link lists no property keys');
    // Three of the six visitors (all in Germany) read the blog.
    const row = events.locator('tbody tr', { hasText: 'Read the blog' });
    assert.deepEqual(await row.locator('td.num').allTextContents(), ['3', '50%']);
    await row.getByRole('button', { name: 'Read the blog' }).click();
    await page.waitForURL((address) => address.searchParams.getAll('filter').join().startsWith('goal:'));
    await filled(page);
    await page.waitForFunction(() => document.querySelector('.kpi[data-metric="conversionRate"] .kpi-value')?.textContent === '50%');
    await checkPage(page, 'share-country-goals');
    await context.close();
  });

  it('a link without locked filters shows the goals and a funnel, switched in the page', async () => {
    const { server } = dashboard;
    const created = await server.admin('POST', `/sites/${site.siteId}/shared-links`, { password: 'a shared secret here' });
    assert.equal(created.status, 201);
    const { context, page } = await openPage(dashboard);
    await page.goto(created.body.url);
    await page.getByLabel('Password', { exact: true }).fill('a shared secret here');
    await page.getByRole('button', { name: 'View dashboard' }).click();
    await filled(page);
    await page.getByRole('link', { name: 'Goals' }).click();
    assert.match(page.url(), /[?&]view=goals$/);
    const row = page.locator('[data-panel="goals"] tbody tr');
    await row.first().waitFor();
    assert.match((await row.first().locator('td').first().textContent())!, /^Read the blog/);
    // Conversions, unique conversions, their change.
    const shown = await row.first().locator('td').allTextContents();
    assert.deepEqual([shown[1], shown[3], shown[4]], ['4', '3', '—']);
    await checkPage(page, 'share-goals');
    await page.getByRole('link', { name: 'Home to blog' }).click();
    await page.waitForURL((address) => address.searchParams.get('view') === 'funnel' && address.searchParams.get('funnel') === String(funnelId));
    const steps = page.locator('.funnel-steps li');
    await steps.nth(1).getByText('Page /blog/**').waitFor();
    assert.match((await steps.nth(0).textContent())!, /^1\. Page \/\s*6 visitors$/);
    assert.match((await steps.nth(1).textContent())!, /3 visitors · 50% from step 1/);
    await checkPage(page, 'share-funnel');
    // Followed in the page: the password is not asked again, and Back returns to the goals.
    assert.equal(await page.getByRole('button', { name: 'View dashboard' }).count(), 0);
    await page.goBack();
    await row.first().waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await filled(page);
    await context.close();
  });

  it("a view the page loads on demand that cannot load says there is no connection, in the page's frame", async () => {
    const created = await dashboard.server.admin('POST', `/sites/${site.siteId}/shared-links`, {});
    assert.equal(created.status, 201);
    const { context, page } = await openPage(dashboard);
    await page.goto(created.body.url);
    await filled(page);
    // Every script the page had not loaded yet fails: the views besides the dashboard are such.
    await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Realtime' }).click();
    await page.getByRole('alert').getByText('Could not reach the server. Check the connection and try again.').waitFor();
    assert.equal(await page.getByText(/in the last 5 minutes/).count(), 0);
    // The frame stays: its tabs lead back to the dashboard, which the page carries itself.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await filled(page);
    await context.close();
  });
});
