// The JSON routes of /app/v1 that the dashboard calls, by method and path (after the prefix, with
// `:name` for a path parameter): the body each takes and the answer it gives. Types only, so that
// the dashboard's client (web/lib/client.ts) is typed by them and its bundle carries none of them;
// the answers are the types the handlers build. The read API's routes under /app/v1/sites/:siteId
// are read through web/lib/site.ts by their SiteRead, not named here.
import type {
  CreatedInvitation,
  CreatedKey,
  Delivery,
  FunnelDefinition,
  FunnelHistory,
  ImportView,
  InvitationView,
  ManagedAlertRule,
  ManagedGoal,
  ManagedInvitation,
  ManagedKey,
  ManagedReportWebhook,
  ManagedSharedLink,
  ManagedSite,
  Member,
  OrgSignInView,
  ReportChoice,
  RoleAssignment,
  SentReport,
  SessionView,
  SignInOptions,
  SiteRow,
  TrackerSnippet,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../core/management.js';
import type { FunnelSummary } from '../../core/answers.js';
import type { Annotation, ManagedSegment } from '../../core/answers.js';
import type { FunnelStep, GoalProps, KeyScope, MatchKind, Role, RuleType, SiteStatus } from '../../core/vocabulary.js';
import type { DigestSiteStatus } from '../../storage/meta/digest-types.js';

/** A site's fields as its creation takes them. */
export interface NewSite {
  domain: string;
  name: string;
  timezone: string;
  retentionMonths?: number | null;
  rawDays?: number;
  honorGpc?: boolean;
}

/** A member's choice of a site's email reports. */
export interface ReportSchedule {
  weekly: boolean;
  monthly: boolean;
}

/** What opening a shared link answers: the access its reads send, and what its page shows. */
export interface OpenedShare {
  access: string;
  expiresAt: number;
  site: Pick<ManagedSite, 'id' | 'name' | 'domain' | 'timezone' | 'rawDays'>;
  filters: string[];
}

/** An alert rule's fields as its creation takes them. */
export interface NewAlertRule {
  type: RuleType;
  threshold: number;
  url: string;
  secret: string;
  emails: string[];
  goalId?: number;
}

export interface AppRoutes {
  // Signing in and out, first-run set-up (session.ts).
  'GET /session': { answer: SessionView };
  'DELETE /session': { answer: void };
  'GET /sign-in': { answer: SignInOptions };
  'POST /session': { body: { email: string; password: string; code?: string }; answer: SessionView | { twoFactorRequired: true } };
  'GET /setup': { answer: { needed: boolean } };
  'POST /setup': { body: { setupToken: string; email: string; password: string; organisation: string; name?: string }; answer: SessionView };

  // The user's own account (account.ts) and email reports (digests.ts).
  'PUT /account/password': { body: { currentPassword: string; newPassword: string }; answer: SessionView };
  'PUT /account/email': { body: { currentPassword: string; email: string }; answer: { pendingEmail: string } };
  'POST /account/email/confirmation': { answer: { pendingEmail: string } };
  'DELETE /account': { body: { currentPassword: string }; answer: void };
  'GET /account/two-factor': { answer: TwoFactorStatus };
  'POST /account/two-factor/setup': { answer: TwoFactorSetup };
  'POST /account/two-factor/confirm': { body: { code: string; currentPassword: string }; answer: { recoveryCodes: string[] } };
  'DELETE /account/two-factor': { body: { code: string }; answer: void };
  'GET /account/digests': { answer: { configured: boolean; sites: ReportChoice[] } };
  'PUT /account/digests/:siteId': { body: ReportSchedule; answer: ReportSchedule & { siteId: string } };
  'POST /account/digests/:siteId/send': { body: { period?: SentReport['period'] }; answer: SentReport };

  // Shared links' pages (share.ts) and invitations' (invitations.ts).
  'POST /share': { body: { token: string; password?: string }; answer: OpenedShare | { passwordRequired: true } };
  'GET /invitations/:token': { answer: InvitationView };
  'POST /invitations/:token/account': { body: { password: string; name?: string }; answer: SessionView };
  'POST /invitations/:token/accept': { answer: { orgId: number; role: Role } };

  // The user's sites, a funnel's steps, the zones a site may have (sites.ts).
  'GET /sites': { answer: { sites: SiteRow[] } };
  'GET /sites/:siteId/funnels/:funnelId/versions': { answer: FunnelHistory };
  'GET /timezones': { answer: { timezones: string[] } };

  // An organisation's sites and keys (src/http/admin/org-routes.ts).
  'GET /manage/orgs/:orgId/sites': { answer: { sites: ManagedSite[] } };
  'POST /manage/orgs/:orgId/sites': { body: NewSite; answer: ManagedSite };
  'GET /manage/sites/:siteId': { answer: ManagedSite };
  'PATCH /manage/sites/:siteId': { body: Partial<Omit<NewSite, 'domain'>> & { status?: SiteStatus }; answer: ManagedSite };
  'GET /manage/orgs/:orgId/keys': { answer: { keys: ManagedKey[] } };
  'POST /manage/orgs/:orgId/keys': { body: { name?: string; scope?: KeyScope }; answer: CreatedKey };
  'POST /manage/keys/:keyId/revoke': { answer: Pick<ManagedKey, 'id' | 'revokedAt'> };
  'GET /manage/sites/:siteId/snippet': { answer: TrackerSnippet };

  // A site's goals and funnels (site-routes.ts).
  'GET /manage/sites/:siteId/goals': { answer: { goals: ManagedGoal[] } };
  'POST /manage/sites/:siteId/goals': { body: { name: string; kind: MatchKind; pattern: string; props?: GoalProps; currency?: string }; answer: ManagedGoal };
  'DELETE /manage/sites/:siteId/goals/:goalId': { answer: void };
  'GET /manage/sites/:siteId/funnels': { answer: { funnels: FunnelDefinition[] } };
  'POST /manage/sites/:siteId/funnels': { body: { name: string; windowMinutes: number; steps: FunnelStep[] }; answer: FunnelSummary };
  'PUT /manage/sites/:siteId/funnels/:funnelId/steps': { body: { steps: FunnelStep[] }; answer: FunnelSummary };
  'DELETE /manage/sites/:siteId/funnels/:funnelId': { answer: void };

  // Alert rules (alerts.ts).
  'GET /manage/sites/:siteId/alerts': { answer: { alerts: ManagedAlertRule[] } };
  'POST /manage/sites/:siteId/alerts': { body: NewAlertRule; answer: ManagedAlertRule };
  'DELETE /manage/alerts/:ruleId': { answer: void };
  'POST /manage/alerts/:ruleId/test': { answer: { deliveryId: string } };
  'GET /manage/alerts/:ruleId/history': { answer: { deliveries: Delivery[] } };

  // Members, invitations and the organisation's sign-in settings (members.ts).
  'GET /manage/orgs/:orgId/members': { answer: { members: Member[] } };
  'PUT /manage/orgs/:orgId/members/:userId': { body: { role: Role }; answer: RoleAssignment };
  'DELETE /manage/orgs/:orgId/members/:userId': { answer: void };
  'GET /manage/orgs/:orgId/two-factor': { answer: { orgId: number; required: boolean } };
  'PUT /manage/orgs/:orgId/two-factor': { body: { required: boolean }; answer: { orgId: number; required: boolean } };
  'GET /manage/orgs/:orgId/sign-in': { answer: OrgSignInView };
  'PUT /manage/orgs/:orgId/sign-in': { body: { requireSingleSignOn?: boolean; domains?: string[] }; answer: OrgSignInView };
  'GET /manage/orgs/:orgId/invitations': { answer: { invitations: ManagedInvitation[] } };
  'POST /manage/orgs/:orgId/invitations': { body: { email: string; role: Role }; answer: CreatedInvitation };
  'DELETE /manage/orgs/:orgId/invitations/:invitationId': { answer: void };

  // Shared links, segments and annotations (shared-links.ts, segments.ts).
  'GET /manage/sites/:siteId/shared-links': { answer: { sharedLinks: ManagedSharedLink[] } };
  'POST /manage/sites/:siteId/shared-links': {
    body: { password?: string; expiresOn?: string; filters?: string[]; segment?: number; embedDomains?: string[] };
    answer: ManagedSharedLink & { url: string; embedUrl: string };
  };
  'DELETE /manage/sites/:siteId/shared-links/:linkId': { answer: void };
  'GET /manage/sites/:siteId/segments': { answer: { segments: ManagedSegment[] } };
  'POST /manage/sites/:siteId/segments': { body: { name: string; filters: string[]; shared?: boolean }; answer: ManagedSegment };
  'PATCH /manage/sites/:siteId/segments/:segmentId': { body: { name?: string; filters?: string[]; shared?: boolean }; answer: ManagedSegment };
  'DELETE /manage/sites/:siteId/segments/:segmentId': { answer: void };
  'POST /manage/sites/:siteId/annotations': { body: Pick<Annotation, 'date' | 'text'>; answer: Annotation };
  'PATCH /manage/sites/:siteId/annotations/:annotationId': { body: Partial<Pick<Annotation, 'date' | 'text'>>; answer: Annotation };
  'DELETE /manage/sites/:siteId/annotations/:annotationId': { answer: void };

  // Imports and a site's email reports (import-routes.ts, ga4-import-route.ts, digests.ts).
  'GET /manage/sites/:siteId/imports': { answer: { imports: ImportView[] } };
  'POST /manage/sites/:siteId/imports/ga4': { body: { property: string; key: string; from?: string; to?: string }; answer: { importId: string } };
  'DELETE /manage/sites/:siteId/imports/:importId': { answer: void };
  'GET /manage/sites/:siteId/digests': { answer: DigestSiteStatus & { configured: boolean } };
  'GET /manage/sites/:siteId/digest-webhooks': { answer: { webhooks: ManagedReportWebhook[] } };
  'POST /manage/sites/:siteId/digest-webhooks': { body: ReportSchedule & { url: string; secret: string }; answer: ManagedReportWebhook };
  'DELETE /manage/sites/:siteId/digest-webhooks/:webhookId': { answer: void };
}
