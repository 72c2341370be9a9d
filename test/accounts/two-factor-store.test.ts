// Two-factor sign-in, account deletion and shared links on both MetaStore engines: one TOTP code
// sent twice at once signs in once, one recovery code used twice at once works once, two last owners
// deleting their accounts at once leave one of them, and a shared link's grants end with it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountService } from '../../src/accounts/service.js';
import { totpCode } from '../../src/accounts/totp.js';
import { ManualClock } from '../../src/core/clock.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { sha256Hex } from '../../src/core/ids.js';
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
        const sameCode = await Promise.allSettled(Array.from({ length: 6 }, () => accounts.twoFactor.verify(ana.id, code)));
        assert.equal(sameCode.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length, 1, 'one of six at once');
        for (const outcome of sameCode.filter((o) => o.status === 'rejected')) assert.equal(outcome.reason.reason, 'CODE_USED_UNAUTHORIZED', 'the others: the code was just used');
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

    test("a shared link: found by its token until it expires, its grants read until they or it end, revoked with them", async () => {
      const { location, dispose } = await adapter.create();
      const stores = await openMetaStores(location);
      try {
        const org = await stores.meta.createOrg('Org', 1);
        const site = await stores.meta.createSite(org.id, { domain: 'share.example', name: 'Share', timezone: 'UTC', retentionMonths: null, honorGpc: true, rawDays: 30 }, 'shareSite001', 1);
        const link = await stores.accounts.createSharedLink(
          { siteId: site.internalId, sitePublicId: site.id, tokenHash: sha256Hex('token'), passwordHash: undefined, expiresAt: 5_000, filters: ['page:/a'], embedDomains: ['x.example'] },
          100,
        );
        assert.deepEqual(await stores.accounts.sharedLinkByToken(sha256Hex('token'), 4_999), link);
        assert.equal(await stores.accounts.sharedLinkByToken(sha256Hex('token'), 5_000), undefined, 'expired');
        await stores.accounts.grantSharedLink({ id: 'grant', linkId: link.id, expiresAt: 3_000 }, 200);
        assert.equal((await stores.accounts.sharedLinkByGrant('grant', 2_999))?.lastUsedAt, 200);
        assert.equal(await stores.accounts.sharedLinkByGrant('grant', 3_000), undefined, 'the grant expired');
        assert.deepEqual((await stores.accounts.sharedLinks(site.internalId)).map((l) => [l.id, l.sitePublicId, l.filters, l.embedDomains]), [[link.id, site.id, ['page:/a'], ['x.example']]]);
        await stores.accounts.grantSharedLink({ id: 'second', linkId: link.id, expiresAt: 4_000 }, 300);
        assert.equal(await stores.accounts.revokeSharedLink(site.internalId + 1, link.id), false, 'another site');
        assert.equal(await stores.accounts.revokeSharedLink(site.internalId, link.id), true);
        assert.equal(await stores.accounts.sharedLinkByGrant('second', 301), undefined);
        assert.equal(await stores.accounts.deleteSharedLinkGrantsExpiredBy(10_000), 0, 'revoking deleted the grants');
      } finally {
        await stores.meta.close();
        await dispose();
      }
    });
  });
}
