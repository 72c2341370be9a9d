import type { Migration } from 'kysely';
import * as foundation from './001_foundation.js';
import * as alerts from './002_alerts.js';
import * as leases from './003_leases.js';
import * as rollupBookkeeping from './004_rollup_bookkeeping.js';
import * as accounts from './005_accounts.js';
import * as signinAttempts from './006_signin_attempts.js';
import * as invitations from './007_invitations.js';
import * as rawDays from './008_raw_days.js';
import * as uniqueGoals from './009_unique_goals.js';
import * as twoFactor from './010_two_factor.js';
import * as sharedLinks from './011_shared_links.js';
import * as digests from './012_digests.js';
import * as imports from './013_imports.js';
import * as goalProps from './014_goal_props.js';
import * as revenueGoals from './015_revenue_goals.js';
import * as settlements from './016_settlements.js';
import * as siteDomainPerOrg from './017_site_domain_per_org.js';
import * as segmentsAnnotations from './018_segments_annotations.js';
import * as singleSignOn from './020_single_sign_on.js';
import * as keyScopes from './021_key_scopes.js';
import * as importUploads from './022_import_uploads.js';
import * as confirmedEmails from './023_confirmed_emails.js';
import * as userLanguage from './024_user_language.js';

// Versioned migrations, applied in key order at start. Append new ones; never edit an applied one.
export const migrations: Record<string, Migration> = {
  '001_foundation': foundation,
  '002_alerts': alerts,
  '003_leases': leases,
  '004_rollup_bookkeeping': rollupBookkeeping,
  '005_accounts': accounts,
  '006_signin_attempts': signinAttempts,
  '007_invitations': invitations,
  '008_raw_days': rawDays,
  '009_unique_goals': uniqueGoals,
  '010_two_factor': twoFactor,
  '011_shared_links': sharedLinks,
  '012_digests': digests,
  '013_imports': imports,
  '014_goal_props': goalProps,
  '015_revenue_goals': revenueGoals,
  '016_settlements': settlements,
  '017_site_domain_per_org': siteDomainPerOrg,
  '018_segments_annotations': segmentsAnnotations,
  '020_single_sign_on': singleSignOn,
  '021_key_scopes': keyScopes,
  '022_import_uploads': importUploads,
  '023_confirmed_emails': confirmedEmails,
  '024_user_language': userLanguage,
};
