import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/alerts/url-safety.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../support/alert-receiver.js';
import { alertHarness, loopbackResolver, T0, type AlertHarness } from '../../support/alert-service.js';
import { freePort } from '../../support/ports.js';

const SECRET = 'whsec_test_0123456789';

/** An HMAC check written against WebCrypto, independent of the sender's node:crypto code. */
async function verifyIndependently(req: ReceivedRequest, secret: string): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${req.headers['svc-timestamp']}.${req.body}`));
  const hex = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return req.headers['svc-signature'] === `v1=${hex}`;
}


describe('webhook deliveries', () => {
  let receiver: Receiver;
  let h: AlertHarness;

  before(async () => {
    receiver = await startReceiver();
    h = await alertHarness({ timeoutMs: 400 });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  const rule = (path: string, type = 'spike') => h.alerts.createRule(h.site.id, { type, threshold: 3, url: receiver.url(path), secret: SECRET });

  it('sends a signed test delivery with the documented headers and body', async () => {
    const r = await rule('/ok');
    const { deliveryId } = await h.alerts.sendTest(r.id);
    await h.alerts.engine.runDue();

    const [req] = receiver.requestsTo('/ok');
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['svc-delivery-id'], deliveryId);
    assert.equal(req.headers['svc-timestamp'], String(T0 / 1000));
    assert.ok(await verifyIndependently(req, SECRET), 'signature verifies');
    assert.equal(await verifyIndependently(req, 'another secret'), false);
    assert.deepEqual(JSON.parse(req.body), { type: 'spike', site: 'shop.example', rule: r.id, value: 0, threshold: 3, at: new Date(T0).toISOString(), test: true });

    const history = await h.alerts.history(r.id);
    assert.deepEqual(history, [{ id: deliveryId, createdAt: T0, test: true, status: 'succeeded', attempts: [{ at: T0, status: 'succeeded' }] }]);
  });

  it('retries a 500 at +1, +5 and +25 minutes, re-signing the same bytes, then fails', async () => {
    receiver.answer('/500', 500);
    const r = await rule('/500');
    const start = h.clock.now();
    const { deliveryId } = await h.alerts.sendTest(r.id);
    const step = async (ms: number) => {
      h.clock.advance(ms);
      await h.alerts.engine.runDue();
      return receiver.requestsTo('/500').length;
    };
    assert.equal(await step(0), 1);
    assert.equal((await h.alerts.history(r.id))[0]!.status, 'pending');
    assert.equal(await step(59_000), 1, 'not before a minute');
    assert.equal(await step(1_000), 2);
    assert.equal(await step(299_000), 2, 'not before five more minutes');
    assert.equal(await step(1_000), 3);
    assert.equal(await step(1_499_000), 3, 'not before 25 more minutes');
    assert.equal(await step(1_000), 4);
    assert.equal(await step(86_400_000), 4, 'no fifth attempt');

    const requests = receiver.requestsTo('/500');
    assert.equal(new Set(requests.map((q) => q.body)).size, 1, 'same body bytes on every attempt');
    assert.ok(requests.every((q) => q.headers['svc-delivery-id'] === deliveryId));
    assert.deepEqual(
      requests.map((q) => Number(q.headers['svc-timestamp'])),
      [0, 60, 360, 1860].map((s) => start / 1000 + s),
      'signed at send time',
    );
    for (const q of requests) assert.ok(await verifyIndependently(q, SECRET));
    const [delivery] = await h.alerts.history(r.id);
    assert.equal(delivery!.status, 'failed:http-500');
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.at - start, a.status]),
      [0, 60_000, 360_000, 1_860_000].map((t) => [t, 'failed:http-500']),
    );
  });

  it('records a retry that succeeds', async () => {
    receiver.answer('/flaky', 503, 200);
    const r = await rule('/flaky');
    await h.alerts.sendTest(r.id);
    await h.alerts.engine.runDue();
    h.clock.advance(60_000);
    await h.alerts.engine.runDue();
    const [delivery] = await h.alerts.history(r.id);
    assert.equal(delivery!.status, 'succeeded');
    assert.deepEqual(
      delivery!.attempts.map((a) => a.status),
      ['failed:http-503', 'succeeded'],
    );
  });

  it('never follows a redirect: 302 is a failure and the target is never requested', async () => {
    receiver.answer('/redirect', { redirect: receiver.url('/target') });
    const r = await rule('/redirect');
    await h.alerts.sendTest(r.id);
    await h.alerts.engine.runDue();
    assert.equal(receiver.requestsTo('/redirect').length, 1);
    assert.equal(receiver.requestsTo('/target').length, 0);
    assert.equal((await h.alerts.history(r.id))[0]!.attempts[0]!.status, 'failed:http-302');
  });

  it('gives up on a receiver that never answers after the timeout', async () => {
    receiver.answer('/hang', 'hang');
    const r = await rule('/hang');
    await h.alerts.sendTest(r.id);
    const started = Date.now();
    await h.alerts.engine.runDue();
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 350 && elapsed < 3_000, `took ${elapsed} ms`);
    assert.equal((await h.alerts.history(r.id))[0]!.attempts[0]!.status, 'failed:timeout');
  });

  it('records a refused connection as failed:network', async () => {
    const port = await freePort();
    const r = await h.alerts.createRule(h.site.id, { type: 'drop', threshold: 1, url: `https://receiver.test:${port}/x`, secret: SECRET });
    await h.alerts.sendTest(r.id);
    await h.alerts.engine.runDue();
    const [delivery] = await h.alerts.history(r.id);
    assert.equal(delivery!.attempts[0]!.status, 'failed:network');
    assert.equal(delivery!.status, 'pending', 'a network failure is retried');
  });

  it('connects to the address it checked, with one lookup per attempt', async () => {
    let lookups = 0;
    // Any second lookup would get an address where nothing listens.
    const resolver: Resolver = async (host) => (++lookups % 2 === 1 ? loopbackResolver(host) : [{ address: '127.0.0.9', family: 4 }]);
    const pinned = await alertHarness({ resolve: resolver });
    try {
      const r = await pinned.alerts.createRule(pinned.site.id, { type: 'spike', threshold: 1, url: receiver.url('/pinned'), secret: SECRET });
      lookups = 0;
      await pinned.alerts.sendTest(r.id);
      await pinned.alerts.engine.runDue();
      assert.equal(lookups, 1);
      assert.equal(receiver.requestsTo('/pinned').length, 1);
      assert.equal((await pinned.alerts.history(r.id))[0]!.status, 'succeeded');
    } finally {
      await pinned.close();
    }
  });

  it('refuses a name that rebinds to a private address between configuration and send', async () => {
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups === 1 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const strict = await alertHarness({ resolve: rebinding, policy: { allowPrivate: false } });
    try {
      const r = await strict.alerts.createRule(strict.site.id, { type: 'spike', threshold: 1, url: `https://rebind.example.com:${receiver.port}/rebind`, secret: SECRET });
      await strict.alerts.sendTest(r.id);
      await strict.alerts.engine.runDue();
      strict.clock.advance(3_600_000);
      await strict.alerts.engine.runDue();
      assert.equal(receiver.requestsTo('/rebind').length, 0);
      const [delivery] = await strict.alerts.history(r.id);
      assert.deepEqual(delivery!.attempts, [{ at: T0, status: 'rejected:private-address' }], 'a policy refusal is final');
      assert.equal(delivery!.status, 'rejected:private-address');
    } finally {
      await strict.close();
    }
  });

  it('keeps delivering to healthy receivers while one receiver hangs', async () => {
    // The stuck host is a receiver of its own, closed at the end: its attempts hang far longer than the
    // test waits for the healthy one (a slow machine cannot make them time out first), yet the test
    // does not have to wait for their timeout.
    const hanging = await startReceiver();
    const busy = await alertHarness({ timeoutMs: 30_000, maxConcurrent: 8, maxPerHost: 2, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      hanging.answer('/stuck', 'hang');
      const stuck = await busy.alerts.createRule(busy.site.id, { type: 'spike', threshold: 1, url: `https://localhost:${hanging.port}/stuck`, secret: SECRET });
      const healthy = await busy.alerts.createRule(busy.site.id, { type: 'drop', threshold: 1, url: receiver.url('/healthy'), secret: SECRET });
      for (let i = 0; i < 10; i++) await busy.alerts.sendTest(stuck.id);
      await busy.alerts.sendTest(healthy.id);
      const started = Date.now();
      await busy.alerts.start();
      while (receiver.requestsTo('/healthy').length === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
      assert.equal(receiver.requestsTo('/healthy').length, 1, 'healthy receiver served while the other hangs');
      // The healthy attempt holds a slot until its answer is recorded; only then is every slot in flight a stuck one.
      while ((await busy.alerts.history(healthy.id))[0]!.status !== 'succeeded' && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await busy.alerts.history(healthy.id))[0]!.status, 'succeeded');
      assert.ok(busy.alerts.engine.inFlightCount <= 2, `the stuck host holds at most its own slots (${busy.alerts.engine.inFlightCount} in flight)`);
      assert.ok(hanging.requestsTo('/stuck').length <= 2, 'no third request to the stuck host while two hang');
    } finally {
      await hanging.close();
      await busy.close();
    }
  });

  it('drains: an attempt in flight at shutdown finishes and is recorded', async () => {
    const draining = await alertHarness();
    try {
      receiver.answer('/slow', { status: 200, afterMs: 300 });
      const r = await draining.alerts.createRule(draining.site.id, { type: 'spike', threshold: 1, url: receiver.url('/slow'), secret: SECRET });
      await draining.alerts.start();
      await draining.alerts.sendTest(r.id);
      while (draining.alerts.engine.inFlightCount === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await draining.alerts.drain();
      assert.equal((await draining.alerts.history(r.id))[0]!.status, 'succeeded');
    } finally {
      await draining.close();
    }
  });
});
