// AccountStore: users, memberships, invitations, sessions, sign-in attempts, locks, two-factor
// sign-in and shared links in the MetaStore database (migrations 005_accounts, 006_signin_attempts,
// 007_invitations, 010_two_factor, 020_single_sign_on), through the MetaStore's Kysely handle so SQLite and PostgreSQL
// share one implementation: the records of each kind in a module of their own (./kysely/), composed
// here.
import type { Kysely } from 'kysely';
import type { AccountDatabase } from './account-schema.js';
import type { AccountStore } from './account-types.js';
import type { MetaDatabase } from './schema.js';
import { userRecords } from './kysely/users.js';
import { membershipRecords } from './kysely/memberships.js';
import { invitationRecords } from './kysely/invitations.js';
import { sessionRecords } from './kysely/sessions.js';
import { signinAttemptRecords } from './kysely/signin-attempts.js';
import { twoFactorRecords } from './kysely/two-factor.js';
import { sharedLinkRecords } from './kysely/shared-links.js';
import { singleSignOnRecords } from './kysely/single-sign-on.js';

export function kyselyAccountStore(meta: Kysely<MetaDatabase>): AccountStore {
  // The account tables are the MetaStore database's, typed apart (./account-schema.ts).
  const db = meta as unknown as Kysely<AccountDatabase>;
  return {
    ...userRecords(db),
    ...membershipRecords(db),
    ...invitationRecords(db),
    ...sessionRecords(db),
    ...signinAttemptRecords(db),
    ...twoFactorRecords(db),
    ...sharedLinkRecords(db),
    ...singleSignOnRecords(db),
  };
}
