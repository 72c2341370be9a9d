// The language of /app/v1's error messages, in process (Fastify inject): a request's Accept-Language
// picks the translation of the refusal's template, with the same code, reason and parameters; no
// header, or a language svc does not write, keeps the English message byte for byte; /v1 and
// /admin/v1, whose clients are programs, answer in English whatever the header.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { REASON_HEADER } from '../../src/core/answer-headers.js';
import { apiError } from '../../src/core/errors.js';
import { messageIn } from '../../src/core/messages/errors.js';
import { signedInUser } from '../helpers/app-client.js';
import { ADMIN_TOKEN, createApiKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

describe("/app/v1's error messages in the request's language", () => {
  let server: TestServer;
  let app: FastifyInstance;
  let site: SiteFixture;
  let key: string;
  before(async () => {
    server = await startTestServer();
    app = server.service.app;
    site = await createSite(server);
    key = await createApiKey(server, site.orgId);
    await server.admin('POST', '/users', { email: 'ana@example.com', password: 'a long enough secret' });
  });
  after(() => server.stop());

  const answer = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const res = await app.inject({ method, url, headers, payload });
    return { status: res.statusCode, raw: res.body, error: res.json().error, reason: res.headers[REASON_HEADER] };
  };
  const wrongPassword = (language?: string) =>
    answer('POST', '/app/v1/session', language === undefined ? {} : { 'accept-language': language }, { email: 'ana@example.com', password: 'not the password' });

  test('a wrong password: German for a German reader, with the same code and reason; English without a header or for a language svc does not write', async () => {
    const german = await wrongPassword('de-DE,de;q=0.9,en;q=0.8');
    assert.equal(german.status, 401);
    assert.deepEqual(german.error, { code: 'UNAUTHORIZED', reason: 'WRONG_PASSWORD_UNAUTHORIZED', message: 'E-Mail-Adresse oder Passwort ist falsch.' });
    assert.equal(german.reason, 'WRONG_PASSWORD_UNAUTHORIZED');
    assert.equal((await wrongPassword('ja, fr;q=0.5')).error.message, 'E-mail ou mot de passe incorrect.', 'the first language svc writes');
    const english = '{"error":{"code":"UNAUTHORIZED","reason":"WRONG_PASSWORD_UNAUTHORIZED","message":"Wrong email or password."}}';
    assert.equal((await wrongPassword()).raw, english, 'no header: the English answer, byte for byte');
    assert.equal((await wrongPassword('ja, zh-CN;q=0.8')).raw, english, 'no language svc writes');
  });

  test("a translation is filled with the refusal's parameters", async () => {
    const unknownPath = await answer('GET', '/app/v1/nowhere?x=1', { 'accept-language': 'es' });
    assert.deepEqual(unknownPath.error, { code: 'NOT_FOUND', reason: 'ROUTE_NOT_FOUND', message: 'No existe la ruta GET /app/v1/nowhere' });
  });

  test("a role in a refusal is named in the language: the needed one and the reader's own", async () => {
    const { client } = await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    const asked = (language: string) => answer('GET', `/app/v1/manage/sites/${site.siteId}`, { 'accept-language': language, cookie: `svc_session=${client.cookie}` });
    const german = await asked('de');
    assert.equal(german.status, 403);
    assert.deepEqual(german.error, { code: 'FORBIDDEN', reason: 'ROLE_FORBIDDEN', message: 'Dies erfordert die Rolle Administrator in der Organisation; Ihre ist Betrachter' });
    assert.equal((await asked('en')).error.message, 'this needs the admin role in the organisation; yours is viewer');
    // Another parameter that happens to spell a role is the client's text: it stays as sent.
    assert.equal(messageIn(apiError('NOT_FOUND', 'route', { method: 'GET', path: 'admin' }), 'de'), 'Keine Route GET admin');
  });

  test("the read API's routes mounted on /app/v1 answer in the reader's language too; /v1 and /admin/v1 always in English", async () => {
    const { client } = await signedInUser(server, 'member@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    const query = `/sites/${site.siteId}/stats?from=2024-02-01&to=2024-01-01`;
    const german = { 'accept-language': 'de' };
    const onApp = await answer('GET', `/app/v1${query}`, { ...german, cookie: `svc_session=${client.cookie}` });
    const onV1 = await answer('GET', `/v1${query}`, { ...german, authorization: `Bearer ${key}` });
    const onAdmin = await answer('GET', '/admin/v1/sites/nosuchsite/goals', { ...german, authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.deepEqual(onApp.error, { code: 'INVALID_PERIOD', message: 'Der Beginn liegt nach dem Ende' });
    assert.equal(onApp.reason, 'REVERSED_INVALID_PERIOD');
    assert.deepEqual(onV1.error, { code: 'INVALID_PERIOD', message: 'from is later than to' });
    assert.deepEqual(onAdmin.error, { code: 'NOT_FOUND', reason: 'SITE_NOT_FOUND', message: 'site not found' });
  });
});
