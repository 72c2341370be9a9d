// The account store's contract on every MetaStore adapter: users (email unique in any letter case),
// memberships (the last owner kept), invitations, sessions, failed sign-ins and locks.
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

    withStores('memberships: changed or removed unless the organisation would have no owner', async (accounts, meta) => {
      const org = await meta.createOrg('Acme', 1);
      const ana = await accounts.createUser({ email: 'ana@example.com', name: 'Ana', passwordHash: 'h' }, 1);
      const bob = await accounts.createUser({ email: 'bob@example.com', name: 'Bob', passwordHash: 'h' }, 1);
      assert.equal(await accounts.changeMembership(org.id, ana.id, 'owner', 2), 'changed');
      assert.equal(await accounts.changeMembership(org.id, ana.id, 'admin', 3), 'last-owner');
      assert.equal(await accounts.changeMembership(org.id, ana.id, null, 3), 'last-owner');
      assert.equal(await accounts.changeMembership(org.id, bob.id, null, 3), 'no-membership');
      assert.equal(await accounts.changeMembership(org.id, bob.id, 'owner', 4), 'changed');
      assert.equal(await accounts.changeMembership(org.id, ana.id, 'viewer', 5), 'changed');
      assert.equal(await accounts.changeMembership(org.id, ana.id, null, 6), 'changed');
      assert.deepEqual(await accounts.members(org.id), [{ userId: bob.id, email: 'bob@example.com', name: 'Bob', role: 'owner' }]);
    });

    withStores('invitations: created (one per email), listed while valid, revoked, accepted once, pruned', async (accounts, meta) => {
      const org = await meta.createOrg('Acme', 1);
      const other = await meta.createOrg('Other', 1);
      const first = await accounts.createInvitation({ orgId: org.id, email: 'Cy@Example.com', role: 'viewer', tokenHash: 't1', expiresAt: 1000 }, 10);
      assert.deepEqual(first, { id: first.id, orgId: org.id, email: 'Cy@Example.com', role: 'viewer', createdAt: 10, expiresAt: 1000 });
      // Inviting the same email again (any letter case) replaces the pending invitation and its link.
      const second = await accounts.createInvitation({ orgId: org.id, email: 'cy@example.com', role: 'admin', tokenHash: 't2', expiresAt: 2000 }, 20);
      await accounts.createInvitation({ orgId: other.id, email: 'cy@example.com', role: 'owner', tokenHash: 't3', expiresAt: 2000 }, 20);
      const dee = await accounts.createInvitation({ orgId: org.id, email: 'dee@example.com', role: 'viewer', tokenHash: 't4', expiresAt: 500 }, 20);
      assert.deepEqual((await accounts.invitations(org.id, 100)).map((i) => i.id), [second.id, dee.id]);
      assert.deepEqual((await accounts.invitations(org.id, 500)).map((i) => i.id), [second.id], 'expired at its expiresAt');
      assert.equal(await accounts.invitationByToken('t1', 100), undefined, 'the replaced link is dead');
      assert.deepEqual(await accounts.invitationByToken('t2', 100), { ...second, orgName: 'Acme' });
      assert.equal(await accounts.invitationByToken('t4', 500), undefined);

      assert.equal(await accounts.revokeInvitation(other.id, second.id), false, 'an invitation is revoked through its own organisation only');
      assert.equal(await accounts.revokeInvitation(other.id, (await accounts.invitations(other.id, 100))[0]!.id), true);
      assert.equal(await accounts.invitationByToken('t3', 100), undefined);

      const cy = await accounts.createUser({ email: 'CY@example.com', name: 'Cy', passwordHash: 'h' }, 30);
      const dan = await accounts.createUser({ email: 'dan@example.com', name: 'Dan', passwordHash: 'h' }, 30);
      assert.equal(await accounts.acceptInvitation('t2', dan, 100), 'wrong-email');
      assert.equal(await accounts.roleIn(org.id, dan.id), undefined);
      assert.equal(await accounts.acceptInvitation('t2', cy, 2000), 'not-found', 'expired');
      const accepted = await accounts.acceptInvitation('t2', cy, 100);
      assert.deepEqual(accepted, { role: 'admin', invitation: second });
      assert.equal(await accounts.roleIn(org.id, cy.id), 'admin');
      assert.equal(await accounts.acceptInvitation('t2', cy, 100), 'not-found', 'a link works once');

      // A member invited again with a lower role keeps the higher one; a higher role is given.
      const lower = await accounts.createInvitation({ orgId: org.id, email: 'cy@example.com', role: 'viewer', tokenHash: 't5', expiresAt: 2000 }, 40);
      assert.deepEqual(await accounts.acceptInvitation('t5', cy, 100), { role: 'admin', invitation: lower });
      assert.equal(await accounts.roleIn(org.id, cy.id), 'admin');
      const higher = await accounts.createInvitation({ orgId: org.id, email: 'cy@example.com', role: 'owner', tokenHash: 't6', expiresAt: 2000 }, 40);
      assert.deepEqual(await accounts.acceptInvitation('t6', cy, 100), { role: 'owner', invitation: higher });
      assert.equal(await accounts.roleIn(org.id, cy.id), 'owner');

      assert.equal(await accounts.deleteInvitationsExpiredBy(500), 1, 'the expired invitation of dee');
      assert.deepEqual(await accounts.invitations(org.id, 0), []);
    });
  });
}
