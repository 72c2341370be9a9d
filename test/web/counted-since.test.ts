// The goals and funnel pages label figures that miss the first days of the period: a goal and a
// funnel made after those days were rolled up and their raw events deleted say "Counted since <day>".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { formatDay } from '../../web/lib/format.js';
import { createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
let site: SiteFixture;
let funnelId: number;
let since: string;

before(async () => {
  dashboard = await startDashboard({ env: { SVC_APP_RATE_LIMIT: '100000/60s' } });
  const { server } = dashboard;
  site = await createSite(server, { timezone: 'UTC' });
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  // A pageview of /pricing every third day of the last 60, rolled up by the import.
  const lines = Array.from({ length: 20 }, (_, i) => ({ ts: today - (60 - 3 * i) * 86_400_000 + 9 * 3_600_000, ip: `10.3.0.${i + 1}`, ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', u: '/pricing' }));
  const report = await importEvents(server, site.siteId, lines);
  assert.equal(report.body.accepted, lines.length, JSON.stringify(report));
  await server.admin('POST', '/maintenance/run', { tasks: ['retention'] });
  await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' });
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Pricing twice', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'page', pattern: '/pricing' }] });
  funnelId = funnel.body.id;
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
  const kept = (await server.storedEvents(site.siteId)).map((e) => new Date(Number(e.ts)).toISOString().slice(0, 10)).sort();
  since = kept[0]!;
  await createUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
});
after(() => dashboard?.close());

describe('counted since', () => {
  test('the goals and funnel pages say from which day the figures count when it is inside the period', async () => {
    const { context, page } = await openPage(dashboard);
    await signIn(page, dashboard.server, 'owner@example.com');
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals?period=90d`);
    const label = `Counted since ${formatDay(since, await page.evaluate(() => navigator.language))}`;
    await page.locator('[data-panel="goals"][data-state="ready"]').waitFor();
    assert.equal(await page.locator('[data-panel="goals"] .counted-since').textContent(), label);
    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/goals?period=7d`);
    await page.locator('[data-panel="goals"][data-state="ready"]').waitFor();
    assert.equal(await page.locator('.counted-since').count(), 0, 'a period the figures cover is not labelled');

    await page.goto(`${dashboard.server.url}/sites/${site.siteId}/funnels/${funnelId}?period=90d`);
    await page.locator('[data-panel="funnel"][data-state="ready"]').waitFor();
    assert.equal(await page.locator('[data-panel="funnel"] .counted-since').textContent(), label);
    await context.close();
  });
});
