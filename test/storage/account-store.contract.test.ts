// The account store's contract on every MetaStore adapter: users (email unique in any letter case),
// memberships, sessions, failed sign-ins and locks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateEmail, type KyselyAccountStore } from '../../src/storage/meta/account-store.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

for (const adapter of META_DATABASES) {
  describe(`account store contract: ${adapter.name}`, () => {
    const withStores = (name: string, body: (accounts: KyselyAccountStore, meta: MetaStore) => Promise<void>) =>
      test(name, async () => {
        const { location, dispose } = await adapter.create();
        const stores = await openMetaStores(location);
        try {
          await body(stores.accounts, stores.meta);
        } finally {
          await stores.meta.close();
          await dispose();
        }
      });

    withStores('users: unique email in any letter case, deletion takes memberships and sessions', async (accounts, meta) => {
      assert.equal(await accounts.hasUsers(), false);
      const ana = await accounts.createUser({ email: 'Ana@Example.com', name: 'Ana', passwordHash: 'h1' }, 10);
      assert.deepEqual(ana, { id: ana.id, email: 'Ana@Example.com', name: 'Ana', createdAt: 10 });
      await assert.rejects(accounts.createUser({ email: 'ana@example.COM', name: 'Other', passwordHash: 'h2' }, 11), DuplicateEmail);
      assert.equal((await accounts.findUserByEmail(' ANA@example.com '))?.passwordHash, 'h1');
      assert.equal(await accounts.hasUsers(), true);

      const org = await meta.createOrg('Acme', 1);
      await accounts.setMembership(org.id, ana.id, 'viewer', 12);
      await accounts.setMembership(org.id, ana.id, 'owner', 13);
      assert.equal(await accounts.roleIn(org.id, ana.id), 'owner');
      assert.deepEqual(await accounts.membershipsOf(ana.id), [{ orgId: org.id, orgName: 'Acme', role: 'owner' }]);
      assert.deepEqual(await accounts.members(org.id), [{ userId: ana.id, email: 'Ana@Example.com', name: 'Ana', role: 'owner' }]);
      await accounts.createSession({ id: 's1', userId: ana.id, csrfToken: 'c1' }, 14);
      assert.deepEqual(await accounts.getSession('s1'), { id: 's1', userId: ana.id, csrfToken: 'c1', createdAt: 14, lastUsedAt: 14 });

      assert.equal(await accounts.setPasswordHash(ana.id, 'h3'), true);
      assert.equal(await accounts.getSession('s1'), undefined, 'a password change ends the sessions');
      await accounts.createSession({ id: 's2', userId: ana.id, csrfToken: 'c2' }, 15);
      assert.equal(await accounts.deleteUser(ana.id), true);
      assert.equal(await accounts.getSession('s2'), undefined);
      assert.deepEqual(await accounts.members(org.id), []);
      assert.equal(await accounts.deleteUser(ana.id), false);
    });

    withStores('sessions: touched, pruned when idle or too old, deleted', async (accounts) => {
      const user = await accounts.createUser({ email: 'b@example.com', name: 'B', passwordHash: 'h' }, 1);
      await accounts.createSession({ id: 'old', userId: user.id, csrfToken: 'c' }, 100);
      await accounts.createSession({ id: 'new', userId: user.id, csrfToken: 'c' }, 100);
      await accounts.createSession({ id: 'first', userId: user.id, csrfToken: 'c' }, 10);
      await accounts.touchSession('new', 500);
      await accounts.touchSession('first', 500);
      assert.deepEqual(await accounts.getSession('new'), { id: 'new', userId: user.id, csrfToken: 'c', createdAt: 100, lastUsedAt: 500 });
      assert.equal(await accounts.deleteExpiredSessions({ lastUsedBefore: 200, createdBefore: 50 }), 2);
      assert.equal(await accounts.getSession('old'), undefined, 'idle');
      assert.equal(await accounts.getSession('first'), undefined, 'created too long ago');
      await accounts.deleteSession('new');
      assert.equal(await accounts.getSession('new'), undefined);
    });

    withStores('failed sign-ins are counted per email and per address within the window; locks expire', async (accounts) => {
      for (let i = 0; i < 3; i++) await accounts.recordFailure({ emailKey: 'a@x.io', address: '192.0.2.1' }, 100 + i, 0);
      const counts = await accounts.recordFailure({ emailKey: 'b@x.io', address: '192.0.2.1' }, 200, 101);
      assert.deepEqual(counts, { byEmail: 1, byAddress: 3 }, 'the failure at 100 is out of the window');
      await accounts.clearFailures('a@x.io');
      assert.deepEqual(await accounts.recordFailure({ emailKey: 'a@x.io', address: '192.0.2.9' }, 300, 0), { byEmail: 1, byAddress: 1 });

      await accounts.lock(['email:a@x.io'], 1000);
      await accounts.lock(['email:a@x.io'], 2000);
      assert.equal(await accounts.isLocked(['email:a@x.io', 'address:192.0.2.1'], 1999), true);
      assert.equal(await accounts.isLocked(['email:a@x.io'], 2000), false);
      assert.equal(await accounts.isLocked(['address:192.0.2.1'], 0), false);
      assert.equal(await accounts.deleteLocksBefore(2000), 1);
    });
  });
}
