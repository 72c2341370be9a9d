// Revenue through window.svc(name, props, {revenue}) and the queue stub: sent as `v`, as given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bodies, browserSuite, trackedPage } from './harness.js';

type Svc = (...args: unknown[]) => void;

describe('tracker revenue', () => {
  const suite = browserSuite();

  async function openTrackedPage(options: Parameters<typeof trackedPage>[1] = {}) {
    const { server, page } = suite;
    server.page('/checkout', trackedPage(server, options));
    await page.goto(`${server.origin('site')}/checkout`);
    await server.next(1);
  }

  it('sends the revenue of svc(name, props, {revenue}) as v, next to the props', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => (window as unknown as { svc: Svc }).svc('Purchase', { plan: 'pro' }, { revenue: { amount: 19.99, currency: 'EUR' } }));
    assert.deepEqual(bodies(await server.next(1)), [
      { s: server.site, u: '/checkout', w: 1920, l: 'fr-FR', e: 'purchase', p: { plan: 'pro' }, v: { amount: 19.99, currency: 'EUR' } },
    ]);
    // Without props, and with the amount as a string: sent as given, the server checks it.
    await page.evaluate(() => (window as unknown as { svc: Svc }).svc('renewal', undefined, { revenue: { amount: '5.5', currency: 'usd' } }));
    assert.deepEqual(bodies(await server.next(1)), [{ s: server.site, u: '/checkout', w: 1920, l: 'fr-FR', e: 'renewal', v: { amount: '5.5', currency: 'usd' } }]);
  });

  it('leaves v out without revenue, whatever the third argument is', async () => {
    const { server, page } = suite;
    await openTrackedPage();
    await page.evaluate(() => {
      const svc = (window as unknown as { svc: Svc }).svc;
      for (const options of [undefined, null, 0, false, '', 'x', 5, {}, { amount: 3 }, []]) svc('signup', { n: 1 }, options);
    });
    const sent = bodies(await server.next(10)) as Array<Record<string, unknown>>;
    assert.equal(sent.length, 10);
    for (const body of sent) assert.equal('v' in body, false, JSON.stringify(body));
  });

  it('replays revenue queued before t.js loaded', async () => {
    const { server, page } = suite;
    const stub = `<script>window.svc = window.svc || function () { (window.svc.q = window.svc.q || []).push(arguments) };
      svc('purchase', { plan: 'team' }, { revenue: { amount: 120, currency: 'GBP' } });</script>`;
    server.page('/queued', trackedPage(server, { head: stub }));
    await page.goto(`${server.origin('site')}/queued`);
    const sent = bodies(await server.next(2)) as Array<Record<string, unknown>>;
    assert.deepEqual(sent.find((body) => body.e === 'purchase'), {
      s: server.site, u: '/queued', w: 1920, l: 'fr-FR', e: 'purchase', p: { plan: 'team' }, v: { amount: 120, currency: 'GBP' },
    });
  });
});
