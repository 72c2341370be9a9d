// Dashboard accounts: users, memberships, invitations, sessions and sign-in attempts (the
// AccountStore stores them: src/storage/meta/account-types.ts).
import type { Role } from '../core/vocabulary.js';

/** A pending invitation (accepting or revoking one deletes it). */
export interface Invitation {
  id: number;
  orgId: number;
  email: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
}

/** What changeMembership did: `last-owner` when it refused to leave the organisation without an owner. */
export type MembershipChange = 'changed' | 'last-owner' | 'no-membership';

/** What acceptInvitation did: the membership it gave (or kept, when already higher), or why none. */
export type InvitationAcceptance = { role: Role; invitation: Invitation } | 'not-found' | 'wrong-email';

export interface SessionRecord {
  id: string;
  userId: number;
  csrfToken: string;
  createdAt: number;
  lastUsedAt: number;
  /** Made by single sign-on: two-factor sign-in is the provider's, never asked of it. */
  singleSignOn: boolean;
}

/** A single sign-on under way: what its callback checks the provider's answer with, and where it lands. */
export interface SsoFlow {
  nonce: string;
  codeVerifier: string;
  /** The same-origin path the browser lands on once signed in. */
  next: string;
  expiresAt: number;
  /** SHA-256 hex of the secret of the cookie that binds the flow to the browser that started it. */
  browserHash: string;
}

/** The most flows stored at once: in total, and of one client network. */
export interface SsoFlowBounds {
  total: number;
  perNetwork: number;
}

/** What storing a new flow did: stored, or refused because all flows, or its network's, are taken. */
export type SsoFlowStart = 'stored' | 'full' | 'network-full';

/** An organisation's sign-in settings (its owners'). */
export interface OrgSignIn {
  /** Members sign in with single sign-on only, never a password. */
  requireSingleSignOn: boolean;
  /** Email domains (lower case) whose unknown users single sign-on admits as viewers. */
  domains: string[];
}

/** A user's two-factor sign-in: the TOTP secret, when a code enabled it (undefined while pending), the last step used. */
export interface TwoFactorRecord {
  secret: string;
  enabledAt: number | undefined;
  lastStep: number;
  recoveryCodesLeft: number;
}

/** A link that shows one site's dashboard to whoever holds it (its token is never stored, only its SHA-256). */
export interface SharedLink {
  id: number;
  /** The site's internal id. */
  siteId: number;
  /** The site's public id (the one in its addresses). */
  sitePublicId: string;
  passwordHash: string | undefined;
  expiresAt: number | undefined;
  /** `<dimension>:<value>` filters applied to every read through the link. */
  filters: string[];
  /** The host names whose pages may show the link in an iframe. */
  embedDomains: string[];
  createdAt: number;
  lastUsedAt: number | undefined;
}

/** What a sign-in attempt is counted against: its email and its client group (clientGroup in src/ingest/ip.ts). */
export interface AttemptKey {
  emailKey: string;
  clientGroup: string;
}

/** A counted attempt: its id, and the attempts in the window of its email and of its client group, itself included. */
export interface Reservation {
  id: number;
  byEmail: number;
  byClient: number;
}

/** The unique, case-insensitive identity of an email address. */
export const emailKey = (email: string) => email.trim().toLowerCase();
