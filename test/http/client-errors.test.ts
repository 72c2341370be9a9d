// Requests Node's HTTP parser refuses before any route: answered with the error envelope over a
// real socket, the connection closed, and the server still serving.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

const cases = [
  { kind: 'a request line that is not HTTP', request: 'NOT A REQUEST\r\n\r\n', status: 400, code: 'INVALID_PARAMS' },
  { kind: 'a header without a colon', request: 'GET /healthz HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n', status: 400, code: 'INVALID_PARAMS' },
  {
    kind: 'headers over 16 KB, to the collection endpoint',
    request: `POST /api/e HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
    status: 431,
    code: 'HEADERS_TOO_LARGE',
  },
  { kind: 'headers over 16 KB, to the admin API', request: `GET /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, status: 431, code: 'HEADERS_TOO_LARGE' },
];

for (const c of cases) {
  test(`client error: ${c.kind} → ${c.status} with the error envelope`, async () => {
    const answer = await rawRequest(Number(new URL(server.url).port), c.request, null);
    const headers = answer.head.toLowerCase();
    assert.equal(answer.status, c.status);
    assert.match(headers, /content-type: application\/json/);
    assert.match(headers, /connection: close/);
    assert.match(headers, /cache-control: no-store/);
    assert.equal(Number(/content-length: (\d+)/.exec(headers)?.[1]), answer.body.length);
    const parsed = JSON.parse(answer.body.toString('utf8'));
    assert.equal(parsed.error.code, c.code);
    assert.equal(typeof parsed.error.message, 'string');
    // The process is still up and answering.
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });
}
