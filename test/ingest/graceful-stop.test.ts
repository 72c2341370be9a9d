// A graceful stop loses nothing: events answered 202 but still in the write buffer (or still in the
// pipeline) are stored before the process exits, and a restart on the same data finds them all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService } from '../helpers/child.js';
import { holdConnection } from '../helpers/raw-http.js';
import { ADMIN_TOKEN, BROWSER_UA, createRelayKey, createSite, startTestServer } from '../helpers/server.js';

const EVENTS = 600;

function send(url: string, siteId: string, domain: string, relayKey: string, i: number) {
  return fetch(`${url}/api/e`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      origin: `https://${domain}`,
      'user-agent': BROWSER_UA,
      'x-svc-relay-key': relayKey,
      'x-svc-client-ip': `198.${18 + (i % 2)}.${i % 256}.${1 + (i >> 8)}`,
    },
    body: JSON.stringify({ s: siteId, u: `/p/${i}` }),
  }).then((r) => r.status);
}

const STOP_TIMEOUT_MS = 4_000;

test('SIGTERM on the real process closes stalled connections, ends within its deadline and stores every buffered event', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-stop-'));
  try {
    // Set up the site on an in-process server, then hand the data dir to a real process.
    const setup = await startTestServer({ dataDir });
    const site = await createSite(setup, { domain: 'stop.example' });
    const relayKey = await createRelayKey(setup);
    await setup.stop();

    // No timed flush during the test: every event is still buffered at the signal. The header and
    // body timeouts (10 s) are longer than the stop's deadline: only the stop can close the stalls.
    const service = await spawnService(dataDir, { SVC_FLUSH_INTERVAL_MS: '60000', SVC_STOP_TIMEOUT_MS: String(STOP_TIMEOUT_MS) });
    const url = service.url;
    const port = Number(new URL(url).port);

    const statuses = await Promise.all(Array.from({ length: EVENTS }, (_, i) => send(url, site.siteId, site.domain, relayKey, i)));
    assert.ok(statuses.every((s) => s === 202));
    const stalled = await Promise.all([
      holdConnection(port),
      holdConnection(port, 'POST /api/e HTTP/1.1\r\nHost: x\r\nContent-'),
      holdConnection(port, 'POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 500\r\n\r\n', 200),
      holdConnection(port, 'POST /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n', 200),
      holdConnection(port, `POST /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`, 200),
    ]);
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    const { code } = await service.exited;
    const took = Date.now() - signalled;
    const logs = service.logs();
    assert.equal(code, 0, logs);
    assert.ok(took < STOP_TIMEOUT_MS, `the stop took ${took} ms`);
    await Promise.all(stalled.map((h) => h.closed));
    assert.match(logs, /SIGTERM: draining/);
    assert.match(logs, /SIGTERM: drained; every buffered event is stored/);

    const restarted = await startTestServer({ dataDir });
    try {
      const rows = await restarted.storedEvents(site.siteId);
      assert.equal(rows.length, EVENTS);
      assert.equal(new Set(rows.map((r) => r.page)).size, EVENTS);
    } finally {
      await restarted.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('stop() in process drains the buffer and the pipeline', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-stop-'));
  try {
    const server = await startTestServer({ dataDir });
    const site = await createSite(server, { domain: 'drain.example' });
    const relayKey = await createRelayKey(server);
    // No timed flush: on a slow machine one could write every event before the stop, leaving it nothing to drain.
    server.ctx.ingest.buffer.stop();
    await Promise.all(Array.from({ length: 200 }, (_, i) => send(server.url, site.siteId, site.domain, relayKey, i)));
    assert.ok(server.ctx.ingest.buffer.size > 0 || server.ctx.ingest.drops.acceptedFor('collect') < 200, 'events are still buffered');
    await server.stop({ keepData: true });
    const restarted = await startTestServer({ dataDir });
    assert.equal((await restarted.storedEvents(site.siteId)).length, 200);
    await restarted.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a keep-alive client that always has an event in flight does not hold the stop open', { timeout: 20_000 }, async () => {
  const server = await startTestServer();
  const port = Number(new URL(server.url).port);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let answers = 0;
  let closeAnswers = 0;
  // Headers first, the body 20 ms later, the next request as soon as an answer arrives: the
  // connection is never idle, as a relay's keep-alive agent under load is not.
  const next = () => {
    const body = '{}';
    socket.write(`POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`);
    setTimeout(() => socket.writable && socket.write(body), 20);
  };
  socket.on('data', (chunk) => {
    const text = chunk.toString('latin1');
    for (const answer of text.split('HTTP/1.1 ').slice(1)) {
      answers++;
      if (/connection: close/i.test(answer)) closeAnswers++;
    }
    if (socket.writable) next();
  });
  socket.on('error', () => undefined);
  next();
  while (answers < 5) await new Promise((r) => setTimeout(r, 10));
  const started = Date.now();
  await server.stop();
  const took = Date.now() - started;
  socket.destroy();
  assert.ok(took < 3_000, `the stop took ${took} ms (${answers} answers, ${closeAnswers} with Connection: close)`);
});
