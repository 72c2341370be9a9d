// Custom events through window.svc(name, props) and the queue stub, with the name and props rules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bodies, browserSuite, trackedPage } from './harness.js';

type Sent = { e?: string; p?: Record<string, unknown> };

describe('tracker custom events', () => {
  const suite = browserSuite();

  async function openTrackedPage(options: Parameters<typeof trackedPage>[1] = {}) {
    const { server, page } = suite;
    server.page('/shop', trackedPage(server, options));
    await page.goto(`${server.origin('site')}/shop`);
    await server.next(1);
  }

  it('sends window.svc(name, props) with e and p, and leaves p out without props', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => (window as unknown as { svc: (...args: unknown[]) => void }).svc('Signup', { plan: 'pro' }));
    assert.deepEqual(bodies(await server.next(1)), [
      { s: server.site, u: '/shop', w: 1920, l: 'fr-FR', e: 'signup', p: { plan: 'pro' } },
    ]);
    await page.evaluate(() => (window as unknown as { svc: (...args: unknown[]) => void }).svc('newsletter'));
    assert.deepEqual(bodies(await server.next(1)), [{ s: server.site, u: '/shop', w: 1920, l: 'fr-FR', e: 'newsletter' }]);
  });

  it('drops reserved names in any letter case and names that are not strings; sends other names lowercased, for the endpoint to check', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      for (const name of [42, null, undefined, { e: 'x' }]) svc(name);
      for (const name of ['pageview', 'engage', 'outbound', 'download', 'PageView', 'DOWNLOAD']) svc(name);
      // Names the endpoint drops (bad_name: test/tracker/e2e.test.ts), then names it keeps.
      for (const name of ['', 'Has Space', 'dot.name', 'Émoji', 'x'.repeat(65)]) svc(name);
      svc('x'.repeat(64));
      svc('A_b-9');
    });
    const names = (bodies(await server.next(7)) as Sent[]).map((event) => event.e);
    assert.deepEqual(names.sort(), ['', 'a_b-9', 'dot.name', 'has space', 'x'.repeat(64), 'x'.repeat(65), 'émoji']);
    await server.expectQuiet();
  });

  it('keeps flat string, finite number and boolean props; cuts strings to 500; drops the rest', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      (window as unknown as { svc: (...args: unknown[]) => void }).svc('purchase', {
        plan: 'pro',
        amount: 49.5,
        count: 0,
        trial: false,
        note: 'n'.repeat(600),
        nested: { a: 1 },
        list: [1, 2],
        empty: null,
        missing: undefined,
        nan: NaN,
        inf: Infinity,
        fn: Math.max,
        '': 'empty key',
        ['k'.repeat(65)]: 'key too long',
        ['k'.repeat(64)]: 'longest key',
      });
    });
    const [event] = bodies(await server.next(1)) as [Sent];
    assert.deepEqual(event.p, {
      plan: 'pro',
      amount: 49.5,
      count: 0,
      trial: false,
      note: 'n'.repeat(500),
      ['k'.repeat(64)]: 'longest key',
    });
  });

  it('leaves p out when every prop was dropped, and ignores non-object props', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      svc('only-dropped', { nested: {}, none: null });
      svc('array-props', ['a', 'b']);
      svc('string-props', 'plan=pro');
    });
    const events = (bodies(await server.next(3)) as Sent[]).sort((a, b) => a.e!.localeCompare(b.e!));
    assert.deepEqual(
      events.map((event) => [event.e, 'p' in event]),
      [
        ['array-props', false],
        ['only-dropped', false],
        ['string-props', false],
      ],
    );
  });

  it('sends props over 2048 bytes and bodies over 4096 bytes as they are, for the endpoint to drop', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      // 3 × 500 two-byte characters: 1.5 K characters but about 3 KB of UTF-8.
      svc('big-props', { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) });
      history.replaceState({}, '', '/shop?utm_campaign=' + 'c'.repeat(2500));
      svc('big-body', { a: 'x'.repeat(500), b: 'x'.repeat(500), c: 'x'.repeat(500) });
    });
    const events = await server.next(2);
    const byName = new Map(events.map((event) => [(JSON.parse(event.body) as Sent).e, event.body]));
    assert.deepEqual((JSON.parse(byName.get('big-props')!) as Sent).p, { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) });
    assert.ok(Buffer.byteLength(byName.get('big-body')!) > 4096);
    await server.expectQuiet();
  });

  it('replays calls queued in window.svc.q before the script loaded, after the pageview', async () => {
    const { server, page } = suite;
    const stub = `<script>
      window.svc = window.svc || function () { (window.svc.q = window.svc.q || []).push(arguments) };
      svc('Early', { step: 1 });
      svc('pageview');
      svc('second');
    </script>`;
    server.page('/queued', trackedPage(server, { head: stub }));
    await page.goto(`${server.origin('site')}/queued`);
    const events = bodies(await server.next(3)) as Sent[];
    assert.deepEqual(
      events.map((event) => [event.e ?? 'pageview', event.p]).sort(),
      [
        ['early', { step: 1 }],
        ['pageview', undefined],
        ['second', undefined],
      ],
    );
    await server.expectQuiet();
  });
});
