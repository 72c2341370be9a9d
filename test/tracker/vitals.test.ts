// Web vitals (data-vitals, docs/tracker.md): the tracker loads /js/v.js beside itself only for that
// attribute, and the pageview's engage event carries what the browser measured: here a page whose
// largest paint is a large heading and whose content a late banner pushes down (a layout shift).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bodies, browserSuite, setTabVisibility, trackedPage } from './harness.js';

// A large heading (the largest contentful paint) under which a banner is inserted after load.
const SHIFTING_BODY = `<style>html,body{margin:0}h1{font-size:96px;margin:0}</style>
<div id="top"></div><h1>A large heading that paints first</h1><p>Text under it.</p>`;

describe('tracker web vitals', () => {
  const suite = browserSuite();

  it('with data-vitals, loads v.js and sends lcp, cls and ttfb with the engage event', async () => {
    const { server, page } = suite;
    server.page('/vitals', trackedPage(server, { attributes: `data-site="${server.site}" data-vitals`, body: SHIFTING_BODY }));
    await page.goto(`${server.origin('site')}/vitals`);
    await server.next(1); // the pageview
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/v.js')));
    // A banner pushes the heading down, with no input before it: a layout shift the visitor did not cause.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          document.getElementById('top')!.style.height = '300px';
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200)));
        }),
    );
    await setTabVisibility(page, 'hidden');
    const [engage] = bodies(await server.next(1)) as [{ e: string; p: Record<string, number> }];
    assert.equal(engage.e, 'engage');
    assert.equal(typeof engage.p.t, 'number');
    assert.equal(typeof engage.p.d, 'number');
    for (const name of ['lcp', 'ttfb', 'cls'] as const) assert.ok(Number.isInteger(engage.p[name]) && engage.p[name]! >= 0, `${name}: ${JSON.stringify(engage.p)}`);
    assert.ok(engage.p.lcp! > 0, 'the heading painted after the navigation started');
    assert.ok(engage.p.cls! > 0, `the shift counted, in thousandths: ${engage.p.cls}`);
    assert.ok(server.log.includes(`GET cdn.test /v.js`), server.log.join('\n'));
  });

  it('without data-vitals, requests no v.js and sends only {t, d}', async () => {
    const { server, page } = suite;
    const logged = server.log.length;
    server.page('/plain', trackedPage(server, { body: SHIFTING_BODY }));
    await page.goto(`${server.origin('site')}/plain`);
    await server.next(1);
    await setTabVisibility(page, 'hidden');
    const [engage] = bodies(await server.next(1)) as [{ p: Record<string, number> }];
    assert.deepEqual(Object.keys(engage.p).sort(), ['d', 't']);
    assert.ok(!server.log.slice(logged).some((line) => line.endsWith('/v.js')), server.log.join('\n'));
  });
});
