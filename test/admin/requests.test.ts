// How the admin API reads a request before any route logic: the Bearer scheme in any letter case
// (as /v1 reads it), and bodiless actions sent with `content-type: application/json` and no body.
import { after, before, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { createApiKey, createSite, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${server.adminToken}`, ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test('the Bearer scheme name is case-insensitive on the admin API and /metrics, as on /v1', async () => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    for (const path of ['/admin/v1/orgs', '/metrics']) {
      const res = await fetch(server.url + path, { headers: { authorization: `${scheme} ${server.adminToken}` } });
      assert.equal(res.status, 200, `${scheme} ${path}`);
    }
  }
  for (const authorization of [`bearer${server.adminToken}`, `Bearer: ${server.adminToken}`, `Bearerx ${server.adminToken}`]) {
    const res = await fetch(server.url + '/admin/v1/orgs', { headers: { authorization } });
    assert.equal(res.status, 401, authorization);
  }
});

test('the admin token is compared as two SHA-256 digests in constant time, whatever length is given', async () => {
  const token = server.adminToken;
  const compare = mock.method(crypto, 'timingSafeEqual');
  syncBuiltinESMExports();
  try {
    for (const given of [token.slice(0, -1), token.slice(0, 1), `${token}x`, token.replace(/.$/, '!'), 'x'.repeat(4096)]) {
      for (const path of ['/admin/v1/orgs', '/metrics']) {
        compare.mock.resetCalls();
        const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${given}` } });
        assert.equal(res.status, 401, `${given.length} characters on ${path}`);
        assert.ok(compare.mock.callCount() >= 1, `${given.length} characters on ${path}: compared`);
        for (const call of compare.mock.calls) assert.deepEqual(call.arguments.map((side) => (side as Buffer).length), [32, 32]);
      }
    }
    const res = await fetch(server.url + '/admin/v1/orgs', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
  } finally {
    compare.mock.restore();
    syncBuiltinESMExports();
  }
});

test('bodiless actions accept content-type: application/json with an empty body', async () => {
  const site = await createSite(server);
  const created = await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'to revoke' });
  const json = { 'content-type': 'application/json' };
  const revoked = await send('POST', `/admin/v1/keys/${created.body.id}/revoke`, json, '');
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  assert.equal(typeof revoked.body.revokedAt, 'number');
  const read = await fetch(`${server.url}/v1/sites`, { headers: { authorization: `Bearer ${created.body.key}` } });
  assert.equal(read.status, 401, 'the key is revoked');
  assert.equal((await send('POST', '/admin/v1/alerts/999999/test', json, '')).status, 404, 'reaches the route');
  assert.equal((await send('DELETE', `/admin/v1/sites/${site.siteId}/goals/999999`, json, '')).status, 404, 'reaches the route');
  const ran = await send('POST', '/admin/v1/maintenance/run', json, '');
  assert.equal(ran.status, 200, JSON.stringify(ran.body));
  assert.ok(ran.body.ran.length > 0, 'every task ran');
  const whitespace = await send('POST', `/admin/v1/keys/${created.body.id}/revoke`, json, ' \r\n');
  assert.equal(whitespace.status, 200, 'blank is empty');
});

test('otherwise each request body problem is named', async () => {
  const site = await createSite(server);
  const key = await createApiKey(server, site.orgId);
  assert.ok(key);
  const keys = await server.admin('GET', `/orgs/${site.orgId}/keys`);
  const revoke = `/admin/v1/keys/${keys.body.keys[0].id}/revoke`;
  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, string, Record<string, string>, string, number, string]> = [
    ['POST', revoke, json, '{"reason":"x"}', 400, 'unknown field "reason"; this request takes no body'],
    ['POST', revoke, json, '[]', 400, 'body must be a JSON object'],
    ['POST', revoke, json, '{', 400, 'body is not valid JSON'],
    ['POST', revoke, json, '{"__proto__":{"admin":true}}', 400, 'body must not have a __proto__ or constructor.prototype key'],
    ['POST', '/admin/v1/orgs', json, '{"name":"x","constructor":{"prototype":{"admin":true}}}', 400, 'body must not have a __proto__ or constructor.prototype key'],
    ['POST', revoke, { 'content-type': 'text/plain' }, 'x', 400, 'body must be a JSON object'],
    ['POST', revoke, { 'content-type': 'application/xml' }, '<x/>', 415, 'unsupported content type: send application/json'],
    ['POST', '/admin/v1/alerts/999999/test', json, '{"dry":true}', 400, 'unknown field "dry"; this request takes no body'],
    ['POST', '/admin/v1/orgs', json, '', 400, 'name is required and must be a non-empty string'],
    ['POST', '/admin/v1/maintenance/run', json, '{"tasks":"all"}', 400, 'tasks must be an array of: '],
  ];
  for (const [method, path, headers, body, status, message] of cases) {
    const res = await send(method, path, headers, body);
    assert.equal(res.status, status, `${path} ${body}: ${JSON.stringify(res.body)}`);
    assert.ok(res.body.error.message.startsWith(message), `${path} ${body}: ${res.body.error.message}`);
  }
  assert.equal((await fetch(`${server.url}/v1/sites`, { headers: { authorization: `Bearer ${key}` } })).status, 200, 'no refused call revoked the key');
});
