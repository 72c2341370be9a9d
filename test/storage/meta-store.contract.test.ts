// The MetaStore contract, written once and run against every adapter: SQLite (embedded) and
// PostgreSQL (SVC_DATABASE_URL), each on a fresh database per test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateDomain, type MetaStore } from '../../src/storage/meta/types.js';
import { META_ADAPTERS } from '../helpers/meta-adapters.js';

const site = (domain: string) => ({ domain, name: domain, timezone: 'Europe/Paris', retentionMonths: null, honorGpc: true });

for (const adapter of META_ADAPTERS) {
  describe(`MetaStore contract: ${adapter.name}`, () => {
    const withStore = (name: string, body: (store: MetaStore) => Promise<void>) =>
      test(name, async () => {
        const { stores, dispose } = await adapter.open();
        const store = stores.meta;
        try {
          await body(store);
        } finally {
          await store.close();
          await dispose();
        }
      });

    withStore('orgs and sites; one active site per domain', async (store) => {
      const org = await store.createOrg('Acme', 1);
      assert.deepEqual(await store.listOrgs(), [org]);
      const a = await store.createSite(org.id, site('a.example'), 'Apub', 2);
      assert.equal(a.status, 'active');
      assert.equal((await store.getSite('Apub'))?.domain, 'a.example');
      await assert.rejects(store.createSite(org.id, site('a.example'), 'Bpub', 3), DuplicateDomain);
      await store.updateSite('Apub', { status: 'archived' });
      const b = await store.createSite(org.id, site('a.example'), 'Bpub', 4);
      assert.equal(b.domain, 'a.example');
      await assert.rejects(store.updateSite('Apub', { status: 'active' }), DuplicateDomain);
      assert.deepEqual((await store.listSites(org.id, { activeOnly: true })).map((s) => s.id), ['Bpub']);
      assert.equal((await store.listSites(org.id)).length, 2);
      const patched = await store.updateSite('Bpub', { name: 'B', timezone: 'Asia/Kolkata', retentionMonths: 12, honorGpc: false });
      assert.deepEqual([patched?.name, patched?.timezone, patched?.retentionMonths, patched?.honorGpc], ['B', 'Asia/Kolkata', 12, false]);
      assert.equal(await store.updateSite('nope', { name: 'x' }), undefined);
    });

    withStore('api keys: by fingerprint; revocation is permanent and keeps its first instant', async (store) => {
      const org = await store.createOrg('Acme', 1);
      const key = await store.createApiKey(org.id, 'ci', 'f'.repeat(64), 10);
      assert.equal((await store.findApiKeyByFingerprint('f'.repeat(64)))?.id, key.id);
      assert.equal(await store.findApiKeyByFingerprint('0'.repeat(64)), undefined);
      assert.equal((await store.revokeApiKey(key.id, 20))?.revokedAt, 20);
      assert.equal((await store.revokeApiKey(key.id, 30))?.revokedAt, 20);
      assert.equal((await store.listApiKeys(org.id))[0]?.revokedAt, 20);
    });

    withStore('relay keys', async (store) => {
      await store.createRelayKey('edge', 'a'.repeat(64), 1);
      assert.equal(await store.relayKeyExists('a'.repeat(64)), true);
      assert.equal(await store.relayKeyExists('b'.repeat(64)), false);
    });

    withStore('goals', async (store) => {
      const org = await store.createOrg('Acme', 1);
      const s = await store.createSite(org.id, site('g.example'), 'Gpub', 1);
      const goal = await store.createGoal(s.internalId, { name: 'Signup', kind: 'event', pattern: 'signup' }, 2);
      assert.deepEqual(await store.listGoals(s.internalId), [goal]);
      assert.equal(await store.deleteGoal(s.internalId, goal.goalId), true);
      assert.equal(await store.deleteGoal(s.internalId, goal.goalId), false);
    });

    withStore('funnels keep every version of their steps', async (store) => {
      const org = await store.createOrg('Acme', 1);
      const s = await store.createSite(org.id, site('f.example'), 'Fpub', 1);
      const v1 = [{ kind: 'page' as const, pattern: '/' }, { kind: 'event' as const, pattern: 'signup' }];
      const v2 = [...v1, { kind: 'page' as const, pattern: '/welcome' }];
      const funnel = await store.createFunnel(s.internalId, { name: 'Onboarding', windowMinutes: 60, steps: v1 }, 5);
      assert.deepEqual(funnel, { id: funnel.id, name: 'Onboarding', stepCount: 2, windowMinutes: 60, version: 1, createdAt: 5 });
      const updated = await store.replaceFunnelSteps(s.internalId, funnel.id, v2, 6);
      assert.equal(updated?.version, 2);
      assert.equal(updated?.stepCount, 3);
      assert.deepEqual((await store.getFunnel(s.internalId, funnel.id, 1))?.steps, v1);
      assert.deepEqual((await store.getFunnel(s.internalId, funnel.id))?.steps, v2);
      assert.equal((await store.getFunnel(s.internalId, funnel.id, 99))?.version, 2, 'out of range selects the current version');
      assert.equal(await store.replaceFunnelSteps(s.internalId, 999, v2, 7), undefined);
      const other = await store.createSite(org.id, site('other.example'), 'Opub', 1);
      assert.equal(await store.getFunnel(other.internalId, funnel.id), undefined, 'funnels belong to their site');
      assert.equal(await store.deleteFunnel(other.internalId, funnel.id), false, 'nor can another site delete them');
      assert.equal(await store.deleteFunnel(s.internalId, funnel.id), true);
      assert.equal(await store.getFunnel(s.internalId, funnel.id), undefined);
      assert.deepEqual(await store.listFunnels(s.internalId), []);
      assert.equal(await store.deleteFunnel(s.internalId, funnel.id), false);
    });

    withStore('salts: one per date, stable, deletable', async (store) => {
      const [a, b] = await Promise.all([store.saltFor('2026-01-01'), store.saltFor('2026-01-01')]);
      assert.equal(a.length, 16);
      assert.deepEqual(a, b, 'concurrent first uses agree on one salt');
      assert.notDeepEqual(await store.saltFor('2026-01-02'), a);
      assert.equal(await store.deleteSaltsBefore('2026-01-02'), 1);
      assert.notDeepEqual(await store.saltFor('2026-01-01'), a, 'a deleted salt is never seen again');
    });

    withStore('leases: one holder at a time until released or expired', async (store) => {
      assert.equal(await store.acquireLease('rollup:s1', 'a', 100, 200), true);
      assert.equal(await store.acquireLease('rollup:s1', 'b', 150, 250), false, 'held by a until 200');
      assert.equal(await store.acquireLease('rollup:s2', 'b', 150, 250), true, 'names are independent');
      assert.equal(await store.acquireLease('rollup:s1', 'a', 150, 300), true, 'the holder takes it again');
      assert.equal(await store.renewLease('rollup:s1', 'a', 400), true);
      assert.equal(await store.acquireLease('rollup:s1', 'b', 399, 500), false, 'renewed until 400');
      assert.equal(await store.acquireLease('rollup:s1', 'b', 400, 500), true, 'expired at 400: taken over');
      assert.equal(await store.renewLease('rollup:s1', 'a', 600), false, 'a lost it');
      await store.releaseLease('rollup:s1', 'a');
      assert.equal(await store.acquireLease('rollup:s1', 'c', 401, 500), false, "a's release leaves b's lease");
      await store.releaseLease('rollup:s1', 'b');
      assert.equal(await store.acquireLease('rollup:s1', 'c', 401, 500), true, 'released: free at once');
    });

    withStore('leases: of simultaneous acquirers exactly one wins', async (store) => {
      const holders = Array.from({ length: 8 }, (_, i) => `h${i}`);
      const won = await Promise.all(holders.map((h) => store.acquireLease('race', h, 1_000, 2_000)));
      assert.equal(won.filter(Boolean).length, 1);
    });
  });
}
