// Test sends mail what a caller asks now, to addresses it chose (its own account's, a rule's): a few
// an hour per member and per organisation, so that svc mails no one on a tenant's behalf more than
// that (docs/security.md, Mail). Counted before the send reads anything.
import type { AppContext } from '../context.js';
import { apiError } from '../core/errors.js';

/** Test sends of each kind an hour: per member, and per organisation over all its members, keys and the operator. */
export const TEST_SENDS = { perUser: 5, perOrg: 10 } as const;
const HOUR_MS = 3_600_000;

/** The kinds of test send, each counted apart: a member's test report of a site, an alert rule's test. */
export type TestSendKind = 'testReports' | 'alertTests';

/**
 * The count of test sends of `kind`: a call counts one for the organisation and, when a member acts
 * (not a manage key or the operator), for the member; past either limit it throws 429.
 */
export function testSendLimit(ctx: AppContext, kind: TestSendKind): (orgId: number, userId: number | undefined) => Promise<void> {
  const perUser = ctx.counters.rateLimiter(`${kind}-user`, TEST_SENDS.perUser, HOUR_MS);
  const perOrg = ctx.counters.rateLimiter(`${kind}-org`, TEST_SENDS.perOrg, HOUR_MS);
  return async (orgId, userId) => {
    const now = ctx.clock.now();
    const allowed = (userId === undefined || (await perUser.hit(String(userId), now))) && (await perOrg.hit(String(orgId), now));
    if (!allowed) throw apiError('RATE_LIMITED', kind, TEST_SENDS, { 'retry-after': '3600' });
  };
}
