import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { smtpMailSender } from '../../src/alerts/email.js';
import { MetricsRegistry } from '../../src/core/metrics.js';
import { startReceiver, type Receiver } from './helpers/receiver.js';
import { alertHarness } from './helpers/service.js';

interface Mail {
  to: string[];
  data: string;
}

/** Just enough SMTP for nodemailer: plain text, no STARTTLS, no auth. */
async function startSmtp(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let to: string[] = [];
    let data: string | undefined;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
            mails.push({ to, data });
            data = undefined;
            to = [];
            socket.write('250 queued\r\n');
          } else data += line + '\n';
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^RCPT TO:/i.test(line)) {
          to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write('250 ok\r\n');
        } else if (/^DATA/i.test(line)) {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function until(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('email channel', () => {
  let receiver: Receiver;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

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
    const h = await alertHarness({ timeoutMs: 30_000, mail: smtpMailSender(`smtp://127.0.0.1:${smtp.port}`) });
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

  it('delivers the webhook when the SMTP server is down', async () => {
    const closed = await startSmtp();
    await closed.close();
    const metrics = new MetricsRegistry();
    const h = await alertHarness({ mail: smtpMailSender(`smtp://127.0.0.1:${closed.port}`), metrics });
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
