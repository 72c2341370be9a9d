// The nginx first-party proxy configuration of docs/tracker.md, run in a real nginx in front of the
// real service: a page on the tracked domain loads /stats/t.js and posts to /stats/e through it, and
// the relay variant passes the visitor's IP (and only the relay's own X-Svc-Client-* headers).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { GeoLocator } from '../../src/ingest/geo.js';
import { startNginx, type NginxProcess } from '../helpers/nginx.js';
import { freePort } from '../../support/ports.js';
import { postFrom } from '../helpers/post-from.js';
import { BROWSER_UA, createRelayKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { launchBrowser, visitorContext, waitForStoredEvents } from './harness.js';

const DOC = new URL('../../docs/tracker.md', import.meta.url);

/** The nginx block that follows `<!-- nginx-proxy: <name> -->` in docs/tracker.md, verbatim. */
function snippetFromDoc(name: string): string {
  const doc = readFileSync(DOC, 'utf8');
  const match = new RegExp(`<!-- nginx-proxy: ${name} -->\\n\`\`\`nginx\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  assert.ok(match, `docs/tracker.md has no nginx block marked "${name}"`);
  return match[1]!;
}

// Visitors at 127.0.0.2 and 127.0.0.3 are placed by this stand-in geolocation; the proxy's own
// address (127.0.0.1) is nowhere.
const geo: GeoLocator = {
  lookup(ip) {
    if (ip === '127.0.0.2') return { country: 'FR', region: 'Île-de-France', city: 'Paris' };
    if (ip === '127.0.0.3') return { country: 'DE', region: 'Berlin', city: 'Berlin' };
    return { country: null, region: null, city: null };
  },
};

describe('first-party proxy through nginx, configured as docs/tracker.md says', () => {
  let service: TestServer;
  let site: SiteFixture;
  let browser: Browser;
  let nginx: NginxProcess;
  let wwwDir: string;
  let basicPort: number;
  let relayPort: number;

  before(async () => {
    service = await startTestServer({ geo });
    site = await createSite(service, { domain: 'shop.test' });
    const relayKey = await createRelayKey(service);
    [basicPort, relayPort, browser] = await Promise.all([freePort(), freePort(), launchBrowser()]);

    wwwDir = mkdtempSync(join(tmpdir(), 'svc-www-'));
    chmodSync(wwwDir, 0o755);
    writeFileSync(
      join(wwwDir, 'index.html'),
      `<!doctype html><html><head><script defer src="/stats/t.js" data-site="${site.siteId}" data-api="/stats/e"></script></head><body>shop</body></html>`,
    );
    const upstream = (snippet: string) => snippet.replaceAll('https://collect.example.com', service.url);
    const servers = `
  server {
    listen 127.0.0.1:${basicPort};
    root ${wwwDir};
${upstream(snippetFromDoc('basic'))}
  }
  server {
    listen 127.0.0.1:${relayPort};
${upstream(snippetFromDoc('relay')).replace('RELAY_KEY', relayKey)}
  }
`;
    nginx = await startNginx(servers, [basicPort, relayPort]);
  });

  after(async () => {
    await nginx.stop();
    await browser.close();
    await service.stop();
    rmSync(wwwDir, { recursive: true, force: true });
  });

  it('serves t.js and accepts a pageview of a page on the tracked domain, proxied as /stats/t.js and /stats/e', async () => {
    const context = await visitorContext(browser);
    const page = await context.newPage();
    const scriptResponse = page.waitForResponse((response) => response.url().endsWith('/stats/t.js'));
    await page.goto(`http://shop.test:${basicPort}/?utm_source=proxy`);
    assert.equal((await scriptResponse).status(), 200);

    const [pageview] = await waitForStoredEvents(service, site.siteId, (stored) => stored.length >= 1);
    await context.close();
    assert.ok(pageview, 'the pageview sent through the proxy was stored');
    assert.equal(pageview.name, 'pageview');
    assert.equal(pageview.page, '/');
    assert.equal(pageview.utm_source, 'proxy');
    assert.equal(pageview.browser, 'Chrome');
    assert.equal(pageview.country, null, "without a relay the endpoint sees the proxy's address");
  });

  it('passes the visitor IP with the relay key, and drops visitor-sent relay headers', async () => {
    const body = (path: string) => JSON.stringify({ s: site.siteId, u: path, w: 1440 });
    const headers = {
      origin: 'https://shop.test',
      'user-agent': BROWSER_UA,
      'x-svc-client-country': 'ZZ',
      'x-svc-client-city': 'Spoofville',
      'x-svc-client-ip': '203.0.113.9',
    };
    assert.equal(await postFrom('127.0.0.2', relayPort, '/stats/e', body('/relayed-fr'), headers), 202);
    assert.equal(await postFrom('127.0.0.3', relayPort, '/stats/e', body('/relayed-de'), headers), 202);
    // The same visitors through the plain proxy: no key, so the relay headers are ignored.
    assert.equal(await postFrom('127.0.0.2', basicPort, '/stats/e', body('/plain-2'), headers), 202);
    assert.equal(await postFrom('127.0.0.3', basicPort, '/stats/e', body('/plain-3'), headers), 202);

    const pages = ['/relayed-fr', '/relayed-de', '/plain-2', '/plain-3'];
    const events = await waitForStoredEvents(service, site.siteId, (stored) =>
      pages.every((path) => stored.some((event) => event.page === path)),
    );
    const byPage = new Map(events.map((event) => [event.page as string, event]));
    const fr = byPage.get('/relayed-fr');
    const de = byPage.get('/relayed-de');
    assert.ok(fr && de, `relayed events stored: ${[...byPage.keys()].join(', ')}`);
    assert.deepEqual([fr.country, fr.region, fr.city], ['FR', 'Île-de-France', 'Paris']);
    assert.deepEqual([de.country, de.city], ['DE', 'Berlin']);
    assert.notEqual(String(fr.visitor_id), String(de.visitor_id), 'two visitors behind one proxy are told apart');

    const plain2 = byPage.get('/plain-2');
    const plain3 = byPage.get('/plain-3');
    assert.ok(plain2 && plain3);
    assert.deepEqual([plain2.country, plain2.city], [null, null]);
    assert.equal(String(plain2.visitor_id), String(plain3.visitor_id), 'without a relay both share the proxy address');
  });
});
