// The MetaStore contract (with the AlertStore's delivery claims), written once and run against
// every adapter: SQLite (embedded) and PostgreSQL (SVC_DATABASE_URL), each on a fresh database per
// test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import {
  ALERT_RULES_PER_SITE_MAX,
  API_KEYS_PER_ORG_MAX,
  FUNNEL_VERSIONS_MAX,
  FUNNELS_PER_SITE_MAX,
  GOALS_PER_SITE_MAX,
  REPORT_WEBHOOKS_PER_SITE_MAX,
  SHARED_LINKS_PER_SITE_MAX,
  SITES_PER_ORG_MAX,
} from '../../src/core/vocabulary.js';
import { DuplicateDomain, DuplicateGoal, LimitReached, type MetaStore } from '../../src/storage/meta/types.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

const site = (domain: string) => ({ domain, name: domain, timezone: 'Europe/Paris', retentionMonths: null, rawDays: 30, honorGpc: true });

for (const adapter of META_DATABASES) {
  describe(`MetaStore contract: ${adapter.name}`, () => {
    /** `connections` sets of stores on one fresh database, each over a connection of its own (as processes have). */
    const withStores = (name: string, connections: number, body: (stores: MetaStores[]) => Promise<void>) =>
      test(name, async () => {
        const { location, dispose } = await adapter.create();
        const stores: MetaStores[] = [];
        try {
          for (let i = 0; i < connections; i++) stores.push(await openMetaStores(location));
          await body(stores);
        } finally {
          for (const { meta } of stores) await meta.close();
          await dispose();
        }
      });
    const withStore = (name: string, body: (store: MetaStore) => Promise<void>) => withStores(name, 1, ([stores]) => body(stores!.meta));

    withStore("orgs and sites; one active site per domain in an organisation, whatever other organisations' sites use", async (store) => {
      const org = await store.createOrg('Acme', 1);
      assert.deepEqual(await store.listOrgs(), [org]);
      const a = await store.createSite(org.id, site('a.example'), 'Apub', 2);
      assert.equal(a.status, 'active');
      assert.equal((await store.getSite('Apub'))?.domain, 'a.example');
      await assert.rejects(store.createSite(org.id, site('a.example'), 'Bpub', 3), DuplicateDomain);
      // Another organisation's active site on the domain: neither refused nor refusing.
      const other = await store.createOrg('Other', 3);
      assert.equal((await store.createSite(other.id, site('a.example'), 'Opub', 3)).domain, 'a.example');
      await assert.rejects(store.createSite(other.id, site('a.example'), 'O2pub', 3), DuplicateDomain);
      await store.updateSite('Apub', { status: 'archived' });
      const b = await store.createSite(org.id, site('a.example'), 'Bpub', 4);
      assert.equal(b.domain, 'a.example');
      await assert.rejects(store.updateSite('Apub', { status: 'active' }), DuplicateDomain);
      await store.updateSite('Bpub', { status: 'archived' });
      assert.equal((await store.updateSite('Apub', { status: 'active' }))?.status, 'active');
      await store.updateSite('Apub', { status: 'archived' });
      await store.updateSite('Bpub', { status: 'active' });
      assert.deepEqual((await store.listSites(org.id, { activeOnly: true })).map((s) => s.id), ['Bpub']);
      assert.deepEqual((await store.listSites(other.id, { activeOnly: true })).map((s) => s.id), ['Opub']);
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

    // Two connections of one process race on PostgreSQL; SQLite's second connection would wait on the
    // first's write lock synchronously, holding the event loop the first needs to commit (processes,
    // each with its own loop, wait for each other as busy_timeout says), so there one connection races.
    const racing = adapter.name === 'postgres' ? 2 : 1;

    withStores('one goal per site, kind and pattern, even when created at once (from two connections on PostgreSQL)', racing, async (stores) => {
      const [a, b = a] = stores;
      const org = await a!.meta.createOrg('Acme', 1);
      const s = await a!.meta.createSite(org.id, site('d.example'), 'Dpub', 1);
      const other = await a!.meta.createSite(org.id, site('e.example'), 'Epub', 1);
      const signup = { name: 'Signup', kind: 'event' as const, pattern: 'signup' };
      const created = await Promise.allSettled([a!.meta.createGoal(s.internalId, signup, 2), b!.meta.createGoal(s.internalId, { ...signup, name: 'Sign-up' }, 2)]);
      const kept = created.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.equal(kept.length, 1, 'one creation wins');
      const refused = created.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.ok(refused.reason instanceof DuplicateGoal && refused.reason.goalId === kept[0]!.goalId, String(refused.reason));
      // The same pattern of the other kind, or on another site, is another goal.
      await a!.meta.createGoal(s.internalId, { ...signup, kind: 'page', pattern: '/signup' }, 3);
      await a!.meta.createGoal(s.internalId, { ...signup, pattern: 'signup2' }, 3);
      await a!.meta.createGoal(other.internalId, signup, 3);
      await assert.rejects(a!.meta.createGoal(s.internalId, { name: 'Again', kind: 'page', pattern: '/signup' }, 4), DuplicateGoal);
      assert.equal((await a!.meta.listGoals(s.internalId)).length, 3);
    });

    withStore("a goal's required property values are part of it: the same values in any order are the same goal", async (store) => {
      const org = await store.createOrg('Acme', 1);
      const s = await store.createSite(org.id, site('h.example'), 'Hpub', 1);
      const plain = await store.createGoal(s.internalId, { name: 'Signup', kind: 'event', pattern: 'signup' }, 2);
      const pro = await store.createGoal(s.internalId, { name: 'Pro', kind: 'event', pattern: 'signup', props: { plan: 'pro', seats: '3' } }, 2);
      assert.deepEqual(pro.props, { plan: 'pro', seats: '3' });
      assert.equal(plain.props, null);
      await assert.rejects(store.createGoal(s.internalId, { name: 'Pro again', kind: 'event', pattern: 'signup', props: { seats: '3', plan: 'pro' } }, 3), (err) => err instanceof DuplicateGoal && err.goalId === pro.goalId);
      await assert.rejects(store.createGoal(s.internalId, { name: 'Plain again', kind: 'event', pattern: 'signup', props: null }, 3), (err) => err instanceof DuplicateGoal && err.goalId === plain.goalId);
      const free = await store.createGoal(s.internalId, { name: 'Free', kind: 'event', pattern: 'signup', props: { plan: 'free' } }, 3);
      assert.deepEqual(await store.listGoals(s.internalId), [plain, pro, free]);
    });

    withStores(`a site keeps at most ${GOALS_PER_SITE_MAX} goals, however many are created at once (from two connections on PostgreSQL); deleting one makes room`, racing, async (stores) => {
      const [a, b = a] = stores;
      const org = await a!.meta.createOrg('Acme', 1);
      const s = await a!.meta.createSite(org.id, site('g.example'), 'Gpub', 1);
      const other = await a!.meta.createSite(org.id, site('o.example'), 'Opub', 1);
      const goal = (i: number) => ({ name: `Goal ${i}`, kind: 'event' as const, pattern: `e${i}` });
      const created = await Promise.allSettled(Array.from({ length: GOALS_PER_SITE_MAX + 6 }, (_, i) => [a, b][i % 2]!.meta.createGoal(s.internalId, goal(i), 2)));
      assert.equal(created.filter((r) => r.status === 'fulfilled').length, GOALS_PER_SITE_MAX);
      for (const r of created) if (r.status === 'rejected') assert.ok(r.reason instanceof LimitReached && r.reason.kind === 'goals' && r.reason.max === GOALS_PER_SITE_MAX, String(r.reason));
      // A duplicate is still a duplicate at the bound, another site has its own bound, and a deletion frees one place.
      const kept = await a!.meta.listGoals(s.internalId);
      await assert.rejects(a!.meta.createGoal(s.internalId, { ...goal(0), pattern: kept[0]!.pattern }, 3), (err) => err instanceof LimitReached || err instanceof DuplicateGoal);
      await a!.meta.createGoal(other.internalId, goal(0), 3);
      assert.equal(await a!.meta.deleteGoal(s.internalId, kept[0]!.goalId), true);
      await b!.meta.createGoal(s.internalId, goal(1_000), 4);
      await assert.rejects(a!.meta.createGoal(s.internalId, goal(1_001), 4), LimitReached);
    });

    withStores(`an organisation keeps at most ${SITES_PER_ORG_MAX} active sites, however many are made at once (from two connections on PostgreSQL); archiving one makes room, taking it back from the archive needs one`, racing, async (stores) => {
      const [a, b = a] = stores;
      const org = await a!.meta.createOrg('Acme', 1);
      const other = await a!.meta.createOrg('Other', 1);
      const created = await Promise.allSettled(
        Array.from({ length: SITES_PER_ORG_MAX + 4 }, (_, i) => [a, b][i % 2]!.meta.createSite(org.id, site(`s${i}.example`), `Spub${i}`, 2)),
      );
      assert.equal(created.filter((r) => r.status === 'fulfilled').length, SITES_PER_ORG_MAX);
      for (const r of created) if (r.status === 'rejected') assert.ok(r.reason instanceof LimitReached && r.reason.kind === 'sites' && r.reason.max === SITES_PER_ORG_MAX, String(r.reason));
      assert.equal((await a!.meta.listSites(org.id)).length, SITES_PER_ORG_MAX);
      // Another organisation has its own bound; an archived site frees its place and cannot come back while it is taken.
      await a!.meta.createSite(other.id, site('s0.example'), 'Opub', 3);
      const [first] = await a!.meta.listSites(org.id);
      await a!.meta.updateSite(first!.id, { status: 'archived' });
      const replacement = await b!.meta.createSite(org.id, site('new.example'), 'Npub', 4);
      await assert.rejects(a!.meta.updateSite(first!.id, { status: 'active' }), (err) => err instanceof LimitReached && err.kind === 'sites');
      await a!.meta.updateSite(replacement.id, { status: 'archived' });
      assert.equal((await a!.meta.updateSite(first!.id, { status: 'active' }))?.status, 'active');
    });

    withStores(`a site keeps at most ${FUNNELS_PER_SITE_MAX} funnels and ${ALERT_RULES_PER_SITE_MAX} alert rules, however many are made at once (from two connections on PostgreSQL)`, racing, async (stores) => {
      const [a, b = a] = stores;
      const org = await a!.meta.createOrg('Acme', 1);
      const s = await a!.meta.createSite(org.id, site('fr.example'), 'FRpub', 1);
      const other = await a!.meta.createSite(org.id, site('o.example'), 'Opub', 1);
      const steps = [{ kind: 'page' as const, pattern: '/' }, { kind: 'event' as const, pattern: 'signup' }];
      const rule = (siteId: number) => ({ siteId, type: 'spike' as const, threshold: 5, goalId: null, url: 'https://fr.example/hook', secret: 'x', emails: [] });
      const made = await Promise.allSettled([
        ...Array.from({ length: FUNNELS_PER_SITE_MAX + 3 }, (_, i) => [a, b][i % 2]!.meta.createFunnel(s.internalId, { name: `F${i}`, windowMinutes: 60, steps }, 2)),
        ...Array.from({ length: ALERT_RULES_PER_SITE_MAX + 3 }, (_, i) => [a, b][i % 2]!.alerts.createRule(rule(s.internalId), 2)),
      ]);
      // allSettled keeps the calls' order: the funnels' refusals, then the rules'.
      const refused = made.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      assert.deepEqual(refused.map((err) => err instanceof LimitReached && `${err.kind} ${err.max}`), [
        ...Array(3).fill(`funnels ${FUNNELS_PER_SITE_MAX}`),
        ...Array(3).fill(`alertRules ${ALERT_RULES_PER_SITE_MAX}`),
      ]);
      assert.equal((await a!.meta.listFunnels(s.internalId)).length, FUNNELS_PER_SITE_MAX);
      assert.equal((await a!.alerts.listRules(s.internalId)).length, ALERT_RULES_PER_SITE_MAX);
      // Another site has its own bound.
      await a!.meta.createFunnel(other.internalId, { name: 'F', windowMinutes: 60, steps }, 3);
      await a!.alerts.createRule(rule(other.internalId), 3);
    });

    withStores(
      `a site keeps at most ${SHARED_LINKS_PER_SITE_MAX} shared links and ${REPORT_WEBHOOKS_PER_SITE_MAX} report webhooks, an organisation ${API_KEYS_PER_ORG_MAX} unrevoked API keys, however many are made at once (from two connections on PostgreSQL); revoking or deleting one makes room`,
      racing,
      async (stores) => {
        const [a, b = a] = stores;
        const org = await a!.meta.createOrg('Acme', 1);
        const otherOrg = await a!.meta.createOrg('Other', 1);
        const s = await a!.meta.createSite(org.id, site('l.example'), 'Lpub', 1);
        const other = await a!.meta.createSite(org.id, site('o.example'), 'Opub', 1);
        const link = (on: typeof s, i: number) => ({ siteId: on.internalId, sitePublicId: on.id, tokenHash: `t${on.id}${i}`, passwordHash: undefined, expiresAt: undefined, filters: [], embedDomains: [] });
        const hook = (siteId: number) => ({ siteId, url: 'https://l.example/hook', secret: 'x', weekly: true, monthly: false });
        const made = await Promise.allSettled([
          ...Array.from({ length: SHARED_LINKS_PER_SITE_MAX + 3 }, (_, i) => [a, b][i % 2]!.accounts.createSharedLink(link(s, i), 2)),
          ...Array.from({ length: REPORT_WEBHOOKS_PER_SITE_MAX + 3 }, (_, i) => [a, b][i % 2]!.digests.createWebhook(hook(s.internalId), 2)),
          ...Array.from({ length: API_KEYS_PER_ORG_MAX + 3 }, (_, i) => [a, b][i % 2]!.meta.createApiKey(org.id, `k${i}`, `f${i}`, 2)),
        ]);
        // allSettled keeps the calls' order: the links' refusals, the webhooks', then the keys'.
        const refused = made.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        assert.deepEqual(refused.map((err) => (err instanceof LimitReached ? `${err.kind} ${err.max}` : String(err))), [
          ...Array(3).fill(`sharedLinks ${SHARED_LINKS_PER_SITE_MAX}`),
          ...Array(3).fill(`reportWebhooks ${REPORT_WEBHOOKS_PER_SITE_MAX}`),
          ...Array(3).fill(`apiKeys ${API_KEYS_PER_ORG_MAX}`),
        ]);
        const links = await a!.accounts.sharedLinks(s.internalId);
        const hooks = await a!.digests.webhooks(s.internalId);
        const keys = await a!.meta.listApiKeys(org.id);
        assert.deepEqual([links.length, hooks.length, keys.length], [SHARED_LINKS_PER_SITE_MAX, REPORT_WEBHOOKS_PER_SITE_MAX, API_KEYS_PER_ORG_MAX]);
        // Another site or organisation has its own bound.
        await a!.accounts.createSharedLink(link(other, 0), 3);
        await a!.digests.createWebhook(hook(other.internalId), 3);
        await a!.meta.createApiKey(otherOrg.id, 'k', 'other', 3);
        // A revoked link or key, a deleted webhook, frees its place; a revoked key still listed does not count.
        assert.equal(await a!.accounts.revokeSharedLink(s.internalId, links[0]!.id), true);
        await b!.accounts.createSharedLink(link(s, 1_000), 4);
        await assert.rejects(a!.accounts.createSharedLink(link(s, 1_001), 4), LimitReached);
        assert.ok(await a!.digests.deleteWebhook(s.internalId, hooks[0]!.id));
        await b!.digests.createWebhook(hook(s.internalId), 4);
        await assert.rejects(a!.digests.createWebhook(hook(s.internalId), 4), LimitReached);
        await a!.meta.revokeApiKey(keys[0]!.id, 4);
        await b!.meta.createApiKey(org.id, 'again', 'again', 4);
        await assert.rejects(a!.meta.createApiKey(org.id, 'more', 'more', 4), LimitReached);
        assert.equal((await a!.meta.listApiKeys(org.id)).length, API_KEYS_PER_ORG_MAX + 1);
      },
    );

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
    });

    withStores(`a funnel keeps at most ${FUNNEL_VERSIONS_MAX} versions of its steps, however many changes come at once (from two connections on PostgreSQL)`, racing, async (stores) => {
      const [a, b = a] = stores;
      const org = await a!.meta.createOrg('Acme', 1);
      const s = await a!.meta.createSite(org.id, site('fv.example'), 'FVpub', 1);
      const steps = (i: number) => [{ kind: 'page' as const, pattern: `/${i}` }, { kind: 'event' as const, pattern: 'signup' }];
      const funnel = await a!.meta.createFunnel(s.internalId, { name: 'F', windowMinutes: 60, steps: steps(0) }, 2);
      const other = await a!.meta.createFunnel(s.internalId, { name: 'G', windowMinutes: 60, steps: steps(0) }, 2);
      const changed = await Promise.allSettled(Array.from({ length: FUNNEL_VERSIONS_MAX + 2 }, (_, i) => [a, b][i % 2]!.meta.replaceFunnelSteps(s.internalId, funnel.id, steps(i + 1), 3)));
      const refused = changed.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      assert.deepEqual(refused.map((err) => (err instanceof LimitReached ? `${err.kind} ${err.max}` : String(err))), Array(3).fill(`funnelVersions ${FUNNEL_VERSIONS_MAX}`));
      const history = await a!.meta.funnelHistory(s.internalId, funnel.id);
      assert.equal(history?.versions.length, FUNNEL_VERSIONS_MAX);
      assert.equal((await a!.meta.getFunnel(s.internalId, funnel.id))?.version, FUNNEL_VERSIONS_MAX, 'a refused change leaves the version as it was');
      // Another funnel has its own bound.
      assert.equal((await a!.meta.replaceFunnelSteps(s.internalId, other.id, steps(1), 4))?.version, 2);
    });

    withStore('funnels read back with every version, and delete with them', async (store) => {
      const org = await store.createOrg('Acme', 1);
      const s = await store.createSite(org.id, site('fd.example'), 'FDpub', 1);
      const other = await store.createSite(org.id, site('fd-other.example'), 'FDother', 1);
      const v1 = [{ kind: 'page' as const, pattern: '/' }, { kind: 'event' as const, pattern: 'signup' }];
      const v2 = [{ kind: 'page' as const, pattern: '/**' }, { kind: 'page' as const, pattern: '/welcome' }];
      const funnel = await store.createFunnel(s.internalId, { name: 'Onboarding', windowMinutes: 60, steps: v1 }, 5);
      const kept = await store.createFunnel(s.internalId, { name: 'Kept', windowMinutes: 5, steps: v2 }, 6);
      await store.replaceFunnelSteps(s.internalId, funnel.id, v2, 7);
      assert.deepEqual(await store.funnelHistory(s.internalId, funnel.id), {
        id: funnel.id,
        name: 'Onboarding',
        windowMinutes: 60,
        version: 2,
        createdAt: 5,
        versions: [
          { version: 1, createdAt: 5, steps: v1 },
          { version: 2, createdAt: 7, steps: v2 },
        ],
      });
      assert.equal(await store.funnelHistory(other.internalId, funnel.id), undefined, 'funnels belong to their site');
      assert.equal(await store.deleteFunnel(other.internalId, funnel.id), false, 'not through another site');
      assert.equal(await store.deleteFunnel(s.internalId, funnel.id), true);
      assert.equal(await store.deleteFunnel(s.internalId, funnel.id), false, 'gone');
      assert.equal(await store.funnelHistory(s.internalId, funnel.id), undefined);
      assert.equal(await store.getFunnel(s.internalId, funnel.id, 1), undefined, 'no version stays readable');
      assert.deepEqual((await store.listFunnels(s.internalId)).map((f) => f.id), [kept.id]);
      assert.equal(await store.deleteFunnel(s.internalId, kept.id), true);
      const next = await store.createFunnel(s.internalId, { name: 'Next', windowMinutes: 5, steps: v1 }, 8);
      assert.ok(next.id > kept.id, 'a deleted funnel id is never given again (its old rollup rows stay its own)');
    });

    withStore('rollup bookkeeping: a state per event store and site, pending days once each, ascending', async (store) => {
      const A = { storeId: 'store-1', siteId: 'A' };
      const B = { storeId: 'store-1', siteId: 'B' };
      const elsewhere = { storeId: 'store-2', siteId: 'A' };
      assert.equal(await store.getRollupState(A), undefined);
      const long = JSON.stringify({ goals: Array.from({ length: 500 }, (_, i) => ({ goalId: i, kind: 'page', pattern: `/p/${i}/**` })), funnels: [] });
      await store.setRollupState(A, { watermark: null, definitions: '{}' });
      await store.setRollupState(A, { watermark: '2026-03-19', definitions: long });
      await store.setRollupState(B, { watermark: '2026-01-01', definitions: '{}' });
      assert.deepEqual(await store.getRollupState(A), { watermark: '2026-03-19', definitions: long });
      assert.deepEqual(await store.getRollupState(B), { watermark: '2026-01-01', definitions: '{}' });
      await store.addRollupPending(A, ['2026-03-03', '2026-03-01', '2026-03-03']);
      await store.addRollupPending(A, ['2026-03-01', '2026-02-28']);
      await store.addRollupPending(A, []);
      await store.addRollupPending(B, ['2026-03-02']);
      assert.deepEqual(await store.listRollupPending(A), ['2026-02-28', '2026-03-01', '2026-03-03']);
      await store.clearRollupPending(A, '2026-03-01');
      await store.clearRollupPending(A, '2026-03-09');
      assert.deepEqual(await store.listRollupPending(A), ['2026-02-28', '2026-03-03']);
      assert.deepEqual(await store.listRollupPending(B), ['2026-03-02']);
      assert.equal(await store.getRollupState(elsewhere), undefined, 'the same site in another event store has its own');
      assert.deepEqual(await store.listRollupPending(elsewhere), []);
    });

    withStores("a user's language: none until chosen, kept, cleared, and only for a user that exists", 1, async ([stores]) => {
      const { accounts } = stores!;
      const user = await accounts.createUser({ email: 'lena@example.com', name: 'Lena', passwordHash: 'h' }, 1);
      assert.equal(await accounts.languageOf(user.id), null);
      assert.equal(await accounts.setLanguage(user.id, 'de'), true);
      assert.equal(await accounts.languageOf(user.id), 'de');
      assert.equal(await accounts.setLanguage(user.id, 'fr'), true);
      assert.equal(await accounts.languageOf(user.id), 'fr');
      assert.equal(await accounts.setLanguage(user.id, null), true);
      assert.equal(await accounts.languageOf(user.id), null);
      assert.equal(await accounts.setLanguage(user.id + 1, 'es'), false, 'no such user');
      assert.equal(await accounts.languageOf(user.id + 1), null);
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

    withStores('delivery claims: of two connections claiming at once, each delivery goes to one; only its holder records', 2, async ([a, b]) => {
      const org = await a!.meta.createOrg('Acme', 1);
      const s = await a!.meta.createSite(org.id, site('d.example'), 'Dpub', 1);
      const rule = await a!.alerts.createRule({ siteId: s.internalId, type: 'spike', threshold: 5, goalId: null, url: 'https://d.example/hook', secret: 'x', emails: [] }, 1);
      const ids = Array.from({ length: 40 }, (_, i) => `d${i}`);
      await a!.alerts.recordEvaluation([], ids.map((id) => ({ id, ruleId: rule.id, test: false, body: '{}' })), 10);
      const seqs = (await a!.alerts.dueCandidates(10, 100)).map((c) => c.seq);
      assert.equal(seqs.length, 40);
      const rounds = await Promise.all([0, 1, 2, 3].map((i) => [a!, b!][i % 2]!.alerts.claim(seqs, `sender${i}`, 10, 1_000)));
      const claimed = rounds.flat().map((d) => d.id).sort();
      assert.deepEqual(claimed, [...ids].sort(), 'every delivery claimed exactly once');
      assert.deepEqual(await b!.alerts.dueCandidates(999, 100), [], 'claimed: not due to anyone else until the claim expires');

      const first = rounds.findIndex((round) => round.length > 0);
      const [owner, other, mine] = [`sender${first}`, `sender${(first + 1) % 4}`, rounds[first]![0]!];
      assert.equal(await b!.alerts.renewClaims([mine.seq], other, 2_000), 0, 'only the holder renews');
      assert.equal(await b!.alerts.renewClaims([mine.seq], owner, 2_000), 1);
      assert.equal((await a!.alerts.claim([mine.seq], 'late', 1_999, 3_000)).length, 0, 'renewed until 2000');
      const taken = await a!.alerts.claim([mine.seq], 'late', 2_000, 3_000);
      assert.equal(taken.length, 1, 'expired at 2000: claimed again');
      assert.equal(await a!.alerts.recordAttempt(mine.seq, owner, 1, 2_500, 'succeeded', { next: 'done' }), false, 'the first holder lost it');
      assert.equal(await a!.alerts.recordAttempt(mine.seq, 'late', 1, 2_500, 'succeeded', { next: 'done' }), true);
      const history = (await b!.alerts.history(rule.id)).find((d) => d.id === mine.id);
      assert.deepEqual(history?.attempts, [{ at: 2_500, status: 'succeeded' }]);
    });

    withStore('leases: of simultaneous acquirers exactly one wins', async (store) => {
      const holders = Array.from({ length: 8 }, (_, i) => `h${i}`);
      const won = await Promise.all(holders.map((h) => store.acquireLease('race', h, 1_000, 2_000)));
      assert.equal(won.filter(Boolean).length, 1);
    });
  });
}
