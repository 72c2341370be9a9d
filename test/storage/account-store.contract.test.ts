// The account store's contract on every MetaStore adapter: users (email unique in any letter case),
// memberships (the last owner kept), invitations, sessions, sign-in attempts (reserved atomically,
// from any number of processes) and locks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AttemptKey } from '../../src/entities/accounts.js';
import { DuplicateEmail, type AccountStore } from '../../src/storage/meta/account-types.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import { openMetaStores, type MetaLocation } from '../../src/storage/meta/open.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

for (const adapter of META_DATABASES) {
  describe(`account store contract: ${adapter.name}`, () => {
    const withStores = (name: string, body: (accounts: AccountStore, meta: MetaStore, location: MetaLocation) => Promise<void>) =>
      test(name, async () => {
        const { location, dispose } = await adapter.create();
        const stores = await openMetaStores(location);
        try {
          await body(stores.accounts, stores.meta, location);
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
      assert.deepEqual(await accounts.getSession('s1'), { id: 's1', userId: ana.id, csrfToken: 'c1', createdAt: 14, lastUsedAt: 14, singleSignOn: false });

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
      assert.deepEqual(await accounts.getSession('new'), { id: 'new', userId: user.id, csrfToken: 'c', createdAt: 100, lastUsedAt: 500, singleSignOn: false });
      assert.equal(await accounts.deleteExpiredSessions({ lastUsedBefore: 200, createdBefore: 50 }), 2);
      assert.equal(await accounts.getSession('old'), undefined, 'idle');
      assert.equal(await accounts.getSession('first'), undefined, 'created too long ago');
      await accounts.deleteSession('new');
      assert.equal(await accounts.getSession('new'), undefined);
    });

    const key = (emailKey: string, clientGroup: string): AttemptKey => ({ emailKey, clientGroup });

    withStores('sign-in attempts are counted per email and per client group after `since`, up to `max`', async (accounts) => {
      for (let i = 0; i < 3; i++) assert.ok(await accounts.reserveAttempt(key('a@x.io', '192.0.2.1'), 100 + i, 0, 10));
      const b = await accounts.reserveAttempt(key('b@x.io', '192.0.2.1'), 200, 100, 10);
      assert.deepEqual(b && { byEmail: b.byEmail, byClient: b.byClient }, { byEmail: 1, byClient: 3 }, 'the attempt at 100 is not after `since`');
      assert.equal(await accounts.reserveAttempt(key('c@x.io', '192.0.2.1'), 201, 100, 3), undefined, 'the client group has 3 of 3');
      assert.equal(await accounts.reserveAttempt(key('b@x.io', '192.0.2.2'), 201, 100, 1), undefined, 'the email has 1 of 1');
      assert.equal(await accounts.reserveAttempt(key('c@x.io', '192.0.2.1'), 201, 100, 4) !== undefined, true, 'a larger max grants it');

      await accounts.releaseAttempt(b!.id);
      assert.equal((await accounts.reserveAttempt(key('b@x.io', '192.0.2.2'), 202, 100, 1))?.byEmail, 1, 'a released attempt counts no more');
      await accounts.clearAttempts('a@x.io');
      assert.equal((await accounts.reserveAttempt(key('a@x.io', '192.0.2.1'), 203, 0, 10))?.byClient, 2, 'the email\'s attempts are forgotten, from every client group');
      assert.equal(await accounts.deleteAttemptsBefore(203), 2);
      assert.equal((await accounts.reserveAttempt(key('d@x.io', '192.0.2.1'), 204, 0, 10))?.byClient, 2);
    });

    withStores('a locked email or client group is refused until its lock ends; locks expire', async (accounts) => {
      await accounts.lock({ emailKey: 'a@x.io' }, 1000);
      await accounts.lock({ emailKey: 'a@x.io' }, 2000);
      await accounts.lock({ emailKey: 'b@x.io', clientGroup: '2001:db8::/64' }, 1500);
      assert.equal(await accounts.reserveAttempt(key('a@x.io', '192.0.2.1'), 1999, 0, 10), undefined, 'the later lock holds');
      assert.ok(await accounts.reserveAttempt(key('a@x.io', '192.0.2.1'), 2000, 0, 10));
      assert.equal(await accounts.reserveAttempt(key('c@x.io', '2001:db8::/64'), 1499, 0, 10), undefined);
      assert.equal(await accounts.reserveAttempt(key('b@x.io', '192.0.2.3'), 1499, 0, 10), undefined);
      assert.ok(await accounts.reserveAttempt(key('c@x.io', '2001:db8::/64'), 1500, 0, 10));
      assert.equal(await accounts.deleteLocksBefore(1500), 2);
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

    withStores('10 invitations of one email at once: all made, one pending, only the last link works', async (accounts, meta) => {
      const org = await meta.createOrg('Acme', 1);
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          accounts.createInvitation({ orgId: org.id, email: i % 2 ? 'Eve@example.com' : 'eve@example.com', role: 'viewer', tokenHash: `t${i}`, expiresAt: 1000 }, 100 + i),
        ),
      );
      assert.equal(new Set(made.map((m) => m.id)).size, 1, 'one row, replaced in place');
      const pending = await accounts.invitations(org.id, 0);
      assert.equal(pending.length, 1);
      // The last written is the one whose creation time the row holds.
      const last = pending[0]!.createdAt - 100;
      const working = [];
      for (let i = 0; i < 10; i++) if (await accounts.invitationByToken(`t${i}`, 0)) working.push(i);
      assert.deepEqual(working, [last]);
    });

    withStores('50 reservations at once for one email, and 50 for one client group: exactly 10 granted each', async (accounts) => {
      const reserveAll = (keys: AttemptKey[]) => Promise.all(keys.map((k) => accounts.reserveAttempt(k, 1000, 0, 10)));
      const byEmail = await reserveAll(Array.from({ length: 50 }, (_, i) => key('a@x.io', `192.0.2.${i}`)));
      assert.equal(byEmail.filter(Boolean).length, 10);
      assert.deepEqual(byEmail.filter(Boolean).map((r) => r!.byEmail).sort((x, y) => x - y), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const byClient = await reserveAll(Array.from({ length: 50 }, (_, i) => key(`user${i}@x.io`, '198.51.100.1')));
      assert.equal(byClient.filter(Boolean).length, 10);
    });

    withStores('reservations from two processes at once: exactly 10 granted in all', async (accounts, _meta, location) => {
      const run = promisify(execFile);
      const startAt = Date.now() + 5000; // both processes started and connected by then
      const job = (attempts: AttemptKey[]) => JSON.stringify({ location, attempts, now: 1000, since: 0, max: 10, startAt });
      const clients = Array.from({ length: 25 }, (_, i) => key('a@x.io', `192.0.2.${i}`));
      const granted = await Promise.all(
        [0, 1].map((n) => run(process.execPath, ['--import', 'tsx', 'test/helpers/reserve-attempts.ts', job(clients.map((c) => ({ ...c, clientGroup: `${n}.${c.clientGroup}` })))])),
      );
      assert.equal(granted.reduce((sum, out) => sum + Number(out.stdout), 0), 10);
      assert.equal((await accounts.reserveAttempt(key('a@x.io', '203.0.113.1'), 1001, 0, 11))?.byEmail, 11, 'exactly 10 stored');
    });
  });
}
