// The MetaStore's segments and annotations, run against every adapter (SQLite and PostgreSQL), each
// on a fresh database per test: records by site, the per-site bound under concurrent creation, and
// what a deleted user leaves behind.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import { LimitReached } from '../../src/storage/meta/types.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

const site = (domain: string) => ({ domain, name: domain, timezone: 'Europe/Paris', retentionMonths: null, rawDays: 30, honorGpc: true });

for (const adapter of META_DATABASES) {
  describe(`segments and annotations: ${adapter.name}`, () => {
    const withStore = (name: string, body: (stores: MetaStores) => Promise<void>) =>
      test(name, async () => {
        const { location, dispose } = await adapter.create();
        const stores = await openMetaStores(location);
        try {
          await body(stores);
        } finally {
          await stores.meta.close();
          await dispose();
        }
      });

    withStore('segments: created, listed by id per site, read, changed field by field and deleted', async ({ meta }) => {
      const org = await meta.createOrg('Acme', 1);
      const a = await meta.createSite(org.id, site('a.example'), 'Apub', 1);
      const b = await meta.createSite(org.id, site('b.example'), 'Bpub', 1);
      const shared = await meta.createSegment(a.internalId, { name: 'Germans', filters: ['country:DE', 'page~:blog'], shared: true, ownerUserId: null }, 10, 100);
      assert.deepEqual(shared, { id: shared.id, siteId: a.internalId, name: 'Germans', filters: ['country:DE', 'page~:blog'], shared: true, ownerUserId: null, createdAt: 10 });
      const mine = await meta.createSegment(a.internalId, { name: 'Mine', filters: ['referrer!:(none)'], shared: false, ownerUserId: 7 }, 11, 100);
      await meta.createSegment(b.internalId, { name: 'Other site', filters: ['os:Linux'], shared: true, ownerUserId: 7 }, 12, 100);
      assert.deepEqual((await meta.listSegments(a.internalId)).map((s) => s.name), ['Germans', 'Mine']);
      assert.deepEqual(await meta.getSegment(a.internalId, mine.id), mine);
      assert.equal(await meta.getSegment(b.internalId, mine.id), undefined, "another site's id is none of this site's");
      assert.deepEqual(await meta.updateSegment(a.internalId, mine.id, {}), mine);
      const renamed = await meta.updateSegment(a.internalId, mine.id, { name: 'Renamed' });
      assert.deepEqual(renamed, { ...mine, name: 'Renamed' });
      const sharedNow = await meta.updateSegment(a.internalId, mine.id, { filters: ['browser:Firefox'], shared: true, ownerUserId: 8 });
      assert.deepEqual(sharedNow, { ...mine, name: 'Renamed', filters: ['browser:Firefox'], shared: true, ownerUserId: 8 });
      assert.equal(await meta.updateSegment(b.internalId, mine.id, { name: 'x' }), undefined);
      assert.equal(await meta.deleteSegment(b.internalId, mine.id), false);
      assert.equal(await meta.deleteSegment(a.internalId, mine.id), true);
      assert.equal(await meta.deleteSegment(a.internalId, mine.id), false);
      assert.deepEqual((await meta.listSegments(a.internalId)).map((s) => s.id), [shared.id]);
    });

    withStore('annotations: by day then id, within days when asked, changed and deleted', async ({ meta }) => {
      const org = await meta.createOrg('Acme', 1);
      const a = await meta.createSite(org.id, site('a.example'), 'Apub', 1);
      const b = await meta.createSite(org.id, site('b.example'), 'Bpub', 1);
      const late = await meta.createAnnotation(a.internalId, { date: '2026-03-02', text: 'Launch' }, 5, 1000);
      const early = await meta.createAnnotation(a.internalId, { date: '2026-03-01', text: 'Newsletter' }, 6, 1000);
      const sameDay = await meta.createAnnotation(a.internalId, { date: '2026-03-02', text: 'Outage' }, 7, 1000);
      await meta.createAnnotation(b.internalId, { date: '2026-03-01', text: 'Elsewhere' }, 8, 1000);
      assert.deepEqual(late, { id: late.id, date: '2026-03-02', text: 'Launch', createdAt: 5 });
      assert.deepEqual(await meta.listAnnotations(a.internalId), [early, late, sameDay]);
      assert.deepEqual(await meta.listAnnotations(a.internalId, { from: '2026-03-02', to: '2026-03-31' }), [late, sameDay]);
      assert.deepEqual(await meta.listAnnotations(a.internalId, { from: '2026-02-01', to: '2026-03-01' }), [early]);
      assert.deepEqual(await meta.updateAnnotation(a.internalId, late.id, { date: '2026-02-28' }), { ...late, date: '2026-02-28' });
      assert.deepEqual(await meta.updateAnnotation(a.internalId, late.id, { text: 'Launched' }), { ...late, date: '2026-02-28', text: 'Launched' });
      assert.deepEqual(await meta.updateAnnotation(a.internalId, late.id, {}), { ...late, date: '2026-02-28', text: 'Launched' });
      assert.equal(await meta.updateAnnotation(b.internalId, late.id, { text: 'x' }), undefined);
      assert.equal(await meta.deleteAnnotation(b.internalId, late.id), false);
      assert.equal(await meta.deleteAnnotation(a.internalId, late.id), true);
      assert.deepEqual(await meta.listAnnotations(a.internalId), [early, sameDay]);
    });

    withStore('a site holds at most `max` of each kind, even when creations race (a pool of connections on PostgreSQL)', async ({ meta }) => {
      const org = await meta.createOrg('Acme', 1);
      const a = await meta.createSite(org.id, site('a.example'), 'Apub', 1);
      const b = await meta.createSite(org.id, site('b.example'), 'Bpub', 1);
      const max = 5;
      const segments = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => meta.createSegment(a.internalId, { name: `s${i}`, filters: ['page:/'], shared: true, ownerUserId: null }, i, max)),
      );
      const annotations = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => meta.createAnnotation(a.internalId, { date: '2026-01-01', text: `a${i}` }, i, max)));
      for (const results of [segments, annotations]) {
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, max);
        for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof LimitReached && r.reason.max === max, String(r.reason));
      }
      assert.equal((await meta.listSegments(a.internalId)).length, max);
      assert.equal((await meta.listAnnotations(a.internalId)).length, max);
      // The bound is per site.
      await meta.createSegment(b.internalId, { name: 'b', filters: ['page:/'], shared: true, ownerUserId: null }, 1, max);
      await meta.createAnnotation(b.internalId, { date: '2026-01-01', text: 'b' }, 1, max);
      // Deleting one makes room for one.
      await meta.deleteAnnotation(a.internalId, (await meta.listAnnotations(a.internalId))[0]!.id);
      await meta.createAnnotation(a.internalId, { date: '2026-01-02', text: 'again' }, 99, max);
      await assert.rejects(meta.createAnnotation(a.internalId, { date: '2026-01-02', text: 'more' }, 99, max), LimitReached);
    });

    withStore("a deleted user's personal segments go; the shared ones it made stay, without an owner", async ({ meta, accounts }) => {
      const org = await meta.createOrg('Acme', 1);
      const a = await meta.createSite(org.id, site('a.example'), 'Apub', 1);
      const user = await accounts.createUser({ email: 'ana@example.com', name: 'Ana', passwordHash: 'x' }, 1);
      const other = await accounts.createUser({ email: 'bo@example.com', name: 'Bo', passwordHash: 'x' }, 1);
      await meta.createSegment(a.internalId, { name: 'personal', filters: ['page:/'], shared: false, ownerUserId: user.id }, 1, 100);
      const shared = await meta.createSegment(a.internalId, { name: 'shared', filters: ['page:/'], shared: true, ownerUserId: user.id }, 2, 100);
      const others = await meta.createSegment(a.internalId, { name: 'theirs', filters: ['page:/'], shared: false, ownerUserId: other.id }, 3, 100);
      assert.equal(await accounts.deleteUser(user.id), true);
      assert.deepEqual(await meta.listSegments(a.internalId), [{ ...shared, ownerUserId: null }, others]);
    });
  });
}
