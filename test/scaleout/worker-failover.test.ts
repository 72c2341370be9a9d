// A worker killed with kill -9 while it sends webhook deliveries: a second worker of the same
// compose service takes them over once the first one's claims expire, and each delivery is
// answered exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLAIM_TTL_MS } from '../../src/alerts/delivery-engine.js';
import { TEST_SENDS } from '../../src/http/test-sends.js';
import { until, webhookReceiverEnv } from '../alerts/helpers/process.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { createSite } from './fixtures.js';

/** As many test sends as an organisation may make in an hour: enough to hold some in flight and queue the rest. */
const DELIVERIES = TEST_SENDS.perOrg;
const SUCCEEDED = /^svc_webhook_attempts_total\{outcome="succeeded"\} /;

describe('deploy/compose.yml: a worker killed with deliveries due', () => {
  let deployment: Deployment;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    // The receiver is on loopback with a test certificate: the only variables the test adds.
    deployment = await startDeployment({ extraEnv: webhookReceiverEnv() });
  });
  after(async () => {
    await deployment?.stop();
    await receiver?.close();
  });

  it('leaves its deliveries to a second worker, each sent once', async () => {
    const site = await createSite(deployment);
    const rule = await deployment.admin('POST', `/sites/${site.siteId}/alerts`, {
      type: 'spike',
      threshold: 1,
      url: `https://127.0.0.1:${receiver.port}/failover`,
      secret: 'failover-secret',
    });
    assert.equal(rule.status, 201, JSON.stringify(rule.body));

    // The receiver hangs: the worker holds some deliveries in flight, the rest wait their turn.
    receiver.answer('/failover', 'hang');
    const ids: string[] = [];
    for (let i = 0; i < DELIVERIES; i++) ids.push((await deployment.admin('POST', `/alerts/${rule.body.id}/test`)).body.deliveryId);
    await until('deliveries in flight', () => (receiver.requestsTo('/failover').length >= 4 ? true : undefined), 30_000);
    const first = deployment.instance('worker');
    assert.equal((await first.stop('SIGKILL')).signal, 'SIGKILL');

    const beforeTakeover = receiver.requestsTo('/failover').length;
    receiver.answer('/failover', 200);
    const second = await deployment.start('worker');
    const history = await until(
      'every delivery to succeed',
      async () => {
        const h = await deployment.admin('GET', `/alerts/${rule.body.id}/history`);
        return h.body.deliveries.every((d: { status: string }) => d.status === 'succeeded') ? h.body.deliveries : undefined;
      },
      30_000 + CLAIM_TTL_MS, // the killed worker's claims expire first
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a duplicate would arrive meanwhile

    assert.deepEqual(history.map((d: { id: string }) => d.id).sort(), [...ids].sort());
    const answered = receiver.requestsTo('/failover').slice(beforeTakeover).map((r) => r.headers['svc-delivery-id']);
    assert.deepEqual(answered.sort(), [...ids].sort(), 'each delivery answered 200 exactly once, by the second worker');
    assert.equal(await deployment.metric(second, SUCCEEDED), DELIVERIES, 'the second worker sent them');
    for (const other of deployment.instances.filter((i) => i.env.SVC_ROLE !== 'worker')) {
      assert.equal(await deployment.metric(other, SUCCEEDED), 0, `${other.name} sends no webhook`);
    }
  });
});
