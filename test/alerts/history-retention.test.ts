import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { createSite, startTestServer } from '../helpers/server.js';
import { testCertificates } from '../../support/test-certificates.js';
import type { AlertService } from '../../src/alerts/service.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { alertHarness, loopbackResolver, type AlertHarness } from '../../support/alert-service.js';

const SECRET = 'whsec_test_0123456789';
const DAY_MS = 86_400_000;

/** Runs the `alert-history` task of a service as the worker would, at `now`. */
async function runHistoryTask(alerts: AlertService, now: number): Promise<void> {
  const task = alerts.maintenanceTasks().find((t) => t.name === 'alert-history');
  assert.ok(task, 'the service registers an alert-history task');
  await task.run(now);
}

describe('alert history retention', () => {
  let receiver: Receiver;
  let h: AlertHarness;

  before(async () => {
    receiver = await startReceiver();
    h = await alertHarness({ timeoutMs: 400, historyDays: 30 });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('deletes closed deliveries older than the retention with their attempts, and keeps the rest', async () => {
    receiver.answer('/down', 500);
    const old = await h.alerts.createRule(h.site.id, { type: 'spike', threshold: 1, url: receiver.url('/ok-old'), secret: SECRET });
    const owed = await h.alerts.createRule(h.site.id, { type: 'drop', threshold: 1, url: receiver.url('/down'), secret: SECRET });
    // Day 0: one delivery that succeeds, one whose receiver fails (retried, still pending).
    await h.alerts.sendTest(old.id);
    await h.alerts.sendTest(owed.id);
    await h.alerts.engine.runDue();
    assert.equal((await h.alerts.history(old.id))[0]!.status, 'succeeded');
    assert.equal((await h.alerts.history(owed.id))[0]!.status, 'pending');

    // Day 20: a second delivery of the first rule, younger than the retention at day 31.
    h.clock.advance(20 * DAY_MS);
    await h.alerts.sendTest(old.id);
    await h.alerts.engine.runDue();

    await runHistoryTask(h.alerts, h.clock.now() + 11 * DAY_MS + 1);
    const kept = await h.alerts.history(old.id);
    assert.equal(kept.length, 1, 'the 31-day-old delivery is gone, the 11-day-old one stays');
    assert.equal(kept[0]!.createdAt, h.clock.now());
    assert.deepEqual(kept[0]!.attempts.map((a) => a.status), ['succeeded']);
    assert.equal((await h.alerts.history(owed.id)).length, 1, 'a pending delivery is owed to its receiver whatever its age');

    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM webhook_attempts`.execute(h.db);
    // Left: the kept delivery's attempt and the pending delivery's failed attempts.
    const pendingAttempts = (await h.alerts.history(owed.id))[0]!.attempts.length;
    assert.equal(Number(rows[0]!.n), 1 + pendingAttempts, 'attempts of deleted deliveries are deleted with them');
  });

  it('keeps a delivery created exactly at the cutoff, and deletes past one batch', async () => {
    const r = await h.alerts.createRule(h.site.id, { type: 'spike', threshold: 1, url: receiver.url('/ok-many'), secret: SECRET });
    const createdAt = h.clock.now();
    // More than two batches of the store's deletes (500 each), all finished: written straight to
    // the store, as the engine records them, rather than sent 1 201 times.
    for (let i = 0; i < 1_201; i++) await h.store.createDelivery({ id: `many-${i}`, ruleId: r.id, test: true, body: '{}' }, createdAt);
    const due = await h.store.dueCandidates(createdAt, 2_000);
    const claimed = await h.store.claim(due.map((d) => d.seq), 'history-test', createdAt, createdAt + 1_000);
    for (const { seq } of claimed) await h.store.recordAttempt(seq, 'history-test', 1, createdAt, 'succeeded', { next: 'done' });
    assert.equal((await h.alerts.history(r.id)).filter((d) => d.status === 'succeeded').length, 1_201);
    await runHistoryTask(h.alerts, createdAt + 30 * DAY_MS);
    assert.equal((await h.alerts.history(r.id)).length, 1_201, 'created exactly at the cutoff: kept');
    await runHistoryTask(h.alerts, createdAt + 30 * DAY_MS + 1);
    assert.deepEqual(await h.alerts.history(r.id), [], 'one past the cutoff: every batch deleted');
  });

  it('is the default 90 days, and SVC_ALERT_HISTORY_DAYS is validated at start', () => {
    assert.equal(loadConfig({}).alertHistoryDays, 90);
    assert.equal(loadConfig({ SVC_ALERT_HISTORY_DAYS: '365' }).alertHistoryDays, 365);
    for (const bad of ['0', '-1', '3651', '7d', '1.5']) {
      assert.throws(() => loadConfig({ SVC_ALERT_HISTORY_DAYS: bad }), /SVC_ALERT_HISTORY_DAYS must be a number of days 1\.\.3650/, bad);
    }
  });
});

it('SVC_ALERT_HISTORY_DAYS reaches the running service: maintenance/run prunes and /metrics counts', async () => {
  const receiver = await startReceiver();
  const clock = new ManualClock(Date.now());
  const server = await startTestServer({
    clock,
    env: { SVC_WEBHOOK_ALLOW_PRIVATE: '1', SVC_ALERT_HISTORY_DAYS: '2' },
    alerts: { resolve: loopbackResolver, ca: testCertificates().ca, timeoutMs: 1_000 },
  });
  try {
    const site = await createSite(server);
    const rule = await server.admin('POST', `/sites/${site.siteId}/alerts`, { type: 'spike', threshold: 1, url: receiver.url('/e2e'), secret: SECRET });
    assert.equal(rule.status, 201);
    assert.equal((await server.admin('POST', `/alerts/${rule.body.id}/test`)).status, 202);
    await server.ctx.alerts.engine.runDue();
    assert.equal((await server.admin('GET', `/alerts/${rule.body.id}/history`)).body.deliveries[0].status, 'succeeded');

    clock.advance(DAY_MS);
    assert.deepEqual((await server.admin('POST', '/maintenance/run', { tasks: ['alert-history'] })).body, { ran: ['alert-history'] });
    assert.equal((await server.admin('GET', `/alerts/${rule.body.id}/history`)).body.deliveries.length, 1, 'a day old, under 2 days: kept');

    clock.advance(DAY_MS + 1);
    await server.admin('POST', '/maintenance/run', { tasks: ['alert-history'] });
    assert.deepEqual((await server.admin('GET', `/alerts/${rule.body.id}/history`)).body.deliveries, []);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })).text();
    assert.match(metrics, /^svc_alert_deliveries_pruned_total 1$/m);
  } finally {
    await server.stop();
    await receiver.close();
  }
});
