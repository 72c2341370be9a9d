// The last-owner rule under concurrency, on both MetaStore engines: two owners demoting (or removing)
// each other at the same instant leave exactly one owner, and exactly one of the two calls is
// refused with 409 CONFLICT.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountService } from '../../src/accounts/service.js';
import { ManualClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { MemorySlidingWindow } from '../../src/storage/counters/rate-limiter.js';
import { SIGNIN_RATE_LIMIT } from '../../src/accounts/lockout.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

const ROUNDS = 20;

for (const adapter of META_DATABASES) {
  describe(`last owner under concurrency: ${adapter.name}`, () => {
    const race = (name: string, change: (accounts: AccountService, orgId: number, userId: number) => Promise<void>) =>
      test(name, async () => {
        const { location, dispose } = await adapter.create();
        const stores = await openMetaStores(location);
        try {
          const clock = new ManualClock(Date.UTC(2026, 0, 1));
          const accounts = new AccountService(stores.meta, stores.accounts, clock, new MemorySlidingWindow(SIGNIN_RATE_LIMIT.count, SIGNIN_RATE_LIMIT.windowMs));
          const ana = await accounts.createUser({ email: 'ana@example.com', password: 'a long enough secret' });
          const bob = await accounts.createUser({ email: 'bob@example.com', password: 'a long enough secret' });
          for (let round = 0; round < ROUNDS; round++) {
            const org = await stores.meta.createOrg(`Org ${round}`, 1);
            await accounts.setMember(org.id, ana.id, 'owner');
            await accounts.setMember(org.id, bob.id, 'owner');
            // Each owner takes the role of the other, at once.
            const outcomes = await Promise.allSettled([change(accounts, org.id, bob.id), change(accounts, org.id, ana.id)]);
            const refused = outcomes.filter((o) => o.status === 'rejected');
            assert.equal(refused.length, 1, `round ${round}: exactly one call is refused`);
            const reason = (refused[0] as PromiseRejectedResult).reason;
            assert.ok(reason instanceof ApiError && reason.code === 'CONFLICT', String(reason));
            const owners = (await accounts.members(org.id)).filter((m) => m.role === 'owner');
            assert.equal(owners.length, 1, `round ${round}: one owner left`);
          }
        } finally {
          await stores.meta.close();
          await dispose();
        }
      });

    race('two owners demoting each other', (accounts, orgId, userId) => accounts.setMember(orgId, userId, 'admin'));
    race('two owners removing each other', (accounts, orgId, userId) => accounts.removeMember(orgId, userId));
  });
}
