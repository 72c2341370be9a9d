// What the management and account APIs answer (/admin/v1, /app/v1/manage, and the dashboard's own
// /app/v1 routes): sites, goals, funnels, imports, organisations, keys, users, members,
// invitations, alert rules and their deliveries, as the server builds them and the dashboard and
// the CLI read them (docs/admin-api.md, docs/accounts.md). Types only: the dashboard bundles this module.
import type { FunnelSummary } from './answers.js';
import type { Language } from './messages/language.js';
import type { FunnelStep, GoalProps, ImportSource, ImportStatus, KeyScope, MatchKind, Role, RuleType, SiteStatus } from './vocabulary.js';

// ---- Accounts (docs/accounts.md) -------------------------------------------------------------

/** A dashboard user as the admin API creates and lists it (its email is its sign-in name). */
export interface User {
  id: number;
  email: string;
  name: string;
  createdAt: number;
}

/** A user's role in one organisation, as its session lists it. */
export interface Membership {
  orgId: number;
  orgName: string;
  role: Role;
}

/** What GET /app/v1/session answers: the signed-in user, its CSRF token and its organisations. */
export interface SessionView {
  /**
   * `emailConfirmed`: svc knows the email confirmed (a mailed link followed, or single sign-on); single sign-on takes over no other account.
   * `language`: the account's language, null while none is chosen (the dashboard follows the browser's).
   */
  user: Omit<User, 'createdAt'> & { emailConfirmed: boolean; language: Language | null };
  csrfToken: string;
  memberships: Membership[];
  /** Whether the user signs in with a second factor; `requiredBy`: the organisations that require it while it is off. */
  twoFactor: { enabled: boolean; requiredBy: number[] };
}

/** GET and PUT /orgs/:orgId/sign-in: an organisation's sign-in settings, and whether single sign-on is configured at all. */
export interface OrgSignInView {
  orgId: number;
  requireSingleSignOn: boolean;
  domains: string[];
  singleSignOnConfigured: boolean;
}

/** GET /app/v1/sign-in: how the sign-in page offers to sign in; `singleSignOn` when the operator configured a provider. */
export interface SignInOptions {
  singleSignOn: { name: string } | null;
}

/** GET /app/v1/account/two-factor: whether the user's two-factor sign-in is on, and its recovery codes left. */
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** What starting two-factor set-up answers: the new secret, for the user's authenticator app. */
export interface TwoFactorSetup {
  /** The secret as base32, for typing into an app that cannot scan. */
  secret: string;
  otpauthUri: string;
  /** The QR code of otpauthUri, as an SVG document. */
  qrSvg: string;
}

/** A member's choice of email reports for one site of its organisations (GET /app/v1/account/digests). */
export interface ReportChoice {
  siteId: string;
  name: string;
  domain: string;
  orgName: string;
  weekly: boolean;
  monthly: boolean;
}

// ---- Organisations, their keys and members (docs/admin-api.md, docs/accounts.md) -------------

export interface Org {
  id: number;
  name: string;
}

/** A read-API key as an organisation's list shows it: never its secret. */
export interface ManagedKey {
  id: number;
  name: string;
  scope: KeyScope;
  createdAt: number;
  revokedAt: number | null;
}

/** A key just created: its secret (`key`) is answered this once. */
export interface CreatedKey extends Omit<ManagedKey, 'revokedAt'> {
  key: string;
}

/** A member of an organisation, as its owners list them. */
export interface Member {
  userId: number;
  email: string;
  name: string;
  role: Role;
}

/** What giving a user a role in an organisation answers. */
export interface RoleAssignment {
  orgId: number;
  userId: number;
  role: Role;
}

/** A pending invitation, as an organisation's owners list them. */
export interface ManagedInvitation {
  invitationId: number;
  email: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
}

/** An invitation just sent: its link (`url`) is answered this once; `emailed` when a mail carried it too. */
export interface CreatedInvitation extends ManagedInvitation {
  url: string;
  emailed: boolean;
}

/** What an invitation's link shows its invitee before acceptance (GET /app/v1/invitations/:token). */
export interface InvitationView {
  orgName: string;
  email: string;
  role: Role;
  expiresAt: number;
}

// ---- Sites, goals and funnels ------------------------------------------------------------------

/** A site as the management API (/admin/v1, /app/v1/manage) reads and writes it. */
export interface ManagedSite {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  retentionMonths: number | null;
  rawDays: number;
  honorGpc: boolean;
  status: SiteStatus;
}

/** A site as GET /app/v1/sites lists it: one the user can see, with its organisation and role. */
export interface SiteRow {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  status: SiteStatus;
  orgId: number;
  orgName: string;
  role: Role;
  visitors24h: number;
}

/** A collection outcome of a site as /admin/v1 and /app/v1 list it (`outcome`: `accepted` or a drop reason). */
export interface RecentEvent {
  seq: number;
  ts: number;
  outcome: string;
  path: string | null;
  /** The event's name (`pageview`, a custom event's); null when the event had none that passed its rules. */
  name: string | null;
  browser: string | null;
}

/** A site's kept collection outcomes after a `seq`, oldest first, and the last `seq` given out (GET .../recent-events). */
export interface RecentEvents {
  events: RecentEvent[];
  lastSeq: number;
}

/** The tracker tag to paste into a site's pages (GET .../snippet), loading the tracker from `scriptUrl`. */
export interface TrackerSnippet {
  siteId: string;
  scriptUrl: string;
  snippet: string;
  /** Whether the server has SVC_PUBLIC_URL; without it, `scriptUrl` is the address the request came to. */
  publicUrlSet: boolean;
  /** The site's dashboard page, at the same address as `scriptUrl` (what `svc demo` prints). */
  dashboardUrl: string;
}

/** GET /app/v1/sites/:siteId/installation: what the dashboard shows a site waiting for its first event. */
export interface Installation extends TrackerSnippet, RecentEvents {
  /** Whether the site holds an event, or figures imported from another tool. */
  hasEvents: boolean;
  /** `scriptUrl` is on localhost, an intranet name or an address that is not public. */
  localScriptUrl: boolean;
}

/** A goal as the management API (/admin/v1, /app/v1/manage) answers it. */
export interface ManagedGoal {
  goalId: number;
  name: string;
  kind: MatchKind;
  pattern: string;
  props?: GoalProps;
  /** Revenue goals only: the currency their revenue is counted in. */
  currency?: string;
}

/** A funnel with its current steps, as the management API lists it. */
export interface FunnelDefinition extends Omit<FunnelSummary, 'stepCount'> {
  steps: FunnelStep[];
}

/** A funnel with every version of its steps, oldest first. */
export interface FunnelHistory extends Omit<FunnelSummary, 'stepCount'> {
  versions: Array<{ version: number; createdAt: number; steps: FunnelStep[] }>;
}

/** A shared link of a site, as its admins list it: never its token or password. */
export interface ManagedSharedLink {
  id: number;
  /** `<dimension>:<value>` filters applied to every read through the link. */
  filters: string[];
  expiresAt: number | null;
  hasPassword: boolean;
  /** The host names whose pages may show the link in an iframe. */
  embedDomains: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** A webhook that receives a site's reports, as its admins list it: never its secret. */
/** A report mailed now on request (POST /admin/v1/sites/:siteId/digests/send, POST /app/v1/account/digests/:siteId/send). */
export interface SentReport {
  siteId: string;
  period: 'weekly' | 'monthly';
  /** The days it covers: the last complete week (Monday to Sunday) or month in the site's zone. */
  from: string;
  to: string;
  email: string;
  sentAt: number;
}

export interface ManagedReportWebhook {
  id: number;
  url: string;
  weekly: boolean;
  monthly: boolean;
  createdAt: number;
}

// ---- Imports (docs/imports.md, docs/admin-api.md) ---------------------------------------------

/** What an import of events answers (POST /admin/v1/sites/:siteId/events/import): its lines accepted and refused, with why. */
export interface EventImportReport {
  accepted: number;
  rejected: number;
  /** The first refused lines (1-based) and why each was refused. */
  errors: Array<{ line: number; reason: string }>;
}

/** An import as the admin API and /app/v1/manage list it. */
export interface ImportView {
  importId: string;
  source: ImportSource;
  status: ImportStatus;
  createdAt: number;
  /** The export's first and last day. */
  from: string | null;
  to: string | null;
  /** 0 to 1. */
  progress: number;
  rows: number;
  skippedRows: number;
  /** Rows the export marks as bots or whose browser is a robot (GoatCounter's, Umami's), counted in `skippedRows`. */
  skippedBots: number;
  /** Custom events kept under a name the event-name rule allows instead of the export's (Umami's `Download PDF` as `download_pdf`). */
  renamedEvents: number;
  /** Days not written because the site holds events on them. */
  skippedDays: string[];
  /**
   * The upload's files with their table (null: not part of the export, ignored), counts, and the
   * columns of their table an older export lacks (docs/imports.md, "Older exports").
   */
  files: Array<{ name: string; table: string | null; rows: number; skippedRows: number; missingColumns: string[] }>;
  /** The first skipped lines and why. */
  skippedLines: Array<{ file: string; line: number; reason: string }>;
  error: string | null;
}

// ---- Alert rules and their deliveries (docs/webhooks.md) ----------------------------------------

/** An alert rule as the management API answers it: never its signing secret. */
export interface ManagedAlertRule {
  id: number;
  type: RuleType;
  threshold: number;
  url: string;
  goalId: number | null;
  emails: string[];
}

/** A webhook delivery of a rule, as its history lists it (newest first), with every attempt. */
export interface Delivery {
  /** A UUID, also sent to the receiver. */
  id: string;
  createdAt: number;
  /** A delivery of `Send test`. */
  test: boolean;
  /** `pending`, `succeeded`, `failed:<why>` or `rejected:<URL rule>`. */
  status: string;
  attempts: Array<{ at: number; status: string }>;
}
