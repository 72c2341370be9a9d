// The bounds on what one tenant keeps, through the admin API of a real listening server: past each
// bound the next creation answers 409 CONFLICT with the catalogue's reason and message, and stores
// nothing; revoking or deleting one makes room again (the stores' side, with calls at once from two
// connections, is test/storage/meta-store.contract.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_KEYS_PER_ORG_MAX, FUNNEL_VERSIONS_MAX, SHARED_LINKS_PER_SITE_MAX } from '../../src/core/vocabulary.js';
import { createSite, startTestServer, type HttpResult, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

function assertRefused(res: HttpResult, reason: string, message: string) {
  assert.deepEqual([res.status, res.body], [409, { error: { code: 'CONFLICT', reason, message } }]);
}

test(`an organisation keeps at most ${API_KEYS_PER_ORG_MAX} API keys in use; a revoked one frees its place`, async () => {
  const { orgId } = await createSite(server);
  const made = await Promise.all(Array.from({ length: API_KEYS_PER_ORG_MAX }, (_, i) => server.admin('POST', `/orgs/${orgId}/keys`, { name: `k${i}` })));
  assert.deepEqual([...new Set(made.map((r) => r.status))], [201]);
  assertRefused(await server.admin('POST', `/orgs/${orgId}/keys`, { name: 'one more' }), 'API_KEYS_CONFLICT', `an organisation keeps at most ${API_KEYS_PER_ORG_MAX} API keys in use: revoke one first`);
  assert.equal((await server.admin('GET', `/orgs/${orgId}/keys`)).body.keys.length, API_KEYS_PER_ORG_MAX, 'the refused key is not stored');
  assert.equal((await server.admin('POST', `/keys/${made[0]!.body.id}/revoke`)).status, 200);
  assert.equal((await server.admin('POST', `/orgs/${orgId}/keys`, { name: 'in its place' })).status, 201);
});

test(`a site keeps at most ${SHARED_LINKS_PER_SITE_MAX} shared links; a revoked one frees its place`, async () => {
  const { siteId } = await createSite(server);
  const path = `/sites/${siteId}/shared-links`;
  const made = await Promise.all(Array.from({ length: SHARED_LINKS_PER_SITE_MAX }, () => server.admin('POST', path, {})));
  assert.deepEqual([...new Set(made.map((r) => r.status))], [201]);
  assertRefused(await server.admin('POST', path, {}), 'SHARED_LINKS_CONFLICT', `a site keeps at most ${SHARED_LINKS_PER_SITE_MAX} shared links: revoke one first`);
  assert.equal((await server.admin('GET', path)).body.sharedLinks.length, SHARED_LINKS_PER_SITE_MAX);
  assert.equal((await server.admin('DELETE', `${path}/${made[0]!.body.id}`)).status, 204);
  assert.equal((await server.admin('POST', path, {})).status, 201);
});

test(`a funnel keeps at most ${FUNNEL_VERSIONS_MAX} versions of its steps; the change past them leaves it as it was`, async () => {
  const { siteId } = await createSite(server);
  const steps = (n: number) => [{ kind: 'page', pattern: `/step-${n}` }, { kind: 'event', pattern: 'signup' }];
  const funnel = await server.admin('POST', `/sites/${siteId}/funnels`, { name: 'Onboarding', windowMinutes: 30, steps: steps(1) });
  assert.equal(funnel.status, 201);
  const path = `/sites/${siteId}/funnels/${funnel.body.id}`;
  for (let version = 2; version <= FUNNEL_VERSIONS_MAX; version++) assert.equal((await server.admin('PUT', `${path}/steps`, { steps: steps(version) })).status, 200);
  assertRefused(
    await server.admin('PUT', `${path}/steps`, { steps: steps(0) }),
    'FUNNEL_VERSIONS_CONFLICT',
    `a funnel keeps at most ${FUNNEL_VERSIONS_MAX} versions of its steps: make a new funnel`,
  );
  const history = (await server.admin('GET', path)).body;
  assert.deepEqual([history.version, history.versions.length, history.versions.at(-1).steps], [FUNNEL_VERSIONS_MAX, FUNNEL_VERSIONS_MAX, steps(FUNNEL_VERSIONS_MAX)]);
});
