// How events travel: the collection URL (data-api and its defaults), sendBeacon with a text body
// and no preflight, the fetch fallback, no retry, and the queue before DOMContentLoaded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bodies, browserSuite, trackedPage, trackerCode } from './harness.js';

// Plain-http pages get no Sec-Fetch-* headers, so the server cannot tell a beacon from a fetch:
// the page records which of the two the tracker called.
async function recordTransport(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: string[] = ((window as unknown as { transportCalls: string[] }).transportCalls = []);
    const { sendBeacon } = Navigator.prototype;
    const { fetch } = window;
    if (sendBeacon) {
      Navigator.prototype.sendBeacon = function (this: Navigator, ...args: Parameters<Navigator['sendBeacon']>) {
        calls.push('beacon');
        return sendBeacon.apply(this, args);
      };
    }
    // The request as fetch reads the tracker's options: the method normalised (post is POST),
    // keepalive converted to a boolean.
    window.fetch = (...args: Parameters<typeof fetch>) => {
      const request = new Request(...args);
      calls.push(`fetch ${request.method} keepalive=${request.keepalive} mode=${request.mode}`);
      return fetch(...args);
    };
  });
}

function transportCalls(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { transportCalls: string[] }).transportCalls);
}

describe('tracker transport', () => {
  const suite = browserSuite();

  it('posts to <origin of the script>/api/e by sendBeacon: text/plain, no preflight, Origin of the page', async () => {
    const { server, page } = suite;
    await recordTransport(page);
    server.page('/beacon', trackedPage(server));
    await page.goto(`${server.origin('site')}/beacon`);
    const [event] = await server.next(1);
    assert.equal(event!.host, 'cdn.test');
    assert.equal(event!.path, '/api/e');
    assert.equal(event!.headers['content-type'], 'text/plain;charset=UTF-8');
    assert.deepEqual(await transportCalls(page), ['beacon']);
    assert.equal(event!.headers.origin, server.origin('site'));
    assert.equal(event!.headers.cookie, undefined);
    assert.ok(!server.log.some((line) => line.startsWith('OPTIONS')), 'no CORS preflight');
  });

  it('posts to data-api when given, relative to the page or absolute', async () => {
    const { server, page } = suite;
    server.page('/relative', trackedPage(server, { attributes: `data-site="${server.site}" data-api="/stats/e"` }));
    await page.goto(`${server.origin('site')}/relative`);
    const [relative] = await server.next(1);
    assert.deepEqual([relative!.host, relative!.path], ['site.test', '/stats/e']);

    const absolute = `${server.origin('collect')}/custom/collect`;
    server.page('/absolute', trackedPage(server, { attributes: `data-site="${server.site}" data-api="${absolute}"` }));
    await page.goto(`${server.origin('site')}/absolute`);
    const events = await server.next(2); // the first page's engage (pagehide) and this pageview
    const pageview = events.find((event) => !(JSON.parse(event.body) as { e?: string }).e)!;
    assert.deepEqual([pageview.host, pageview.path], ['collect.test', '/custom/collect']);
  });

  it('posts to /api/e of the page when the script has no src (inlined)', async () => {
    const { server, page } = suite;
    const code = await trackerCode();
    server.page('/inline', `<!doctype html><body><script data-site="${server.site}">${code}</script></body>`);
    await page.goto(`${server.origin('site')}/inline`);
    const [event] = await server.next(1);
    assert.deepEqual([event!.host, event!.path], ['site.test', '/api/e']);
    assert.deepEqual(bodies([event!]), [{ s: server.site, u: '/inline', w: 1920, l: 'fr-FR' }]);
  });

  it('falls back to fetch with keepalive when sendBeacon is missing, without preflight or console error', async () => {
    const { server, page } = suite;
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('404')) consoleErrors.push(message.text());
    });
    await page.addInitScript(() => {
      delete (Navigator.prototype as { sendBeacon?: unknown }).sendBeacon;
    });
    await recordTransport(page);
    server.page('/no-beacon', trackedPage(server));
    await page.goto(`${server.origin('site')}/no-beacon`);
    const [event] = await server.next(1);
    assert.deepEqual(await transportCalls(page), ['fetch POST keepalive=true mode=no-cors']);
    assert.equal(event!.headers['content-type'], 'text/plain;charset=UTF-8');
    assert.deepEqual(bodies([event!]), [{ s: server.site, u: '/no-beacon', w: 1920, l: 'fr-FR' }]);
    assert.ok(!server.log.some((line) => line.startsWith('OPTIONS')), 'no CORS preflight');
    assert.deepEqual(consoleErrors, []);
  });

  it('falls back to fetch when sendBeacon refuses the body, and does not retry a failed send', async () => {
    const { server, page } = suite;
    await page.addInitScript(() => {
      Navigator.prototype.sendBeacon = () => false; // what a full beacon queue answers
    });
    await recordTransport(page);
    server.failPosts('/failing/e', 503);
    server.page('/refused', trackedPage(server, { attributes: `data-site="${server.site}" data-api="/failing/e"` }));
    await page.goto(`${server.origin('site')}/refused`);
    const [event] = await server.next(1);
    assert.equal(event!.path, '/failing/e');
    await server.expectQuiet(600);
    assert.deepEqual(await transportCalls(page), ['beacon', 'fetch POST keepalive=true mode=no-cors']);
  });

  it('holds sends made before the document is parsed until DOMContentLoaded', async () => {
    const { server, page } = suite;
    // A blocking script in the body holds the parser for 600 ms; the tracker itself is not deferred.
    server.delay('/slow.js', 600);
    server.page(
      '/parsing',
      trackedPage(server, {
        defer: false,
        head: '',
        body: `<script>svc('before-parsed')</script><script src="/slow.js"></script><p>end</p>`,
      }),
    );
    await page.goto(`${server.origin('site')}/parsing`);
    const events = bodies(await server.next(2)) as { e?: string }[];
    assert.deepEqual(events.map((event) => event.e ?? 'pageview').sort(), ['before-parsed', 'pageview']);
    const log = server.log.slice(server.log.lastIndexOf('GET site.test /parsing'));
    const slowServed = log.indexOf('SENT site.test /slow.js');
    const posts = log.flatMap((line, index) => (line === 'POST cdn.test /api/e' ? [index] : []));
    assert.ok(slowServed > 0 && posts.length === 2, log.join('\n'));
    assert.ok(posts.every((index) => index > slowServed), `sent before the parser finished:\n${log.join('\n')}`);
  });
});
