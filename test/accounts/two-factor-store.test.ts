// Two-factor sign-in and account deletion on both MetaStore engines, under concurrency: one TOTP code
// sent twice at once signs in once, one recovery code used twice at once works once, and two last
// owners deleting their accounts at once leave one of them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountService } from '../../src/accounts/service.js';
import { totpCode } from '../../src/accounts/totp.js';
import { ManualClock } from '../../src/core/clock.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { MemorySlidingWindow } from '../../src/storage/counters/rate-limiter.js';
import { SIGNIN_RATE_LIMIT } from '../../src/accounts/lockout.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

for (const adapter of META_DATABASES) {
  describe(`two-factor sign-in and account deletion: ${adapter.name}`, () => {
    test('a code and a recovery code each work once however many requests bring them at once; the requirement and its members', async () => {
      const { location, dispose } = await adapter.create();
      const stores = await openMetaStores(location);
      try {
        const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 5));
        const accounts = new AccountService(stores.meta, stores.accounts, clock, new MemorySlidingWindow(SIGNIN_RATE_LIMIT.count, SIGNIN_RATE_LIMIT.windowMs));
        const ana = await accounts.createUser({ email: 'ana@example.com', password: 'a long enough secret' });
        const org = await stores.meta.createOrg('Org', 1);
        await accounts.setMember(org.id, ana.id, 'owner');
        await accounts.requireTwoFactor(org.id, true);
        assert.deepEqual(await accounts.orgsAwaitingTwoFactor(ana.id), [org.id]);

        const { secret } = await accounts.twoFactor.begin(ana);
        const again = await accounts.twoFactor.begin(ana);
        assert.notEqual(again.secret, secret, 'a set-up started again replaces the pending secret');
        const codes = await accounts.twoFactor.confirm(ana.id, totpCode(again.secret, clock.now()));
        assert.equal(codes.length, 10);
        assert.deepEqual(await accounts.orgsAwaitingTwoFactor(ana.id), []);

        clock.advance(30_000);
        const code = totpCode(again.secret, clock.now());
        const sameCode = await Promise.all(Array.from({ length: 6 }, () => accounts.twoFactor.verify(ana.id, code)));
        assert.equal(sameCode.filter(Boolean).length, 1, `one of six at once: ${sameCode}`);
        const sameRecovery = await Promise.all(Array.from({ length: 6 }, () => accounts.twoFactor.verify(ana.id, codes[0]!)));
        assert.equal(sameRecovery.filter(Boolean).length, 1, `one of six at once: ${sameRecovery}`);
        assert.deepEqual(await accounts.twoFactor.status(ana.id), { enabled: true, recoveryCodesLeft: 9 });

        await accounts.resetTwoFactor(ana.id);
        assert.deepEqual(await accounts.twoFactor.status(ana.id), { enabled: false, recoveryCodesLeft: 0 });
        assert.deepEqual(await accounts.orgsAwaitingTwoFactor(ana.id), [org.id]);
        await accounts.requireTwoFactor(org.id, false);
        assert.deepEqual(await accounts.orgsAwaitingTwoFactor(ana.id), []);
      } finally {
        await stores.meta.close();
        await dispose();
      }
    });

    test('two last owners deleting their accounts at once: one goes, the other stays the owner', async () => {
      const { location, dispose } = await adapter.create();
      const stores = await openMetaStores(location);
      try {
        const clock = new ManualClock(Date.UTC(2026, 0, 1));
        const accounts = new AccountService(stores.meta, stores.accounts, clock, new MemorySlidingWindow(SIGNIN_RATE_LIMIT.count, SIGNIN_RATE_LIMIT.windowMs));
        for (let round = 0; round < 10; round++) {
          const ana = await accounts.createUser({ email: `ana${round}@example.com`, password: 'a long enough secret' });
          const bob = await accounts.createUser({ email: `bob${round}@example.com`, password: 'a long enough secret' });
          const org = await stores.meta.createOrg(`Org ${round}`, 1);
          await accounts.setMember(org.id, ana.id, 'owner');
          await accounts.setMember(org.id, bob.id, 'owner');
          const outcomes = await Promise.all([stores.accounts.deleteUserUnlessLastOwner(ana.id), stores.accounts.deleteUserUnlessLastOwner(bob.id)]);
          assert.deepEqual([...outcomes].sort(), ['deleted', 'last-owner'], `round ${round}`);
          const owners = (await accounts.members(org.id)).filter((m) => m.role === 'owner');
          assert.equal(owners.length, 1, `round ${round}: one owner left`);
        }
      } finally {
        await stores.meta.close();
        await dispose();
      }
    });
  });
}
