// Kysely table types of the AccountStore (migrations 005_accounts, 006_signin_attempts,
// 007_invitations, 010_two_factor, 011_shared_links, 020_single_sign_on, 023_confirmed_emails and 024_user_language), in the MetaStore's database: the same definitions serve SQLite and PostgreSQL.
import type { Generated } from 'kysely';
import type { Role } from '../../core/vocabulary.js';
import type { MetaDatabase } from './schema.js';

export interface UsersTable {
  id: Generated<number>;
  email: string; // as first given
  email_key: string; // lower case: the unique, case-insensitive identity
  name: string;
  password_hash: string;
  created_at: number;
  email_confirmed: Generated<number>; // 1: svc knows the email confirmed (a mailed link followed, or single sign-on)
  language: Generated<string | null>; // the account's language (src/core/messages/language.ts), null while none is chosen
}

export interface MembershipsTable {
  org_id: number;
  user_id: number;
  role: Role;
  created_at: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  org_id: number;
  email: string; // as the owner typed it
  email_key: string; // lower case, compared with users.email_key
  role: Role;
  token_hash: string; // SHA-256 hex of the link's secret
  created_at: number;
  expires_at: number;
}

export interface UserSessionsTable {
  id: string; // SHA-256 hex of the cookie's secret
  user_id: number;
  csrf_token: string;
  created_at: number;
  last_used_at: number;
  single_sign_on: Generated<number>; // 1: made by single sign-on
}

export interface SigninAttemptsTable {
  id: Generated<number>;
  email_key: string;
  client_group: string;
  at: number;
}

export interface LoginLocksTable {
  subject: string; // `email:<email key>` or `address:<client group>`
  locked_until: number;
}

export interface UserTwoFactorTable {
  user_id: number;
  secret: string; // base32 TOTP secret
  enabled_at: number | null; // null while set-up waits for its first code
  last_step: Generated<number>; // the last 30-second step whose code was accepted
}

export interface RecoveryCodesTable {
  user_id: number;
  code_hash: string; // SHA-256 hex of the normalised code
}

export interface OrgTwoFactorTable {
  org_id: number;
  required_since: number;
}

export interface SharedLinksTable {
  id: Generated<number>;
  site_id: number; // sites.id (the internal id)
  token_hash: string;
  password_hash: string | null;
  expires_at: number | null;
  filters: string; // JSON array of `<dimension>:<value>`
  embed_domains: string; // JSON array of host names
  created_at: number;
  last_used_at: number | null;
}

export interface SharedLinkGrantsTable {
  id: string; // SHA-256 hex of the access token
  link_id: number;
  expires_at: number;
}

export interface SsoFlowsTable {
  state_hash: string; // SHA-256 hex of the flow's state
  nonce: string;
  code_verifier: string;
  next: string; // the same-origin path to land on
  expires_at: number;
  network: Generated<string>; // the client network that started it (IPv4 /24, IPv6 /64)
  browser_hash: Generated<string>; // SHA-256 hex of the secret of the cookie that binds it to its browser
}

export interface EmailConfirmationsTable {
  token_hash: string; // SHA-256 hex of the mailed link's secret
  user_id: number;
  email: string; // the email the link confirms (the user's current one, or its new one)
  expires_at: number;
}

export interface OrgSignInTable {
  org_id: number;
  require_sso: number; // 0 | 1
  updated_at: number;
}

export interface OrgSignInDomainsTable {
  org_id: number;
  domain: string; // lower case
}

export interface AccountDatabase extends MetaDatabase {
  sso_flows: SsoFlowsTable;
  email_confirmations: EmailConfirmationsTable;
  org_sign_in: OrgSignInTable;
  org_sign_in_domains: OrgSignInDomainsTable;
  shared_links: SharedLinksTable;
  shared_link_grants: SharedLinkGrantsTable;
  user_two_factor: UserTwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  org_two_factor: OrgTwoFactorTable;
  users: UsersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  user_sessions: UserSessionsTable;
  signin_attempts: SigninAttemptsTable;
  login_locks: LoginLocksTable;
}
