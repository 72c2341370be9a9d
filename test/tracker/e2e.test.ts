// End to end: Chromium loads a page of a tracked site, which loads t.js from the real service; the
// events the tracker sends are accepted by POST /api/e and stored, enriched.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import {
  launchBrowser,
  setTabVisibility,
  startFixtureServer,
  visitorContext,
  waitForStoredEvents,
  type FixtureServer,
} from './harness.js';

describe('tracker end to end with the collection endpoint', () => {
  let service: TestServer;
  let pages: FixtureServer;
  let browser: Browser;
  let site: SiteFixture;

  before(async () => {
    [service, pages, browser] = await Promise.all([startTestServer(), startFixtureServer(), launchBrowser()]);
    site = await createSite(service, { domain: 'shop.test' });
  });
  after(async () => {
    await browser.close();
    await pages.close();
    await service.stop();
  });

  it('stores a pageview, a custom event and the engage event with page, referrer, browser, OS and device', async () => {
    const collectOrigin = service.url.replace('127.0.0.1', 'collect.test');
    pages.page(
      '/pricing',
      `<!doctype html><html><head><script defer src="${collectOrigin}/js/t.js" data-site="${site.siteId}"></script></head>` +
        `<body><button id="buy" data-svc-event="Buy">buy</button></body></html>`,
    );
    const context = await visitorContext(browser);
    const page = await context.newPage();
    await page.goto(`http://shop.test:${pages.port}/pricing?utm_source=newsletter&utm_campaign=spring%20sale&fbclid=x`, {
      referer: 'https://www.news.example/item?id=4',
    });
    await page.click('#buy');
    await setTabVisibility(page, 'hidden');

    const events = await waitForStoredEvents(service, site.siteId, (stored) => stored.length >= 3);
    await context.close();
    // Stored in the order of arrival: the click's beacon and the engage beacon right after it are
    // separate requests that may reach the service in either order (and within one millisecond).
    assert.deepEqual(
      events.map((event) => event.name).sort(),
      ['buy', 'engage', 'pageview'],
    );
    const byName = new Map(events.map((event) => [event.name as string, event]));
    const [pageview, buy, engage] = [byName.get('pageview')!, byName.get('buy')!, byName.get('engage')!];
    assert.equal(pageview.page, '/pricing');
    assert.equal(pageview.entry_page, '/pricing');
    assert.equal(pageview.referrer, 'news.example');
    assert.equal(pageview.utm_source, 'newsletter');
    // The tracker sends the query as written in the address; the server decodes it.
    assert.equal(pageview.utm_campaign, 'spring sale');
    assert.equal(pageview.browser, 'Chrome');
    assert.equal(pageview.os, 'Windows');
    assert.equal(pageview.device, 'desktop');
    assert.equal(Number(pageview.screen_width), 1920);
    assert.equal(pageview.language, 'fr-FR');
    // One visitor, one session for the three events.
    assert.equal(new Set(events.map((event) => String(event.visitor_id))).size, 1);
    assert.equal(new Set(events.map((event) => String(event.session_id))).size, 1);
    assert.equal(buy.page, '/pricing');
    assert.equal(engage.page, '/pricing');
    assert.ok(Number(engage.engaged_ms) >= 0);
    assert.equal(Number(engage.scroll_depth), 100);
  });

  it('serves t.js from the service with its cache headers', async () => {
    const response = await fetch(`${service.url}/js/t.js`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=86400, stale-while-revalidate=604800');
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match((await response.text()).slice(0, 40), /^\(\(\)=>\{/);
  });
});
