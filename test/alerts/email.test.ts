import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { smtpMailSender } from '../../src/alerts/email.js';
import { ALERT_MAILS_PER_HOUR } from '../../src/alerts/service.js';
import type { ApiError } from '../../src/core/errors.js';
import { PrometheusRegistry } from '../../src/core/prometheus.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { alertHarness } from '../../support/alert-service.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';

async function until(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('email channel', () => {
  let receiver: Receiver;
  let smtp: SmtpListener;

  before(async () => {
    receiver = await startReceiver();
    smtp = await startSmtp();
  });
  after(async () => {
    await smtp.close();
    await receiver.close();
  });

  it('mails the recipients while the webhook receiver hangs', async () => {
    // The hanging receiver is one of its own, closed at the end: the webhook attempt hangs far longer
    // than the test waits for the mail, yet the test does not have to wait for its timeout.
    const hanging = await startReceiver();
    const h = await alertHarness({ timeoutMs: 30_000, mail: smtpMailSender(`smtp://127.0.0.1:${smtp.port}`, 'svc alerts <alerts@example.com>') });
    try {
      hanging.answer('/mail-hang', 'hang');
      const rule = await h.alerts.createRule(h.site.id, { type: 'drop', threshold: 5, url: hanging.url('/mail-hang'), secret: 's', emails: ['ops@shop.example', 'cto@shop.example'] });
      await h.alerts.start();
      await h.alerts.evaluate(h.clock.now());
      await until(() => smtp.mails.length === 1 && hanging.requestsTo('/mail-hang').length === 1, 10_000);
      assert.deepEqual((await h.alerts.history(rule.id))[0]!.attempts, [], 'mail did not wait for the webhook attempt, still hanging');
      assert.deepEqual(smtp.mails[0]!.to, ['ops@shop.example', 'cto@shop.example']);
      assert.match(smtp.mails[0]!.data, /drop alert for shop\.example/);
    } finally {
      await hanging.close();
      await h.close();
    }
    assert.equal(hanging.requestsTo('/mail-hang').length, 1);
  });

  it("sends an organisation's alert mails up to 30 an hour: past them a firing rule mails nothing, a test send is refused", async () => {
    const metrics = new PrometheusRegistry();
    const h = await alertHarness({ mail: smtpMailSender(`smtp://127.0.0.1:${smtp.port}`, 'svc alerts <alerts@example.com>'), metrics });
    try {
      const before = smtp.mails.length;
      // A drop rule over a site without events fires at its first evaluation: 31 rules, 31 firings.
      const rules = [];
      for (let i = 0; i < ALERT_MAILS_PER_HOUR + 1; i++) {
        rules.push(await h.alerts.createRule(h.site.id, { type: 'drop', threshold: 5, url: receiver.url('/mail-limit'), secret: 's', emails: [`outside${i}@example.org`] }));
      }
      assert.equal((await h.alerts.evaluate(h.clock.now())).fired.length, ALERT_MAILS_PER_HOUR + 1);
      await h.alerts.drain();
      assert.equal(smtp.mails.length - before, ALERT_MAILS_PER_HOUR);
      assert.match(metrics.render(), /svc_alert_mails_total\{outcome="limited"\} 1/);
      await assert.rejects(h.alerts.sendTest(rules[0]!.id), (err: ApiError) => err.code === 'RATE_LIMITED' && err.message === `an organisation's alert rules send at most ${ALERT_MAILS_PER_HOUR} mails an hour`);
      h.clock.advance(3_600_000);
      await h.alerts.sendTest(rules[0]!.id);
      await h.alerts.drain();
      assert.equal(smtp.mails.length - before, ALERT_MAILS_PER_HOUR + 1, 'an hour later');
    } finally {
      await h.close();
    }
  });

  it('delivers the webhook when the SMTP server is down', async () => {
    const closed = await startSmtp();
    await closed.close();
    const metrics = new PrometheusRegistry();
    const h = await alertHarness({ mail: smtpMailSender(`smtp://127.0.0.1:${closed.port}`, 'svc alerts <alerts@example.com>'), metrics });
    try {
      const rule = await h.alerts.createRule(h.site.id, { type: 'spike', threshold: 1, url: receiver.url('/mail-down'), secret: 's', emails: ['ops@shop.example'] });
      await h.alerts.sendTest(rule.id);
      await h.alerts.engine.runDue();
      assert.equal((await h.alerts.history(rule.id))[0]!.status, 'succeeded');
      await h.alerts.drain();
      assert.match(metrics.render(), /svc_alert_mails_total\{outcome="failed"\} 1/);
    } finally {
      await h.close();
    }
  });
});
