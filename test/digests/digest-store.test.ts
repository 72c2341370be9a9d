// The digest sends on both MetaStore engines: a period planned by several workers at once has one row
// per member, and workers claiming at once never share a send.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

for (const adapter of META_DATABASES) {
  describe(`digest sends: ${adapter.name}`, () => {
    test('planned once however many plan at once; each claimed by one worker; sent once', async () => {
      const { location, dispose } = await adapter.create();
      // One at a time: the first opening migrates the database.
      const workers: MetaStores[] = [];
      for (let i = 0; i < 3; i++) workers.push(await openMetaStores(location));
      try {
        const [first] = workers;
        const org = await first!.meta.createOrg('Org', 1);
        const site = await first!.meta.createSite(org.id, { domain: 'digest.example', name: 'Digest', timezone: 'UTC', retentionMonths: null, honorGpc: true, rawDays: 30 }, 'digestSite01', 1);
        const sends = Array.from({ length: 30 }, (_, i) => ({ userId: i + 1, webhookId: 0, siteId: site.internalId, kind: 'weekly' as const, periodFrom: '2026-03-16', periodTo: '2026-03-22' }));
        const planned = await Promise.all(workers.map((w) => w.digests.planSends(sends, 10)));
        assert.equal(planned.reduce((a, b) => a + b, 0), 30, `planned: ${planned}`);
        const claimed = await Promise.all(workers.map((w, i) => w.digests.claimDue(`worker ${i}`, 20, 1_000, 30)));
        const all = claimed.flat().map((s) => s.userId).sort((a, b) => a - b);
        assert.deepEqual(all, sends.map((s) => s.userId), 'every send claimed, by one worker each');
        assert.equal(claimed.every((c) => c.every((s) => s.sitePublicId === site.id)), true);
        const marked = await Promise.all(claimed.flatMap((c, i) => c.map((s) => workers[(i + 1) % 3]!.digests.markSent(s, `worker ${i}`, 30))));
        assert.equal(marked.every(Boolean), true);
        assert.equal(await first!.digests.markSent(sends[0]!, 'worker 0', 40), false, 'a send is marked once');
        assert.deepEqual(await Promise.all(workers.map((w) => w.digests.claimDue('late', 2_000, 3_000, 30))), [[], [], []]);
        assert.equal((await first!.digests.siteStatus(site.internalId)).lastSentAt, 30);

        // Subscribers are members of the site's organisation; webhooks make a site planned too.
        const ana = await first!.accounts.createUser({ email: 'ana@example.com', name: 'Ana', passwordHash: 'x' }, 1);
        const bob = await first!.accounts.createUser({ email: 'bob@example.com', name: 'Bob', passwordHash: 'x' }, 1);
        await first!.accounts.setMembership(org.id, ana.id, 'viewer', 1);
        await first!.digests.setSubscription(ana.id, site.internalId, { weekly: true, monthly: false });
        await first!.digests.setSubscription(bob.id, site.internalId, { weekly: true, monthly: true });
        assert.deepEqual(await first!.digests.subscribers(site.internalId, org.id, 'weekly'), [ana.id]);
        assert.deepEqual(await first!.digests.subscribers(site.internalId, org.id, 'monthly'), []);
        assert.deepEqual(await first!.digests.subscribedSites(), [site.id]);
        await first!.digests.setSubscription(ana.id, site.internalId, { weekly: false, monthly: false });
        await first!.digests.setSubscription(bob.id, site.internalId, { weekly: false, monthly: false });
        assert.deepEqual(await first!.digests.subscribedSites(), []);
        const hook = await first!.digests.createWebhook({ siteId: site.internalId, url: 'https://hooks.example/x', secret: 's', weekly: false, monthly: true }, 5);
        assert.deepEqual(await first!.digests.subscribedSites(), [site.id]);
        assert.deepEqual(await first!.digests.webhook(hook.id), hook);
        assert.equal(await first!.digests.deleteWebhook(site.internalId, hook.id), true);
        assert.deepEqual(await first!.digests.webhooks(site.internalId), []);
        await first!.accounts.deleteUser(ana.id);
      } finally {
        for (const w of workers) await w.meta.close();
        await dispose();
      }
    });
  });
}
