// Single sign-on's records on every MetaStore adapter: a flow is taken once and only before it
// expires, at most `max` are stored (also when many start at once), and an organisation's sign-in
// settings answer who single sign-on admits and whom it requires.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateEmail, type AccountStore } from '../../src/storage/meta/account-types.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

const flow = (n: number, expiresAt = 1_000, network = `198.51.${n}.0/24`) => ({
  stateHash: `state-${n}`,
  nonce: `nonce-${n}`,
  codeVerifier: `verifier-${n}`,
  next: `/sites/${n}`,
  expiresAt,
  browserHash: `browser-${n}`,
  network,
});
const bounds = (total: number, perNetwork = total) => ({ total, perNetwork });

for (const adapter of META_DATABASES) {
  describe(`single sign-on records: ${adapter.name}`, () => {
    const withStores = (name: string, body: (accounts: AccountStore, meta: MetaStore) => Promise<void>) =>
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

    withStores('a flow is taken once, and not after it expired', async (accounts) => {
      assert.equal(await accounts.createSsoFlow(flow(1), 0, bounds(10)), 'stored');
      assert.equal(await accounts.createSsoFlow(flow(2, 500), 0, bounds(10)), 'stored');
      assert.deepEqual(await accounts.takeSsoFlow('state-1', 999), { nonce: 'nonce-1', codeVerifier: 'verifier-1', next: '/sites/1', expiresAt: 1_000, browserHash: 'browser-1' });
      assert.equal(await accounts.takeSsoFlow('state-1', 999), undefined, 'used once');
      assert.equal(await accounts.takeSsoFlow('state-2', 500), undefined, 'expired');
      assert.equal(await accounts.takeSsoFlow('unknown', 0), undefined);
    });

    withStores('at most max flows live; expired ones make room; 30 started at once store exactly 10', async (accounts) => {
      for (let n = 0; n < 3; n++) assert.equal(await accounts.createSsoFlow(flow(n, 100), 0, bounds(3)), 'stored');
      assert.equal(await accounts.createSsoFlow(flow(3, 100), 0, bounds(3)), 'full', 'the cap');
      assert.equal(await accounts.createSsoFlow(flow(4, 900), 100, bounds(3)), 'stored', 'the expired three are deleted first');
      assert.equal(await accounts.deleteSsoFlowsExpiredBy(900), 1);
      const started = await Promise.all(Array.from({ length: 30 }, (_, n) => accounts.createSsoFlow(flow(10 + n), 0, bounds(10))));
      assert.equal(started.filter((outcome) => outcome === 'stored').length, 10);
    });

    withStores('one network holds at most its share, also when its flows start at once; another network still starts', async (accounts) => {
      const started = await Promise.all(Array.from({ length: 12 }, (_, n) => accounts.createSsoFlow(flow(n, 1_000, '203.0.113.0/24'), 0, bounds(100, 5))));
      assert.equal(started.filter((outcome) => outcome === 'stored').length, 5);
      assert.equal(started.filter((outcome) => outcome === 'network-full').length, 7);
      assert.equal(await accounts.createSsoFlow(flow(50, 1_000, '2001:db8:1:2::/64'), 0, bounds(100, 5)), 'stored');
    });

    withStores('an email confirmation link is used once, replaces the earlier one, confirms or changes the email', async (accounts) => {
      const ana = await accounts.createUser({ email: 'ana@acme.example', name: 'Ana', passwordHash: 'h' }, 1);
      const sso = await accounts.createUser({ email: 'sso@acme.example', name: 'S', passwordHash: 'single-sign-on', emailConfirmed: true }, 1);
      assert.equal(await accounts.emailConfirmed(ana.id), false);
      assert.equal((await accounts.findUserByEmail('sso@acme.example'))?.emailConfirmed, true);
      await accounts.createEmailConfirmation({ tokenHash: 't1', userId: ana.id, email: 'ana@acme.example', expiresAt: 100 });
      await accounts.createEmailConfirmation({ tokenHash: 't2', userId: ana.id, email: 'ana@acme.example', expiresAt: 100 });
      assert.equal(await accounts.takeEmailConfirmation('t1', 50), undefined, 'replaced');
      assert.equal(await accounts.takeEmailConfirmation('t2', 100), undefined, 'expired');
      await accounts.createEmailConfirmation({ tokenHash: 't3', userId: ana.id, email: 'ANA@acme.example', expiresAt: 100 });
      assert.deepEqual(await accounts.takeEmailConfirmation('t3', 50), { userId: ana.id, email: 'ANA@acme.example' });
      assert.equal(await accounts.takeEmailConfirmation('t3', 50), undefined, 'used once');
      assert.equal(await accounts.confirmEmail(ana.id, 'ANA@acme.example'), 'confirmed');
      assert.equal(await accounts.emailConfirmed(ana.id), true);
      await accounts.setEmail(ana.id, 'ana@beta.example', false);
      assert.equal(await accounts.emailConfirmed(ana.id), false, 'an email set without a link is unconfirmed');
      await assert.rejects(accounts.confirmEmail(ana.id, 'sso@acme.example'), DuplicateEmail);
      assert.equal(await accounts.confirmEmail(ana.id, 'ana@gamma.example'), 'changed');
      assert.equal((await accounts.findUserByEmail('ana@gamma.example'))?.emailConfirmed, true);
      assert.equal(await accounts.confirmEmail(sso.id + 100, 'x@acme.example'), 'not-found');
      await accounts.createEmailConfirmation({ tokenHash: 't4', userId: ana.id, email: 'x@acme.example', expiresAt: 100 });
      assert.equal(await accounts.deleteEmailConfirmationsExpiredBy(100), 1);
      assert.equal(await accounts.deleteUser(ana.id), true, 'a user with a pending link is deleted');
    });

    withStores('sign-in settings: domains, the organisations requiring single sign-on, pending invitations by email', async (accounts, meta) => {
      const acme = await meta.createOrg('Acme', 1);
      const beta = await meta.createOrg('Beta', 1);
      assert.deepEqual(await accounts.orgSignIn(acme.id), { requireSingleSignOn: false, domains: [] });
      await accounts.setOrgSignIn(acme.id, { requireSingleSignOn: true, domains: ['acme.example', 'shared.example'] }, 2);
      await accounts.setOrgSignIn(beta.id, { requireSingleSignOn: false, domains: ['shared.example'] }, 2);
      assert.deepEqual(await accounts.orgSignIn(acme.id), { requireSingleSignOn: true, domains: ['acme.example', 'shared.example'] });
      assert.deepEqual(await accounts.orgsOfSignInDomain('shared.example'), [acme.id, beta.id]);
      await accounts.setOrgSignIn(acme.id, { requireSingleSignOn: true, domains: ['acme.example'] }, 3);
      assert.deepEqual(await accounts.orgsOfSignInDomain('shared.example'), [beta.id], 'the list is replaced');

      const ana = await accounts.createUser({ email: 'ana@acme.example', name: 'Ana', passwordHash: 'h' }, 1);
      await accounts.setMembership(beta.id, ana.id, 'viewer', 1);
      assert.deepEqual(await accounts.orgsRequiringSingleSignOn(ana.id), []);
      await accounts.setMembership(acme.id, ana.id, 'admin', 1);
      assert.deepEqual(await accounts.orgsRequiringSingleSignOn(ana.id), ['Acme']);

      await accounts.createInvitation({ orgId: beta.id, email: 'Bo@Beta.example', role: 'admin', tokenHash: 't1', expiresAt: 100 }, 1);
      assert.deepEqual(await accounts.pendingInvitationTokens('bo@beta.example', 50), ['t1']);
      assert.deepEqual(await accounts.pendingInvitationTokens('bo@beta.example', 100), [], 'expired');

      await accounts.createSession({ id: 's', userId: ana.id, csrfToken: 'c', singleSignOn: true }, 5);
      assert.equal((await accounts.getSession('s'))?.singleSignOn, true);
    });
  });
}
