// The engage event: active time with its 30 s cap, scroll depth, once per pageview, re-armed on
// single-page navigations. Time is Playwright's fake clock, paused, so active times are exact.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bodies, browserSuite, setTabVisibility, trackedPage } from './harness.js';

const INSTALLED = new Date('2026-03-02T10:00:00Z').getTime();
// Installed, the fake clock flows with real time until paused; pausing a minute later leaves room for
// a slow machine (pausing in the past is an error) and fires no timer (the tracker sets none).
const PAUSED = INSTALLED + 60_000;
// A page exactly 4000 px tall in a 720 px viewport: scrolling to y = 1280 shows (1280 + 720) / 4000 = 50 %.
const TALL_BODY = '<style>html,body{margin:0}</style><div style="height:4000px">long read</div>';

async function scrollPage(page: Page, y: number): Promise<void> {
  await page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        addEventListener('scroll', () => resolve(), { once: true });
        scrollTo(0, top);
      }),
    y,
  );
}

describe('tracker engage', () => {
  const suite = browserSuite();

  async function openPausedAt(path: string, options: Parameters<typeof trackedPage>[1] = {}): Promise<void> {
    const { server, page } = suite;
    server.page(path, trackedPage(server, { body: TALL_BODY, ...options }));
    await page.clock.install({ time: INSTALLED });
    await page.clock.pauseAt(PAUSED);
    await page.goto(`${server.origin('site')}${path}`);
    await server.next(1);
  }

  it('sends {t, d} when the tab goes to the background: active time stops 30 s after the last interaction', async () => {
    const { server, page } = suite;
    await openPausedAt('/article');
    await page.clock.fastForward(10_000);
    await scrollPage(page, 1280); // interaction at 10 s: 10 s active so far
    await page.clock.fastForward(5_000);
    await page.keyboard.press('Shift'); // interaction at 15 s: 15 s active
    await page.clock.fastForward(60_000);
    await scrollPage(page, 0); // at 75 s: only 30 s counted after 15 s, so 45 s; depth stays the maximum
    await setTabVisibility(page, 'hidden');
    assert.deepEqual(bodies(await server.next(1)), [
      { s: server.site, u: '/article', w: 1920, l: 'fr-FR', e: 'engage', p: { t: 45_000, d: 50 } },
    ]);
  });

  it('counts clicks as interactions, and counts at most 30 s after load without any', async () => {
    const { server, page } = suite;
    await openPausedAt('/idle');
    await page.clock.fastForward(50_000);
    await setTabVisibility(page, 'hidden');
    const [idle] = bodies(await server.next(1)) as [{ p: unknown }];
    assert.deepEqual(idle.p, { t: 30_000, d: 18 }); // 720 / 4000 px seen

    await page.evaluate(() => history.pushState({}, '', '/idle/2'));
    await server.next(1);
    await page.clock.fastForward(25_000);
    await page.mouse.click(10, 10);
    await page.clock.fastForward(25_000);
    await setTabVisibility(page, 'hidden');
    const [clicked] = bodies(await server.next(1)) as [{ p: unknown }];
    assert.deepEqual(clicked.p, { t: 50_000, d: 18 });
  });

  it('reports the deepest scroll as a whole percent: 100 at the bottom, 100 on a page shorter than the viewport', async () => {
    const { server, page } = suite;
    await openPausedAt('/bottom');
    await scrollPage(page, 1000); // (1000 + 720) / 4000 = 43 %
    await scrollPage(page, 3280); // the bottom: 100 %
    await scrollPage(page, 500); // back up: the deepest stays
    await setTabVisibility(page, 'hidden');
    const [bottom] = bodies(await server.next(1)) as [{ p: { d: number } }];
    assert.equal(bottom.p.d, 100);

    server.page('/short', trackedPage(server, { body: 'short' }));
    await page.goto(`${server.origin('site')}/short`);
    await server.next(1);
    await setTabVisibility(page, 'hidden');
    const [short] = bodies(await server.next(1)) as [{ p: { d: number } }];
    assert.equal(short.p.d, 100);
  });

  it('sends engage once per pageview, and again after a single-page navigation', async () => {
    const { server, page } = suite;
    await openPausedAt('/first');
    await page.clock.fastForward(3_000);
    await setTabVisibility(page, 'hidden');
    const [first] = bodies(await server.next(1)) as [{ u: string; p: unknown }];
    assert.deepEqual([first.u, first.p], ['/first', { t: 3_000, d: 18 }]);

    await setTabVisibility(page, 'visible');
    await setTabVisibility(page, 'hidden');
    await server.expectQuiet();

    await setTabVisibility(page, 'visible');
    await page.evaluate(() => history.pushState({}, '', '/second'));
    await server.next(1);
    await page.clock.fastForward(4_000);
    await setTabVisibility(page, 'hidden');
    const [second] = bodies(await server.next(1)) as [{ u: string; p: unknown }];
    assert.deepEqual([second.u, second.p], ['/second', { t: 4_000, d: 18 }]);
  });

  it('does not count time spent in a background tab before it was first shown', async () => {
    const { server, page } = suite;
    // Opened in a background tab (e.g. ctrl-click): hidden from the start.
    await page.addInitScript(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    });
    await openPausedAt('/background');
    await page.clock.fastForward(20 * 60_000);
    await setTabVisibility(page, 'visible');
    await page.clock.fastForward(5_000);
    await setTabVisibility(page, 'hidden');
    const [event] = bodies(await server.next(1)) as [{ e: string; p: { t: number } }];
    assert.deepEqual([event.e, event.p.t], ['engage', 5_000]);
  });

  it('sends engage on pagehide when the visitor leaves the page', async () => {
    const { server, page } = suite;
    server.page('/plain', '<!doctype html><title>not tracked</title>');
    await openPausedAt('/leaving');
    await page.clock.fastForward(7_000);
    await page.goto(`${server.origin('site')}/plain`);
    const [event] = bodies(await server.next(1)) as [{ u: string; e: string; p: unknown }];
    assert.deepEqual([event.u, event.e, event.p], ['/leaving', 'engage', { t: 7_000, d: 18 }]);
  });

  it('sends no engage with data-engage="off"', async () => {
    const { server, page } = suite;
    server.page('/plain', '<!doctype html><title>not tracked</title>');
    await openPausedAt('/no-engage', { attributes: `data-site="${server.site}" data-engage="off"` });
    await page.clock.fastForward(7_000);
    await setTabVisibility(page, 'hidden');
    await page.goto(`${server.origin('site')}/plain`);
    await server.expectQuiet();
  });

  it('keeps engage for any other data-engage value', async () => {
    const { server, page } = suite;
    await openPausedAt('/engage-0', { attributes: `data-site="${server.site}" data-engage="0"` });
    await setTabVisibility(page, 'hidden');
    const [event] = bodies(await server.next(1)) as [{ e: string }];
    assert.equal(event.e, 'engage');
  });
});
