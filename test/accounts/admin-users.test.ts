// The admin API's users and members routes, in process (Fastify inject): answers, refusals, and the
// sessions that end with a user's deletion or password change.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { ADMIN_TOKEN, createSite, startTestServer, type TestServer } from '../helpers/server.js';

describe('admin API: users and members', () => {
  let server: TestServer;
  let app: FastifyInstance;
  before(async () => {
    server = await startTestServer();
    app = server.service.app;
  });
  after(() => server.stop());

  const admin = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = ADMIN_TOKEN) => {
    const res = await app.inject({ method, url: `/admin/v1${url}`, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  };
  const signIn = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/app/v1/session', payload: { email, password } });
    return { status: res.statusCode, cookie: /^svc_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] };
  };
  const me = async (cookie: string | undefined) => (await app.inject({ method: 'GET', url: '/app/v1/session', headers: { cookie: `svc_session=${cookie}` } })).statusCode;

  test('POST /users: 201 without the hash, 409 for the same email in any case, 400 for bad input', async () => {
    const created = await admin('POST', '/users', { email: 'Carol@Example.com', password: 'a long enough secret' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: created.body.id, email: 'Carol@Example.com', name: 'Carol', createdAt: created.body.createdAt });
    const again = await admin('POST', '/users', { email: 'carol@example.COM', password: 'another long secret', name: 'C' });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'CONFLICT');
    for (const body of [
      { email: 'carol', password: 'a long enough secret' },
      { email: 'dan@example.com', password: '123456789' },
      { email: 'dan@example.com' },
      { email: 'dan@example.com', password: 'a long enough secret', role: 'owner' },
    ]) {
      const res = await admin('POST', '/users', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'INVALID_PARAMS');
    }
    const list = await admin('GET', '/users');
    assert.deepEqual(list.body, { users: [created.body] });
    assert.ok(!JSON.stringify(list.body).includes('scrypt'));
    assert.equal((await admin('GET', '/users', undefined, 'wrong-token-0123456789')).status, 401);
  });

  test('a password change and a deletion end the user\'s sessions at once', async () => {
    const user = (await admin('POST', '/users', { email: 'erin@example.com', password: 'first long secret' })).body;
    const first = await signIn('erin@example.com', 'first long secret');
    assert.equal(await me(first.cookie), 200);
    assert.equal((await admin('PUT', `/users/${user.id}/password`, { password: 'short' })).status, 400);
    assert.equal(await me(first.cookie), 200, 'a refused change ends nothing');
    assert.equal((await admin('PUT', `/users/${user.id}/password`, { password: 'second long secret' })).status, 204);
    assert.equal(await me(first.cookie), 401);
    assert.equal((await signIn('erin@example.com', 'first long secret')).status, 401);
    const second = await signIn('erin@example.com', 'second long secret');
    assert.equal(await me(second.cookie), 200);
    assert.equal((await admin('DELETE', `/users/${user.id}`)).status, 204);
    assert.equal(await me(second.cookie), 401);
    assert.equal((await admin('DELETE', `/users/${user.id}`)).status, 404);
    assert.equal((await admin('PUT', `/users/${user.id}/password`, { password: 'third long secret' })).status, 404);
  });

  test('members: PUT creates and changes, GET lists, DELETE removes; unknown user, org or role refused', async () => {
    const site = await createSite(server);
    const user = (await admin('POST', '/users', { email: 'finn@example.com', password: 'a long enough secret', name: 'Finn' })).body;
    const put = await admin('PUT', `/orgs/${site.orgId}/members/${user.id}`, { role: 'viewer' });
    assert.deepEqual([put.status, put.body], [200, { orgId: site.orgId, userId: user.id, role: 'viewer' }]);
    assert.deepEqual((await admin('PUT', `/orgs/${site.orgId}/members/${user.id}`, { role: 'admin' })).body.role, 'admin');
    assert.deepEqual((await admin('GET', `/orgs/${site.orgId}/members`)).body, {
      members: [{ userId: user.id, email: 'finn@example.com', name: 'Finn', role: 'admin' }],
    });
    assert.equal((await admin('PUT', `/orgs/${site.orgId}/members/${user.id}`, { role: 'king' })).status, 400);
    assert.equal((await admin('PUT', `/orgs/${site.orgId}/members/999999`, { role: 'viewer' })).status, 404);
    assert.equal((await admin('PUT', `/orgs/999999/members/${user.id}`, { role: 'viewer' })).status, 404);
    assert.equal((await admin('POST', `/orgs/${site.orgId}/members`, { email: 'nobody@example.com', role: 'viewer' })).status, 404);
    assert.equal((await admin('DELETE', `/orgs/${site.orgId}/members/${user.id}`)).status, 204);
    assert.deepEqual((await admin('GET', `/orgs/${site.orgId}/members`)).body, { members: [] });
    assert.equal((await admin('DELETE', `/orgs/${site.orgId}/members/${user.id}`)).status, 404);
  });
});
