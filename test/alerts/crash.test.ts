import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLAIM_TTL_MS } from '../../src/alerts/delivery-engine.js';
import { spawnService, type ServiceProcess } from '../helpers/child.js';
import { ADMIN_TOKEN } from '../helpers/server.js';
import { until, webhookReceiverEnv } from './helpers/process.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';

describe('webhook deliveries across kill -9', () => {
  let receiver: Receiver;
  let dataDir: string;
  const children: ServiceProcess[] = [];

  before(async () => {
    receiver = await startReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  });
  after(async () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes pending and in-flight deliveries after a crash and completes each once', async () => {
    let base = '';
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const healthy = () => until('the service', () => fetch(`${base}/healthz`).then((r) => (r.ok ? true : undefined), () => undefined));

    const first = await spawnService(dataDir, webhookReceiverEnv());
    children.push(first);
    base = first.url;
    await healthy();
    const org = await admin('POST', '/orgs', { name: 'crash' });
    const site = await admin('POST', `/orgs/${org.id}/sites`, { domain: 'crash.example', name: 'Crash', timezone: 'UTC' });
    const rule = await admin('POST', `/sites/${site.id}/alerts`, { type: 'spike', threshold: 1, url: `https://127.0.0.1:${receiver.port}/crash`, secret: 'crash-secret' });
    assert.equal(typeof rule.id, 'number', JSON.stringify(rule));

    // The receiver hangs: some attempts are in flight (leased), the rest wait for a slot.
    receiver.answer('/crash', 'hang');
    const deliveryIds: string[] = [];
    for (let i = 0; i < 8; i++) deliveryIds.push((await admin('POST', `/alerts/${rule.id}/test`)).deliveryId);
    await until('attempts in flight', () => (receiver.requestsTo('/crash').length >= 4 ? true : undefined));
    first.child.kill('SIGKILL');
    await first.exited;

    const beforeRestart = receiver.requestsTo('/crash').length;
    receiver.answer('/crash', 200);
    const second = await spawnService(dataDir, webhookReceiverEnv());
    children.push(second);
    base = second.url;
    await healthy();
    const history = await until('every delivery to succeed', async () => {
      const h = await admin('GET', `/alerts/${rule.id}/history`);
      return h.deliveries.every((d: { status: string }) => d.status === 'succeeded') ? h.deliveries : undefined;
    }, 20_000 + CLAIM_TTL_MS); // the killed process's claims expire first

    assert.deepEqual(history.map((d: { id: string }) => d.id).sort(), [...deliveryIds].sort());
    const answered = receiver.requestsTo('/crash').slice(beforeRestart);
    assert.deepEqual(
      answered.map((r) => r.headers['svc-delivery-id']).sort(),
      [...deliveryIds].sort(),
      'each delivery answered 200 exactly once after the restart',
    );
    second.child.kill('SIGTERM');
    assert.equal((await second.exited).code, 0, 'SIGTERM drains and exits 0');
  });
});
