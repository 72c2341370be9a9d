// Clients that pipeline 1 600 `GET /openapi.json` and read nothing, through the proxy of
// deploy/compose.yml (docs/security.md, "Connections"). nginx takes a client's pipelined requests one
// at a time and sends the next to svc only once the answer before it is written to the client, so
// the api process holds one answer per connection at most: its heap stays within 48 MB of where it
// was, /healthz is answered meanwhile, and the proxy cuts each connection once its client has taken
// nothing for its send_timeout (10 s, as svc's SVC_SEND_TIMEOUT_MS).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { closesWithin, HEAP_USED, metricFrom, pipelineAttack } from '../helpers/pipelining.js';

const MAX_HEAP_GROWTH = 48 * 1024 * 1024;
const SEND_TIMEOUT_MS = 10_000;

describe('deploy/compose.yml: clients that pipeline requests and read nothing', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it("keeps the api process's heap within 48 MB and /healthz prompt; the proxy cuts the connections", async (t) => {
    const api = deployment.instance('api');
    const started = Date.now();
    const attack = await pipelineAttack({
      port: Number(new URL(deployment.url).port),
      connections: 3,
      requests: 1600,
      path: '/openapi.json',
      watchMs: 3000,
      heapUsed: () => metricFrom(api.url, HEAP_USED),
      healthUrl: `${deployment.url}/healthz`,
    });
    t.diagnostic(`api heap growth ${(attack.heapGrowth / 1e6).toFixed(1)} MB, slowest /healthz ${attack.slowestHealth.toFixed(0)} ms`);
    assert.ok(attack.heapGrowth < MAX_HEAP_GROWTH, `the api process's heap grew by ${attack.heapGrowth} bytes`);
    assert.ok(attack.slowestHealth < 1000, `/healthz took ${attack.slowestHealth} ms`);
    for (const instance of deployment.instances) assert.equal(instance.process.child.exitCode, null, `${instance.name} lives`);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SEND_TIMEOUT_MS + 2000 - (Date.now() - started))));
    for (const socket of attack.sockets) assert.ok(await closesWithin(socket, 1000), 'the proxy closed the connection');
  });
});
