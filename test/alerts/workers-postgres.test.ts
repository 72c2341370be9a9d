// Two worker processes on one PostgreSQL database share the webhook queue: every delivery is sent
// exactly once, including the ones the first process had in flight when the second started.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AlertRule } from '../../src/entities/alerts.js';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import { spawnService, type ServiceProcess } from '../helpers/child.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { ADMIN_TOKEN } from '../helpers/server.js';
import { until, webhookReceiverEnv } from './helpers/process.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';

// The first process alone would take DELIVERIES / (4 * RECEIVERS) * ANSWER_MS = 20 s: the second
// starts (a few seconds on a loaded machine) while it is still sending.
const DELIVERIES = 320;
const RECEIVERS = 4; // one host each: an engine sends to at most 4 at a time per host
const ANSWER_MS = 1_000;

/** Successful attempts a process made, from its /metrics. */
async function succeededAttempts(base: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('svc_webhook_attempts_total{outcome="succeeded"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('two worker processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let stores: MetaStores;
  const receivers: Receiver[] = [];
  const dirs: string[] = [];
  const children: ServiceProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    stores = await openMetaStores({ databaseUrl: database.url });
    for (let i = 0; i < RECEIVERS; i++) receivers.push(await startReceiver());
  });
  after(async () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(receivers.map((r) => r.close()));
    await stores?.meta.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    // Each process its own data dir: events stay embedded, the metadata is shared.
    const dir = mkdtempSync(join(tmpdir(), 'svc-workers-'));
    dirs.push(dir);
    const service = await spawnService(dir, { ...webhookReceiverEnv(), SVC_DATABASE_URL: database.url });
    children.push(service);
    return service;
  };

  it('sends each due delivery exactly once', async () => {
    const first = await start();
    const now = Date.now();
    const org = await stores.meta.createOrg('workers', now);
    const site = await stores.meta.createSite(org.id, { domain: 'workers.example', name: 'Workers', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'sWorkers0001', now);
    const rules: AlertRule[] = [];
    for (const receiver of receivers) {
      receiver.answer('/workers', { status: 200, afterMs: ANSWER_MS });
      const url = `https://127.0.0.1:${receiver.port}/workers`;
      rules.push(await stores.alerts.createRule({ siteId: site.internalId, type: 'spike', threshold: 1e9, goalId: null, url, secret: 'workers-secret', emails: [] }, now));
    }
    const ids = Array.from({ length: DELIVERIES }, (_, i) => `workers-${i}`);
    await stores.alerts.recordEvaluation([], ids.map((id, i) => ({ id, ruleId: rules[i % RECEIVERS]!.id, test: true, body: '{}' })), Date.now());

    const received = () => receivers.flatMap((r) => r.requestsTo('/workers'));
    // The second process starts while the first has deliveries in flight.
    await until('the first process to send', () => (received().length > 0 ? true : undefined), 30_000);
    const second = await start();
    await until('every delivery to be answered', () => (received().length >= DELIVERIES ? true : undefined), 120_000);
    const history = await until('every delivery to be recorded', async () => {
      const all = (await Promise.all(rules.map((r) => stores.alerts.history(r.id)))).flat();
      return all.every((d) => d.status === 'succeeded') ? all : undefined;
    });
    await new Promise((r) => setTimeout(r, 2 * ANSWER_MS)); // a duplicate would arrive meanwhile

    const sent = received().map((r) => r.headers['svc-delivery-id']!);
    const counts = new Map<string, number>();
    for (const id of sent) counts.set(id, (counts.get(id) ?? 0) + 1);
    assert.deepEqual([...counts.keys()].sort(), [...ids].sort(), 'every delivery sent');
    assert.deepEqual([...counts].filter(([, n]) => n > 1), [], 'none sent twice');
    assert.equal(history.length, DELIVERIES);
    assert.ok(history.every((d) => d.attempts.length === 1), 'one attempt recorded each');
    const [byFirst, bySecond] = [await succeededAttempts(first.url), await succeededAttempts(second.url)];
    assert.equal(byFirst + bySecond, DELIVERIES);
    assert.ok(byFirst > 0 && bySecond > 0, `both processes sent (${byFirst} and ${bySecond})`);

    for (const service of [first, second]) {
      service.child.kill('SIGTERM');
      assert.equal((await service.exited).code, 0);
    }
  });
});
