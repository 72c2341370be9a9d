// SVC_ROLE: each process serves the routes of its roles and answers 404 NOT_FOUND (the error
// envelope) to the others; /healthz and /metrics everywhere. Three processes, one per role, over
// real HTTP on one PostgreSQL database (events in DuckDB until the ClickHouse adapter is there: the
// configuration is built here with the role set and the shared event store left out). A start
// that lacks a store's URL, or whose store is down, names it and exits non-zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ProcessRole } from '../../src/config.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/server.js';
import { until } from '../alerts/helpers/process.js';
import { startReceiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';
import { spawnService } from '../helpers/child.js';
import { createTestDatabase } from '../../support/postgres.js';
import { ADMIN_TOKEN, BROWSER_UA } from '../helpers/server.js';

const quiet = { info() {}, warn() {}, error() {} };
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function startRole(role: ProcessRole, databaseUrl: string, env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<{ service: RunningService; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-${role}-`));
  const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_DATABASE_URL: databaseUrl, ...env }), role: [role] };
  return { service: await startService(config, { log: quiet, maintenanceTimers: false, ...options }), dataDir };
}

async function adminPost<T>(base: string, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/admin/v1${path}`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

interface Answer {
  status: number;
  code: string | undefined;
}

async function call(base: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const res = await fetch(base + path, { method, redirect: 'manual', ...init });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

/** A route of each role, as a client calls it; what it answers where the role runs is checked per role below. */
const ROUTES: Record<ProcessRole, Array<[method: string, path: string]>> = {
  collect: [
    ['GET', '/js/t.js'],
    ['GET', '/js/v.js'],
    ['POST', '/api/e'],
  ],
  api: [
    ['GET', '/v1/sites'],
    ['GET', '/v1/sites/x/segments'],
    ['GET', '/v1/sites/x/annotations'],
    ['GET', '/app/v1/manage/sites/x/segments'],
    ['POST', '/app/v1/manage/sites/x/annotations'],
    ['GET', '/openapi.json'],
    ['GET', '/admin/v1/orgs'],
    ['GET', '/app/v1/setup'],
    ['GET', '/login'],
    ['GET', '/'],
    ['GET', '/account/security'],
    ['GET', '/app/v1/account/two-factor'],
  ],
  worker: [],
};

test('each role serves its routes and answers 404 NOT_FOUND to the routes of the others; /healthz and /metrics everywhere', { timeout: 120_000 }, async () => {
  const db = await createTestDatabase();
  const started: Array<{ service: RunningService; dataDir: string }> = [];
  try {
    // One at a time: the first start migrates the database.
    for (const role of ['api', 'collect', 'worker'] as const) started.push(await startRole(role, db.url));
    const [api, collect, worker] = started.map((s) => s.service) as [RunningService, RunningService, RunningService];
    const processes: Array<[ProcessRole, RunningService]> = [
      ['api', api],
      ['collect', collect],
      ['worker', worker],
    ];

    for (const [role, service] of processes) {
      const health = await fetch(`${service.url}/healthz`);
      assert.equal(health.status, 200, role);
      const body = (await health.json()) as { ok: boolean; roles: string[]; spool?: { events: number } };
      assert.equal(body.ok, true);
      assert.deepEqual(body.roles, [role]);
      // Only a collecting process has a spool.
      assert.equal(body.spool?.events, role === 'collect' ? 0 : undefined, role);
      assert.equal((service.ctx.spool === undefined), role !== 'collect', role);
      const metrics = await fetch(`${service.url}/metrics`, { headers: admin });
      assert.equal(metrics.status, 200, role);
      assert.match(await metrics.text(), /^svc_process_memory_bytes\{kind="rss"\} \d+/m);
      assert.equal((await call(service.url, 'GET', '/metrics')).status, 401, `${role}: /metrics still wants the admin token`);

      for (const [owner, routes] of Object.entries(ROUTES) as Array<[ProcessRole, Array<[string, string]>]>) {
        for (const [method, path] of routes) {
          const answer = await call(service.url, method, path, { headers: { ...admin, origin: 'https://nowhere.example', 'user-agent': BROWSER_UA }, body: method === 'POST' ? '{}' : undefined });
          if (owner === role) assert.notEqual(answer.status, 404, `${role} serves ${method} ${path}`);
          else assert.deepEqual(answer, { status: 404, code: 'NOT_FOUND' }, `${role} answers 404 NOT_FOUND to ${method} ${path}`);
        }
      }
    }

    // What each role's routes answer where they run.
    assert.equal((await call(collect.url, 'POST', '/api/e', { body: '{}' })).status, 202);
    assert.equal((await call(collect.url, 'GET', '/js/t.js')).status, 200);
    assert.equal((await call(api.url, 'GET', '/v1/sites')).status, 401);
    assert.equal((await call(api.url, 'GET', '/openapi.json')).status, 200);

    // The api process runs the admin API, imports included (with their rollups), on the shared metadata.
    const org = await adminPost<{ id: number }>(api.url, '/orgs', { name: 'Roles' });
    assert.equal(org.status, 201);
    const created = await adminPost<{ id: string }>(api.url, `/orgs/${org.body.id}/sites`, { domain: 'roles.example', name: 'Roles', timezone: 'UTC' });
    assert.equal(created.status, 201);
    const siteId = created.body.id;
    const ts = Date.now() - 3 * 86_400_000;
    const lines = [0, 1, 2].map((i) => JSON.stringify({ ts: ts + i * 60_000, ua: BROWSER_UA, ip: `203.0.113.${i + 1}`, u: '/imported' }));
    const imported = await fetch(`${api.url}/admin/v1/sites/${siteId}/events/import`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n') + '\n',
    });
    assert.equal(imported.status, 200, await imported.clone().text());
    assert.equal(((await imported.json()) as { accepted: number }).accepted, 3);
    // The collect process knows the site the api process created: the metadata is shared.
    assert.ok(await collect.ctx.ingest.sites.get(siteId, Date.now()));
  } finally {
    for (const { service, dataDir } of started) {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    await db.drop();
  }
});

test('webhook deliveries are sent by the worker process: a test send queued by the api process waits for it', { timeout: 90_000 }, async () => {
  const db = await createTestDatabase();
  const receiver = await startReceiver();
  const started: Array<{ service: RunningService; dataDir: string }> = [];
  // Loopback receivers: private addresses allowed, the test CA, receiver.test resolved to 127.0.0.1.
  const env = { SVC_WEBHOOK_ALLOW_PRIVATE: '1' };
  const options: ServiceOptions = { alerts: { resolve: loopbackResolver, ca: testCertificates().ca } };
  try {
    started.push(await startRole('api', db.url, env, options));
    const api = started[0]!.service;
    const org = await adminPost<{ id: number }>(api.url, '/orgs', { name: 'Hooks' });
    const site = await adminPost<{ id: string }>(api.url, `/orgs/${org.body.id}/sites`, { domain: 'hooks.example', name: 'Hooks', timezone: 'UTC' });
    const rule = await adminPost<{ id: number }>(api.url, `/sites/${site.body.id}/alerts`, { type: 'spike', threshold: 100, url: receiver.url('/roles'), secret: 'roles-shared-secret' });
    assert.equal(rule.status, 201);
    assert.equal((await adminPost(api.url, `/alerts/${rule.body.id}/test`, {})).status, 202);
    // The delivery engine polls every second where it runs: three seconds without a request.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(receiver.requestsTo('/roles').length, 0, 'the api process sends no webhook');

    started.push(await startRole('worker', db.url, env, options));
    await until('the worker to send the test delivery', () => (receiver.requestsTo('/roles').length > 0 ? true : undefined), 30_000);
    assert.equal(receiver.requestsTo('/roles').length, 1);
    assert.equal((JSON.parse(receiver.requestsTo('/roles')[0]!.body) as { test: boolean }).test, true);
  } finally {
    for (const { service, dataDir } of started) {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    await receiver.close();
    await db.drop();
  }
});

test('a start that lacks a shared store\'s URL names every one missing and exits non-zero', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
  try {
    const refused = await spawnService(dataDir, { SVC_ROLE: 'collect', SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }).then(
      () => assert.fail('a collect process without SVC_CLICKHOUSE_URL and SVC_REDIS_URL started'),
      (err: Error) => err.message,
    );
    assert.match(refused, /^exited 2 before listening/);
    assert.match(refused, /SVC_ROLE=collect .*set SVC_CLICKHOUSE_URL, SVC_REDIS_URL/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a start whose PostgreSQL is down names it and exits non-zero', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
  try {
    // Port 1 on the loopback: nothing listens there, the connection is refused at once.
    const refused = await spawnService(dataDir, { SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/svc' }).then(
      () => assert.fail('the service started without its metadata database'),
      (err: Error) => err.message,
    );
    assert.match(refused, /^exited 1 before listening/);
    assert.match(refused, /svc failed to start: metadata database 127\.0\.0\.1:1\/svc on PostgreSQL could not be opened and migrated: connect ECONNREFUSED/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
