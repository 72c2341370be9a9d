// Connection limits over real sockets: a client that sends nothing, half its headers, or a body a
// byte at a time is cut within the configured timeouts; an import call's body, once authorized, is
// timed by the client's pace only (not by how long the server takes to store it); connections past
// the cap are closed on accept.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClosedWithin, holdConnection, timeoutsEnv } from '../helpers/raw-http.js';
import { ADMIN_TOKEN, createSite, startTestServer, type TestServer } from '../helpers/server.js';

const HEADERS_MS = 400;
const BODY_MS = 600;
const KEEP_ALIVE_MS = 300;
const REQUEST_MS = 5_000;
/** Node checks the header and request deadlines every tenth of the shorter; the machine is shared. */
const SLACK_MS = 700;

describe('timeouts', () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer({
      env: timeoutsEnv({ headers: HEADERS_MS, body: BODY_MS, keepAlive: KEEP_ALIVE_MS, request: REQUEST_MS }),
    });
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    await server?.stop();
  });

  const within = (afterMs: number, limitMs: number, what: string) => assertClosedWithin(afterMs, limitMs, SLACK_MS, what);

  test('a connection that sends nothing is answered 408 and closed after the header timeout', async () => {
    const { closed } = await holdConnection(port);
    const { afterMs, received } = await closed;
    within(afterMs, HEADERS_MS, 'an idle connection');
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.match(received, /"code":"REQUEST_TIMEOUT"/);
  });

  test('half a request head is answered 408 and closed after the header timeout', async () => {
    const { closed } = await holdConnection(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const { afterMs, received } = await closed;
    within(afterMs, HEADERS_MS, 'half headers');
    assert.match(received, /^HTTP\/1\.1 408 /);
  });

  test('a collection body sent a byte at a time is cut after the body timeout, and no event comes of it', async () => {
    const aborted = () => server.ctx.metrics.render().match(/^svc_collect_aborted_total (\d+)/m)?.[1];
    const before = Number(aborted());
    const { closed } = await holdConnection(port, 'POST /api/e HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n', 100);
    const { afterMs, received } = await closed;
    within(afterMs, BODY_MS, 'a slow collection body');
    assert.equal(received, '', 'nothing is answered for a body that never arrived');
    assert.equal(Number(aborted()), before + 1);
  });

  test('an unauthenticated admin POST with a slow body is answered 401 and cut after the body timeout', async () => {
    const head = 'POST /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const { closed } = await holdConnection(port, head, 100);
    const { afterMs, received } = await closed;
    within(afterMs, BODY_MS, 'a slow unauthenticated admin body');
    assert.match(received, /^HTTP\/1\.1 401 /);
  });

  test('an authenticated admin POST with a slow body is answered 408 after the body timeout', async () => {
    const head = `POST /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { closed } = await holdConnection(port, head, 100);
    const { afterMs, received } = await closed;
    within(afterMs, BODY_MS, 'a slow admin body');
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.match(received, /"code":"REQUEST_TIMEOUT","reason":"BODY_REQUEST_TIMEOUT"/);
  });

  test('an idle kept-alive connection is closed after the keep-alive timeout (Node adds a second)', async () => {
    const { closed } = await holdConnection(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { afterMs, received } = await closed;
    within(afterMs, KEEP_ALIVE_MS + 1000, 'a kept-alive connection');
    assert.match(received, /^HTTP\/1\.1 200 /);
  });

  test('an import read at the pace of a slow store is accepted whole, though it takes longer than the request timeout', async () => {
    const site = await createSite(server);
    // Every bulk append waits: the server reads the body far slower than the client sends it.
    const events = server.ctx.events;
    const beginBulk = events.beginBulk.bind(events);
    events.beginBulk = async () => {
      const bulk = await beginBulk();
      const append = bulk.append.bind(bulk);
      bulk.append = async (rows) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        return append(rows);
      };
      return bulk;
    };
    const lines = 60_000;
    const start = Date.now() - 3_600_000;
    const body = Array.from({ length: lines }, (_, i) =>
      JSON.stringify({ ts: start + i, n: 'pageview', u: `/slow/${i}`, ip: `198.51.100.${i % 250}`, ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' }),
    ).join('\n');
    const started = Date.now();
    try {
      const res = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/events/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      assert.equal(res.status, 200, await res.clone().text());
      assert.deepEqual(await res.json(), { accepted: lines, rejected: 0, errors: [] });
    } finally {
      events.beginBulk = beginBulk;
    }
    const tookMs = Date.now() - started;
    assert.ok(tookMs > REQUEST_MS, `the import took ${tookMs} ms: it must outlast the ${REQUEST_MS} ms request timeout to show anything`);
  });

  test('an authorized import whose client trickles its body is answered 408 once it has waited the request timeout', async () => {
    const site = await createSite(server);
    const head =
      `POST /admin/v1/sites/${site.siteId}/events/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
      'Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n';
    const { closed } = await holdConnection(port, head, 100);
    const { afterMs, received } = await closed;
    within(afterMs, REQUEST_MS, 'a trickled import body');
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.match(received, /"code":"REQUEST_TIMEOUT"/);
  });

  test('an import call refused before its body is read (unknown site) is answered 404 and cut after the body timeout', async () => {
    const head =
      `POST /admin/v1/sites/no-such-site/events/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
      'Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n';
    const { closed } = await holdConnection(port, head, 100);
    const { afterMs, received } = await closed;
    within(afterMs, BODY_MS, 'a refused import body');
    assert.match(received, /^HTTP\/1\.1 404 /);
  });

  test('an authorized import call may send its body for longer than the body timeout', async () => {
    const site = await createSite(server);
    const line = JSON.stringify({ ts: Date.now() - 60_000, n: 'pageview', u: '/slow', ip: '198.51.100.7', ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' }) + '\n';
    const head =
      `POST /admin/v1/sites/${site.siteId}/events/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
      `Content-Type: application/x-ndjson\r\nContent-Length: ${Buffer.byteLength(line)}\r\nConnection: close\r\n\r\n`;
    const { socket, closed } = await holdConnection(port, head + line.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, BODY_MS + 400));
    socket.write(line.slice(10));
    const { received } = await closed;
    assert.match(received, /^HTTP\/1\.1 200 /);
    assert.match(received, /"accepted":1/);
  });
});

test('connections past SVC_MAX_CONNECTIONS are closed on accept and counted; a freed slot serves again', async () => {
  const server = await startTestServer({ env: { SVC_MAX_CONNECTIONS: '3' } });
  const port = Number(new URL(server.url).port);
  try {
    const held = await Promise.all([1, 2, 3].map(() => holdConnection(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n')));
    const over = await holdConnection(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { afterMs, received } = await over.closed;
    assert.equal(received, '', 'a connection over the cap gets no answer');
    assert.ok(afterMs < 1000, `closed after ${afterMs} ms`);
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server sees the close a moment after the client.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } }).then((r) => r.status, () => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(status, 200);
    assert.match(server.ctx.metrics.render(), /^svc_connections_dropped_total [1-9]/m);
    for (const h of held) h.socket.destroy();
  } finally {
    await server.stop();
  }
});
