// Pipelined requests whose answers are never read, against svc as a real process with a 128 MB heap
// (docs/security.md, "Connections"). Each connection writes 1 600 `GET /openapi.json` at once: it is
// cut once MAX_QUEUED_ANSWERS answers wait behind the one being sent, and the rest of what it sent
// is dropped as it is parsed, so the heap stays within 48 MB of where it was, another client's
// /healthz is answered meanwhile, and the process lives. Unbounded, three such connections exhaust
// the heap (the answers wait in memory, some 38 KB each).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_QUEUED_ANSWERS } from '../../src/http/connections.js';
import { spawnService, type ServiceProcess } from '../helpers/child.js';
import { closesWithin, HEAP_USED, metricFrom, pipelineAttack, type PipelineAttack } from '../helpers/pipelining.js';

const HEAP_LIMIT_MB = 128;
const MAX_HEAP_GROWTH = 48 * 1024 * 1024;
const PIPELINED = 1600;
const CUT = /^svc_connections_cut_pipelined_total /;

describe(`clients that pipeline ${PIPELINED} GET /openapi.json and read nothing, against a ${HEAP_LIMIT_MB} MB heap`, () => {
  let dataDir: string;
  let service: ServiceProcess;
  let port: number;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-pipelining-'));
    service = await spawnService(dataDir, {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_LIMIT_MB}`,
      // The default cap: the second test opens as many connections as one address may.
      SVC_MAX_CONNECTIONS_PER_ADDRESS: '128',
    });
    port = Number(new URL(service.url).port);
  });
  after(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The attack from `connections` connections, checked: each cut at once, the heap bounded, /healthz within `healthMs`. */
  async function attackAndCheck(connections: number, healthMs: number, report: (text: string) => void): Promise<PipelineAttack> {
    const cutBefore = await metricFrom(service.url, CUT);
    const attack = await pipelineAttack({
      port,
      connections,
      requests: PIPELINED,
      path: '/openapi.json',
      watchMs: 2000,
      heapUsed: () => metricFrom(service.url, HEAP_USED),
      healthUrl: `${service.url}/healthz`,
    });
    report(`heap growth ${(attack.heapGrowth / 1e6).toFixed(1)} MB, slowest /healthz ${attack.slowestHealth.toFixed(0)} ms`);
    assert.equal(service.child.exitCode, null, 'the process lives');
    assert.ok(attack.heapGrowth < MAX_HEAP_GROWTH, `the heap grew by ${attack.heapGrowth} bytes`);
    assert.ok(attack.slowestHealth < healthMs, `/healthz took ${attack.slowestHealth} ms`);
    assert.equal((await metricFrom(service.url, CUT)) - cutBefore, connections);
    // Read from now on, each connection ends at once: the server has closed it.
    for (const socket of attack.sockets) assert.ok(await closesWithin(socket, 1000), 'the server closed the connection');
    return attack;
  }

  test(`three connections: each cut after ${MAX_QUEUED_ANSWERS} queued answers, the heap within 48 MB, /healthz prompt`, async (t) => {
    await attackAndCheck(3, 1000, (text) => t.diagnostic(text));
  });

  test("the per-address cap's 128 connections at once: each cut, the heap within 48 MB, /healthz answered", async (t) => {
    // Node parses every connection's 62 KB before it answers another client: some 200 000 requests.
    await attackAndCheck(128, 3000, (text) => t.diagnostic(text));
  });
});
