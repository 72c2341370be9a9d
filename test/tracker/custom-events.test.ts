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

  it('sends a name that matches ^[a-z0-9_-]{1,64}$ once lowercased, lowercased; sends nothing for any other name', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      for (const name of [42, null, undefined, { e: 'x' }]) svc(name);
      for (const name of ['pageview', 'engage', 'outbound', 'download', 'PageView', 'DOWNLOAD']) svc(name);
      for (const name of ['Bad Name!', '', 'Has Space', 'dot.name', 'Émoji', 'x'.repeat(65)]) svc(name);
      svc('x'.repeat(64));
      svc('A_b-9');
      svc('SIGNUP');
    });
    const names = (bodies(await server.next(3)) as Sent[]).map((event) => event.e);
    assert.deepEqual(names.sort(), ['a_b-9', 'signup', 'x'.repeat(64)]);
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
        // An emoji across the cut goes whole: half of it would be no character.
        emoji: 'e'.repeat(499) + '😀' + 'e',
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
      emoji: 'e'.repeat(499),
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

  it('sends nothing when the props JSON exceeds 2048 bytes, counting UTF-8 bytes rather than characters', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      // 3 × 500 two-byte characters: 1.5 K characters but about 3 KB of UTF-8.
      svc('two-byte-characters', { a: 'é'.repeat(500), b: 'é'.repeat(500), c: 'é'.repeat(500) });
      // Four 500-character props take 2028 bytes of JSON; a fifth with n characters adds 8 + n.
      const long = 'x'.repeat(500);
      for (const [name, n] of [['one-byte-over', 13], ['fits', 12]] as const) {
        svc(name, { a: long, b: long, c: long, d: long, e: 'x'.repeat(n) });
      }
    });
    const [event] = bodies(await server.next(1)) as [Sent];
    assert.equal(event.e, 'fits');
    assert.equal(Buffer.byteLength(JSON.stringify(event.p)), 2048);
    await server.expectQuiet();
  });

  it('sends nothing when the whole body exceeds 4096 bytes', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: (...args: unknown[]) => void }).svc;
      history.replaceState({}, '', '/shop?utm_campaign=' + 'c'.repeat(2600));
      // Props of 1 528 bytes, within their own limit, in a body of about 4.2 KB.
      svc('big-body', { a: 'x'.repeat(500), b: 'x'.repeat(500), c: 'x'.repeat(500) });
      svc('small-body');
    });
    const [event] = await server.next(1);
    assert.equal((JSON.parse(event!.body) as Sent).e, 'small-body');
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
