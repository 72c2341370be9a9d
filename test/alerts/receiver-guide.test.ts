import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
// The example of docs/webhooks.md, exactly as a receiver would copy it.
import { SeenDeliveries, verifySvcWebhook } from '../../docs/examples/verify.mjs';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { alertHarness, T0, type AlertHarness } from '../../support/alert-service.js';

const SECRET = 'guide-secret';

describe('receiver guide example (docs/examples/verify.mjs)', () => {
  let receiver: Receiver;
  let h: AlertHarness;
  const nowSeconds = T0 / 1000;

  before(async () => {
    receiver = await startReceiver();
    h = await alertHarness();
    receiver.answer('/guide', 500, 200);
    const rule = await h.alerts.createRule(h.site.id, { type: 'silence', threshold: 5, url: receiver.url('/guide'), secret: SECRET });
    await h.alerts.sendTest(rule.id);
    await h.alerts.engine.runDue();
    h.clock.advance(60_000);
    await h.alerts.engine.runDue();
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('accepts real deliveries and returns the payload', () => {
    const [first, retry] = receiver.requestsTo('/guide');
    assert.ok(first && retry);
    assert.equal(verifySvcWebhook(SECRET, first.headers, first.body, nowSeconds).type, 'silence');
    assert.equal(verifySvcWebhook(SECRET, retry.headers, Buffer.from(retry.body), nowSeconds + 60).test, true);
  });

  it('refuses a wrong secret, a changed body and a stale timestamp', () => {
    const [req] = receiver.requestsTo('/guide');
    assert.throws(() => verifySvcWebhook('wrong', req!.headers, req!.body, nowSeconds), /bad signature/);
    assert.throws(() => verifySvcWebhook(SECRET, req!.headers, req!.body.replace('silence', 'spike'), nowSeconds), /bad signature/);
    assert.throws(() => verifySvcWebhook(SECRET, req!.headers, req!.body, nowSeconds + 301), /tolerance/);
    assert.throws(() => verifySvcWebhook(SECRET, { ...req!.headers, 'svc-signature': 'v1=00' }, req!.body, nowSeconds), /bad signature/);
  });

  it('recognises a retried delivery by its svc-delivery-id', () => {
    const seen = new SeenDeliveries();
    const ids = receiver.requestsTo('/guide').map((r) => r.headers['svc-delivery-id']);
    assert.deepEqual(
      ids.map((id) => seen.firstTime(id)),
      [true, false],
    );
  });
});
