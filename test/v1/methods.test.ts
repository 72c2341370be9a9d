// Every HTTP method Node parses, on /v1: the key is checked first (401), then 405 with `allow: GET`
// on a known route or 404 elsewhere, and every answer carries `cache-control: no-store`. Over a raw
// socket (what a client really receives) and through inject (what the router decides).
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest } from '../helpers/raw-http.js';
import { startTestServer, createSite, createApiKey, type TestServer, type SiteFixture } from '../helpers/server.js';

const NON_GET = METHODS.filter((m) => m !== 'GET');

describe('methods other than GET on /v1', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let port: number;

  before(async () => {
    server = await startTestServer({ env: { SVC_API_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    key = await createApiKey(server, site.orgId);
    port = Number(new URL(server.url).port);
  });

  after(() => server.stop());

  const raw = (method: string, path: string, authorization: string | null) =>
    rawRequest(port, `${method} ${path} HTTP/1.1\r\nhost: x\r\n${authorization ? `authorization: ${authorization}\r\n` : ''}connection: close\r\n\r\n`, null);
  const header = (head: string, name: string) => new RegExp(`\r\n${name}: *([^\r]*)`, 'i').exec(head)?.[1];

  test('over a raw socket: 401 without a key, then 405 allow: GET on a route, 404 off one, all no-store', async () => {
    const route = `/v1/sites/${site.siteId}/stats`;
    for (const method of NON_GET) {
      const cases: Array<[string, string | null, number, string]> = [
        [route, null, 401, 'UNAUTHORIZED'],
        [route, 'Bearer svc_' + 'Z'.repeat(32), 401, 'UNAUTHORIZED'],
        [route, `Bearer ${key}`, 405, 'METHOD_NOT_ALLOWED'],
        ['/v1/sites', `bearer ${key}`, 405, 'METHOD_NOT_ALLOWED'],
        ['/v1/nope', null, 401, 'UNAUTHORIZED'],
        ['/v1/nope', `Bearer ${key}`, 404, 'NOT_FOUND'],
      ];
      for (const [path, authorization, status, code] of cases) {
        const label = `${method} ${path} ${authorization ?? '(no key)'}`;
        const res = await raw(method, path, authorization);
        assert.equal(res.status, status, label);
        assert.equal(header(res.head, 'cache-control'), 'no-store', label);
        if (status === 405) assert.equal(header(res.head, 'allow'), 'GET', label);
        if (method !== 'HEAD') assert.equal(JSON.parse(res.body.toString()).error.code, code, label);
      }
    }
  });

  test('through inject: the same answers for TRACE, PROPFIND and the other methods Fastify does not route by default', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'QUERY', 'SEARCH', 'M-SEARCH', 'PURGE'] as const) {
      const url = `/v1/sites/${site.siteId}/timeseries`;
      const anonymous = await server.service.app.inject({ method: method as 'GET', url });
      assert.equal(anonymous.statusCode, 401, method);
      assert.equal(anonymous.headers['cache-control'], 'no-store', method);
      const keyed = await server.service.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(keyed.statusCode, 405, method);
      assert.equal(keyed.headers.allow, 'GET', method);
      assert.equal(keyed.headers['cache-control'], 'no-store', method);
      assert.equal(keyed.json().error.code, 'METHOD_NOT_ALLOWED', method);
    }
  });

  test('a method Node cannot parse is a malformed request, still no-store', async () => {
    const res = await raw('FROB', '/v1/sites', `Bearer ${key}`);
    assert.equal(res.status, 400);
    assert.equal(header(res.head, 'cache-control'), 'no-store');
  });

  test('CONNECT, which Node keeps from the router, is answered too, and elsewhere as an unknown route', async () => {
    const tunnel = await raw('CONNECT', 'example.com:443', `Bearer ${key}`);
    assert.equal(tunnel.status, 404);
    assert.equal(JSON.parse(tunnel.body.toString()).error.code, 'NOT_FOUND');
    const admin = await raw('CONNECT', '/admin/v1/orgs', null);
    assert.equal(admin.status, 401, 'the admin API asks for its token first, as for any method');
    // A client that resets its CONNECT before the answer leaves the server serving.
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`CONNECT /v1/sites HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\n\r\n`);
        socket.resetAndDestroy();
        resolve();
      });
    });
    assert.equal((await raw('GET', '/v1/sites', `Bearer ${key}`)).status, 200);
  });
});
