// The tracker stands down (sends nothing, and window.svc becomes a no-op) without data-site, under
// automation, inside an iframe, on a local host without data-dev, and after an opt-out; a page with
// data-dev says why in one console message.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bodies, browserSuite, trackedPage, trackerCode } from './harness.js';

/** Calls window.svc as a page would; true when it exists and does not throw. */
function callSvc(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    (window as unknown as { svc: (name: string) => void }).svc('signup');
    return true;
  });
}

/** The console messages of `page` and its frames while `visit` runs. */
async function consoleDuring(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const messages: string[] = [];
  const listener = (message: { text(): string }) => messages.push(message.text());
  page.on('console', listener);
  try {
    await visit();
    // A message logged as the script runs reaches the listener shortly after.
    await page.waitForTimeout(200);
  } finally {
    page.off('console', listener);
  }
  return messages;
}

describe('tracker stands down', () => {
  const suite = browserSuite();

  it('does nothing without data-site, even with queued calls, and leaves a callable window.svc', async () => {
    const { server, page } = suite;
    const stub = `<script>window.svc = function () { (window.svc.q = window.svc.q || []).push(arguments) }; svc('early');</script>`;
    server.page('/no-site', trackedPage(server, { attributes: 'data-api="/api/e"', head: stub }));
    await page.goto(`${server.origin('site')}/no-site`);
    assert.equal(await callSvc(page), true);
    await server.expectQuiet();
    assert.ok(server.log.includes('GET cdn.test /t.js'), 'the script was loaded');
  });

  it('does nothing inside an iframe, while the same page at top level is tracked', async () => {
    const { server, page } = suite;
    server.page('/framed', trackedPage(server));
    server.page('/host', `<!doctype html><iframe src="${server.origin('site')}/framed"></iframe>`);
    await page.goto(`${server.origin('site')}/host`);
    const frame = page.frames().find((candidate) => candidate.url().endsWith('/framed'))!;
    await frame.waitForLoadState('load');
    assert.equal(await frame.evaluate(() => typeof (window as unknown as { svc: unknown }).svc), 'function');
    await server.expectQuiet();

    await page.goto(`${server.origin('site')}/framed`);
    const [event] = bodies(await server.next(1)) as [{ u: string }];
    assert.equal(event.u, '/framed');
  });

  it('says why in one console message on a page with data-dev, and says nothing where it tracks or without data-dev', async () => {
    const { server, page } = suite;
    server.page('/framed-dev', trackedPage(server, { attributes: `data-site="${server.site}" data-dev data-engage="off"` }));
    server.page('/framed-quiet', trackedPage(server));
    server.page('/host-dev', `<!doctype html><iframe src="${server.origin('site')}/framed-dev"></iframe><iframe src="${server.origin('site')}/framed-quiet"></iframe>`);
    const framed = await consoleDuring(page, async () => {
      await page.goto(`${server.origin('site')}/host-dev`);
      await page.waitForLoadState('load');
    });
    assert.deepEqual(framed, ['svc: not tracking, in a frame']);
    await server.expectQuiet();

    const tracked = await consoleDuring(page, async () => {
      await page.goto(`${server.origin('site')}/framed-dev`);
      await server.next(1);
    });
    assert.deepEqual(tracked, []);

    const optedOut = await consoleDuring(page, async () => {
      await page.evaluate(() => localStorage.setItem('svc_ignore', 'true'));
      await page.reload();
      await page.evaluate(() => localStorage.removeItem('svc_ignore'));
    });
    assert.deepEqual(optedOut, ['svc: not tracking, localStorage.svc_ignore']);
    await server.expectQuiet();
  });

  it('does nothing on localhost, 127.x and [::1] without data-dev, and tracks them with data-dev', async () => {
    const { page } = suite;
    // Loopback pages are answered by the browser's request interception (so the test depends neither
    // on IPv6 nor on how "localhost" resolves), and so are t.js and the collector on the same origin:
    // Chromium's local network access rules would block a loopback page from loading them elsewhere.
    const code = await trackerCode();
    const posted: { url: string; body: string }[] = [];
    let attributes = '';
    await page.route(/^http:\/\/(localhost|127\.[\d.]+|\[::1\]):9\//, (route) => {
      const request = route.request();
      if (request.method() === 'POST') {
        posted.push({ url: request.url(), body: request.postData() ?? '' });
        return route.fulfill({ status: 202 });
      }
      if (request.url().endsWith('/t.js')) return route.fulfill({ contentType: 'text/javascript', body: code });
      return route.fulfill({ contentType: 'text/html', body: `<!doctype html><script defer src="/t.js" ${attributes}></script>` });
    });
    const hosts = ['localhost', '127.0.0.1', '127.8.9.10', '[::1]'];
    attributes = 'data-site="local_site"';
    for (const host of hosts) {
      await page.goto(`http://${host}:9/local`);
      assert.equal(await callSvc(page), true);
    }
    attributes = 'data-site="local_site" data-dev data-engage="off"';
    for (const host of hosts) await page.goto(`http://${host}:9/dev`);
    // Beacons reach the route handler after the load event, at their own pace.
    for (const deadline = Date.now() + 10_000; posted.length < hosts.length && Date.now() < deadline; ) await page.waitForTimeout(50);
    assert.deepEqual(
      posted,
      hosts.map((host) => ({ url: `http://${host}:9/api/e`, body: '{"s":"local_site","u":"/dev","w":1920,"l":"fr-FR"}' })),
    );
  });

  it('tracks host names that only start like a local one', async () => {
    const { server, page } = suite;
    server.page('/lookalike', trackedPage(server, { attributes: `data-site="${server.site}" data-engage="off"` }));
    for (const host of ['localhost.test', '127.0.0.1.test']) {
      await page.goto(`http://${host}:${server.port}/lookalike`);
      const [event] = await server.next(1);
      assert.equal(event!.headers.origin, `http://${host}:${server.port}`);
    }
  });

  it('does nothing when localStorage.svc_ignore is "true", and tracks again once it is "false" or removed', async () => {
    const { server, page, context } = suite;
    server.page('/opt-out', trackedPage(server, { attributes: `data-site="${server.site}" data-engage="off"` }));
    await page.goto(`${server.origin('site')}/opt-out`);
    await server.next(1);
    await page.evaluate(() => localStorage.setItem('svc_ignore', 'true'));
    await page.reload();
    assert.equal(await callSvc(page), true);
    await server.expectQuiet();

    await page.evaluate(() => localStorage.setItem('svc_ignore', 'false'));
    await page.reload();
    await server.next(1);

    await page.evaluate(() => localStorage.setItem('svc_ignore', 'true'));
    await page.reload();
    await server.expectQuiet();
    await page.evaluate(() => localStorage.removeItem('svc_ignore'));
    await page.reload();
    await server.next(1);
    assert.equal(context.pages().length, 1);
  });
});

describe('tracker under automation', () => {
  // Launched without --disable-blink-features=AutomationControlled: navigator.webdriver is true.
  const suite = browserSuite({ automation: true });

  it('does nothing when navigator.webdriver is true', async () => {
    const { server, page } = suite;
    server.page('/bot', trackedPage(server));
    await page.goto(`${server.origin('site')}/bot`);
    assert.equal(await page.evaluate(() => navigator.webdriver), true);
    assert.equal(await callSvc(page), true);
    await server.expectQuiet();
    assert.ok(server.log.includes('GET cdn.test /t.js'), 'the script was loaded');
  });

  it('says so in the console of a page with data-dev', async () => {
    const { server, page } = suite;
    server.page('/bot-dev', trackedPage(server, { attributes: `data-site="${server.site}" data-dev` }));
    assert.deepEqual(await consoleDuring(page, () => page.goto(`${server.origin('site')}/bot-dev`).then(() => undefined)), ['svc: not tracking, navigator.webdriver']);
    await server.expectQuiet();
  });
});
