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

  it('sends nothing the endpoint would drop (a name outside the rule, props over 2048 bytes, a body over 4096 bytes) and the events around them are stored', async () => {
    const collectOrigin = service.url.replace('127.0.0.1', 'collect.test');
    pages.page('/shop', `<!doctype html><html><head><script defer src="${collectOrigin}/js/t.js" data-site="${site.siteId}"></script></head><body></body></html>`);
    const drops = service.ctx.ingest.drops;
    const reasons = ['bad_name', 'bad_props', 'too_large'] as const;
    const before = reasons.map((reason) => drops.droppedFor(reason));
    const moved = () => reasons.map((reason, i) => drops.droppedFor(reason) - before[i]!);
    const context = await visitorContext(browser);
    const page = await context.newPage();
    await page.goto(`http://shop.test:${pages.port}/shop`);
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      svc('Has Space');
      svc('x'.repeat(65));
      // 3 × 500 two-byte characters: 1.5 K characters but about 3 KB of UTF-8.
      svc('big-props', { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) });
      history.replaceState({}, '', '/shop?utm_campaign=' + 'c'.repeat(2600));
      svc('big-body', { a: 'x'.repeat(500), b: 'x'.repeat(500), c: 'x'.repeat(500) });
      history.replaceState({}, '', '/shop');
      svc('Kept', { a: 'é'.repeat(500) });
    });
    const events = await waitForStoredEvents(service, site.siteId, (stored) => stored.some((event) => event.name === 'kept'));
    // Beacons are separate requests: one sent before the kept event may still arrive after it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await context.close();
    assert.deepEqual(moved(), [0, 0, 0]);
    assert.deepEqual(events.filter((event) => event.page === '/shop').map((event) => event.name).sort(), ['kept', 'pageview']);
  });

  it('serves t.js from the service with its cache headers', async () => {
    const response = await fetch(`${service.url}/js/t.js`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=86400, stale-while-revalidate=604800');
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match((await response.text()).slice(0, 40), /^\(\(\)=>\{/);
  });
});
