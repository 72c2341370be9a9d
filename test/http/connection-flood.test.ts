// Many connections at once over real sockets: however many are open, each is bound by the header,
// body and keep-alive timeouts; one client (address) holds at most SVC_MAX_CONNECTIONS_PER_ADDRESS
// of them, so that another client is still served at once. Another loopback address (127.0.0.2)
// is another client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { assertClosedWithin, holdConnection, timeoutsEnv, type HeldConnection } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Long enough for hundreds of connections to be opened before the first of them is cut.
const HEADERS_MS = 1500;
const BODY_MS = 1000;
const KEEP_ALIVE_MS = 300;
/** The checks run every tenth of the header timeout; hundreds of sockets on a shared machine. */
const SLACK_MS = 800;
const OTHER_CLIENT = '127.0.0.2';
const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
const SLOW_COLLECT = 'POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n';

const within = (afterMs: number, limitMs: number, what: string) => assertClosedWithin(afterMs, limitMs, SLACK_MS, what);

function holdMany(port: number, count: number, first = ''): Promise<HeldConnection[]> {
  return Promise.all(Array.from({ length: count }, () => holdConnection(port, first)));
}

/** The number of connections the server has open. */
function openConnections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.service.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('many connections from one client, under the default per-address cap', () => {
  let server: TestServer;
  let port: number;
  const droppedPerAddress = () => Number(server.ctx.metrics.render().match(/^svc_connections_dropped_per_address_total (\d+)/m)?.[1]);
  before(async () => {
    server = await startTestServer({
      env: {
        ...timeoutsEnv({ headers: HEADERS_MS, body: BODY_MS, keepAlive: KEEP_ALIVE_MS }),
        // The default (the test harness lifts it for the clients of other tests).
        SVC_MAX_CONNECTIONS_PER_ADDRESS: String(loadConfig({}).http.maxConnectionsPerAddress),
      },
    });
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    await server?.stop();
  });

  for (const [silent, admitted] of [
    [100, 100],
    [500, 128],
  ] as const) {
    test(`${silent} silent connections: ${silent - admitted} past the cap closed at once, the ${admitted} admitted answered 408 and closed after the header timeout, another client served meanwhile`, async () => {
      const droppedBefore = droppedPerAddress();
      const held = await holdMany(port, silent);
      const other = await holdConnection(port, HEALTH, undefined, OTHER_CLIENT);
      const otherClosed = await other.closed;
      assert.match(otherClosed.received, /^HTTP\/1\.1 200 /);
      assert.ok(otherClosed.afterMs < 1000, `another client was answered after ${otherClosed.afterMs} ms`);

      const closed = await Promise.all(held.map((h) => h.closed));
      const answered = closed.filter((c) => c.received !== '');
      const refused = closed.filter((c) => c.received === '');
      assert.equal(answered.length, admitted);
      assert.equal(refused.length, silent - admitted);
      for (const { afterMs, received } of answered) {
        within(afterMs, HEADERS_MS, 'a silent connection');
        assert.match(received, /^HTTP\/1\.1 408 /);
      }
      for (const { afterMs } of refused) assert.ok(afterMs < HEADERS_MS - 100, `a connection past the cap closed after ${afterMs} ms`);
      assert.equal(droppedPerAddress() - droppedBefore, silent - admitted);
    });
  }

  test("a new connection's first request is cut at the header timeout from the connection's start, however late its first byte", async () => {
    const { socket, closed } = await holdConnection(port);
    let drip: NodeJS.Timeout | undefined;
    const late = setTimeout(() => {
      socket.write('GET /');
      drip = setInterval(() => socket.writable && socket.write('a'), 100);
    }, HEADERS_MS - 300);
    const { afterMs, received } = await closed;
    clearTimeout(late);
    clearInterval(drip);
    within(afterMs, HEADERS_MS, 'a first request begun late');
    assert.match(received, /^HTTP\/1\.1 408 /);
  });

  test('a slow body beside 100 silent connections is cut after the body timeout, and they after the header timeout', async () => {
    const silent = await holdMany(port, 100);
    const slow = await holdConnection(port, SLOW_COLLECT, 100);
    const { afterMs } = await slow.closed;
    within(afterMs, BODY_MS, 'the slow body');
    for (const { afterMs, received } of await Promise.all(silent.map((h) => h.closed))) {
      within(afterMs, HEADERS_MS, 'a silent connection');
      assert.match(received, /^HTTP\/1\.1 408 /);
    }
  });

  test('100 kept-alive connections idle after their answer are all closed after the keep-alive timeout (Node adds a second)', async () => {
    const held = await holdMany(port, 100, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    for (const { afterMs, received } of await Promise.all(held.map((h) => h.closed))) {
      within(afterMs, KEEP_ALIVE_MS + 1000, 'an idle kept-alive connection');
      assert.match(received, /^HTTP\/1\.1 200 /);
    }
  });

  test("a CONNECT request's connection is closed once answered, though its client never closes its side", async () => {
    await eventually('no connection left open', async () => (await openConnections(server)) === 0);
    const held = await holdConnection(port, 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n');
    // The client keeps its side open: only the server can close the connection.
    held.socket.on('end', () => undefined);
    held.socket.allowHalfOpen = true;
    await eventually('the CONNECT answered and its connection closed', async () => (await openConnections(server)) === 0);
    held.socket.destroy();
  });
});

test('peers listed in SVC_TRUSTED_PROXIES are not capped per address; a client under its cap is admitted again', async () => {
  const server = await startTestServer({ env: { SVC_MAX_CONNECTIONS_PER_ADDRESS: '5', SVC_TRUSTED_PROXIES: OTHER_CLIENT } });
  const port = Number(new URL(server.url).port);
  const halfHead = 'GET /healthz HTTP/1.1\r\nHost: x\r\n';
  const held: HeldConnection[] = [];
  try {
    held.push(...(await Promise.all(Array.from({ length: 20 }, () => holdConnection(port, halfHead, undefined, OTHER_CLIENT)))));
    held.push(...(await holdMany(port, 5, halfHead)));
    const over = await holdConnection(port, HEALTH);
    assert.equal((await over.closed).received, '', 'the sixth connection from 127.0.0.1 is closed unanswered');
    assert.equal(await openConnections(server), 25);
    assert.match(server.ctx.metrics.render(), /^svc_connections_dropped_per_address_total 1$/m);
    assert.match(server.ctx.metrics.render(), /^svc_connections_dropped_total 0$/m);
    held.pop()!.socket.destroy();
    await eventually('a freed slot serves 127.0.0.1 again', async () => {
      const again = await holdConnection(port, HEALTH);
      return /^HTTP\/1\.1 200 /.test((await again.closed).received);
    });
  } finally {
    for (const h of held) h.socket.destroy();
    await server.stop();
  }
});
