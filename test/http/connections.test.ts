// The stop of the HTTP server's connections: a request still being handled gets the grace period,
// then its connection is closed; connections waiting for their client are closed at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { Connections } from '../../src/http/connections.js';
import { holdConnection } from '../helpers/raw-http.js';

test('stop closes waiting connections at once and handled requests after the grace period', async () => {
  const connections = new Connections(loadConfig({}).http, { exempt: [], onDropped: () => undefined, onCut: () => undefined });
  let handling = 0;
  // A handler that never answers: the request stays "being handled" until the stop cuts it.
  const server = connections.serve(() => handling++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const idle = await holdConnection(port);
  const slowBody = await holdConnection(port, 'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n', 100);
  const handled = await holdConnection(port, 'GET /x HTTP/1.1\r\nHost: x\r\n\r\n');
  while (handling < 2) await new Promise((resolve) => setTimeout(resolve, 10));

  const grace = 800;
  const started = Date.now();
  const closedAt = (h: Awaited<ReturnType<typeof holdConnection>>) => h.closed.then(() => Date.now() - started);
  const times = Promise.all([idle, slowBody, handled].map(closedAt));
  await connections.stop(() => new Promise<void>((resolve) => server.close(() => resolve())), grace);
  const stoppedAfter = Date.now() - started;
  const [idleMs, slowBodyMs, handledMs] = await times;
  assert.ok(idleMs! < grace / 2, `the idle connection closed after ${idleMs} ms`);
  assert.ok(slowBodyMs! < grace / 2, `the slow body closed after ${slowBodyMs} ms`);
  assert.ok(handledMs! >= grace - 50 && handledMs! < grace + 1000, `the handled request's connection closed after ${handledMs} ms`);
  assert.ok(stoppedAfter < grace + 1000, `the stop took ${stoppedAfter} ms`);
});
