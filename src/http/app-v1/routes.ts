// The JSON routes of /app/v1 that the dashboard calls, by method and path (after the prefix, with
// `:name` for a path parameter): the body each takes (its schema's type, ../bodies.ts) and the
// answer it gives. Types only, so that
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
import type { Role } from '../../core/vocabulary.js';
import type * as B from '../bodies.js';
import type { Body } from '../bodies.js';
import type { DigestSiteStatus } from '../../storage/meta/digest-types.js';

/** A site's fields as its creation takes them. */
export type NewSite = Body<typeof B.NEW_SITE>;

/** A member's choice of a site's email reports. */
export type ReportSchedule = Body<typeof B.REPORT_SCHEDULE>;

/** What opening a shared link answers: the access its reads send, and what its page shows. */
export interface OpenedShare {
  access: string;
  expiresAt: number;
  site: Pick<ManagedSite, 'id' | 'name' | 'domain' | 'timezone' | 'rawDays'>;
  filters: string[];
}

/** An alert rule's fields as its creation takes them. */
export type NewAlertRule = Body<typeof B.NEW_ALERT_RULE>;

export interface AppRoutes {
  // Signing in and out, first-run set-up (session.ts).
  'GET /session': { answer: SessionView };
  'DELETE /session': { answer: void };
  'GET /sign-in': { answer: SignInOptions };
  'POST /session': { body: Body<typeof B.SIGN_IN>; answer: SessionView | { twoFactorRequired: true } };
  'GET /setup': { answer: { needed: boolean } };
  'POST /setup': { body: Body<typeof B.SET_UP>; answer: SessionView };

  // The user's own account (account.ts) and email reports (digests.ts).
  'PUT /account/password': { body: Body<typeof B.NEW_PASSWORD>; answer: SessionView };
  'PUT /account/email': { body: Body<typeof B.NEW_EMAIL>; answer: { pendingEmail: string } };
  'POST /account/email/confirmation': { answer: { pendingEmail: string } };
  'DELETE /account': { body: Body<typeof B.CURRENT_PASSWORD>; answer: void };
  'PUT /account/language': { body: Body<typeof B.LANGUAGE_CHOICE>; answer: Body<typeof B.LANGUAGE_CHOICE> };
  'GET /account/two-factor': { answer: TwoFactorStatus };
  'POST /account/two-factor/setup': { answer: TwoFactorSetup };
  'POST /account/two-factor/confirm': { body: Body<typeof B.TWO_FACTOR_CONFIRMATION>; answer: { recoveryCodes: string[] } };
  'DELETE /account/two-factor': { body: Body<typeof B.TWO_FACTOR_CODE>; answer: void };
  'GET /account/digests': { answer: { configured: boolean; sites: ReportChoice[] } };
  'PUT /account/digests/:siteId': { body: ReportSchedule; answer: ReportSchedule & { siteId: string } };
  'POST /account/digests/:siteId/send': { body: Body<typeof B.REPORT_SEND>; answer: SentReport };

  // Shared links' pages (share.ts) and invitations' (invitations.ts).
  'POST /share': { body: Body<typeof B.SHARE_OPENING>; answer: OpenedShare | { passwordRequired: true } };
  'GET /invitations/:token': { answer: InvitationView };
  'POST /invitations/:token/account': { body: Body<typeof B.INVITATION_ACCOUNT>; answer: SessionView };
  'POST /invitations/:token/accept': { answer: { orgId: number; role: Role } };

  // The user's sites, a funnel's steps, the zones a site may have (sites.ts).
  'GET /sites': { answer: { sites: SiteRow[] } };
  'GET /sites/:siteId/funnels/:funnelId/versions': { answer: FunnelHistory };
  'GET /timezones': { answer: { timezones: string[] } };

  // An organisation's sites and keys (src/http/admin/org-routes.ts).
  'GET /manage/orgs/:orgId/sites': { answer: { sites: ManagedSite[] } };
  'POST /manage/orgs/:orgId/sites': { body: NewSite; answer: ManagedSite };
  'GET /manage/sites/:siteId': { answer: ManagedSite };
  'PATCH /manage/sites/:siteId': { body: Body<typeof B.SITE_CHANGE>; answer: ManagedSite };
  'GET /manage/orgs/:orgId/keys': { answer: { keys: ManagedKey[] } };
  'POST /manage/orgs/:orgId/keys': { body: Body<typeof B.NEW_KEY>; answer: CreatedKey };
  'POST /manage/keys/:keyId/revoke': { answer: Pick<ManagedKey, 'id' | 'revokedAt'> };
  'GET /manage/sites/:siteId/snippet': { answer: TrackerSnippet };

  // A site's goals and funnels (site-routes.ts).
  'GET /manage/sites/:siteId/goals': { answer: { goals: ManagedGoal[] } };
  'POST /manage/sites/:siteId/goals': { body: Body<typeof B.NEW_GOAL>; answer: ManagedGoal };
  'DELETE /manage/sites/:siteId/goals/:goalId': { answer: void };
  'GET /manage/sites/:siteId/funnels': { answer: { funnels: FunnelDefinition[] } };
  'POST /manage/sites/:siteId/funnels': { body: Body<typeof B.NEW_FUNNEL>; answer: FunnelSummary };
  'PUT /manage/sites/:siteId/funnels/:funnelId/steps': { body: Body<typeof B.FUNNEL_STEPS_CHANGE>; answer: FunnelSummary };
  'DELETE /manage/sites/:siteId/funnels/:funnelId': { answer: void };

  // Alert rules (alerts.ts).
  'GET /manage/sites/:siteId/alerts': { answer: { alerts: ManagedAlertRule[] } };
  'POST /manage/sites/:siteId/alerts': { body: NewAlertRule; answer: ManagedAlertRule };
  'DELETE /manage/alerts/:ruleId': { answer: void };
  'POST /manage/alerts/:ruleId/test': { answer: { deliveryId: string } };
  'GET /manage/alerts/:ruleId/history': { answer: { deliveries: Delivery[] } };

  // Members, invitations and the organisation's sign-in settings (members.ts).
  'GET /manage/orgs/:orgId/members': { answer: { members: Member[] } };
  'PUT /manage/orgs/:orgId/members/:userId': { body: Body<typeof B.ROLE>; answer: RoleAssignment };
  'DELETE /manage/orgs/:orgId/members/:userId': { answer: void };
  'GET /manage/orgs/:orgId/two-factor': { answer: { orgId: number; required: boolean } };
  'PUT /manage/orgs/:orgId/two-factor': { body: Body<typeof B.TWO_FACTOR_REQUIREMENT>; answer: { orgId: number; required: boolean } };
  'GET /manage/orgs/:orgId/sign-in': { answer: OrgSignInView };
  'PUT /manage/orgs/:orgId/sign-in': { body: Body<typeof B.SIGN_IN_SETTINGS>; answer: OrgSignInView };
  'GET /manage/orgs/:orgId/invitations': { answer: { invitations: ManagedInvitation[] } };
  'POST /manage/orgs/:orgId/invitations': { body: Body<typeof B.INVITATION>; answer: CreatedInvitation };
  'DELETE /manage/orgs/:orgId/invitations/:invitationId': { answer: void };

  // Shared links, segments and annotations (shared-links.ts, segments.ts).
  'GET /manage/sites/:siteId/shared-links': { answer: { sharedLinks: ManagedSharedLink[] } };
  'POST /manage/sites/:siteId/shared-links': {
    body: Body<typeof B.NEW_SHARED_LINK>;
    answer: ManagedSharedLink & { url: string; embedUrl: string };
  };
  'DELETE /manage/sites/:siteId/shared-links/:linkId': { answer: void };
  'GET /manage/sites/:siteId/segments': { answer: { segments: ManagedSegment[] } };
  'POST /manage/sites/:siteId/segments': { body: Body<typeof B.NEW_SEGMENT>; answer: ManagedSegment };
  'PATCH /manage/sites/:siteId/segments/:segmentId': { body: Body<typeof B.SEGMENT_CHANGE>; answer: ManagedSegment };
  'DELETE /manage/sites/:siteId/segments/:segmentId': { answer: void };
  'POST /manage/sites/:siteId/annotations': { body: Body<typeof B.NEW_ANNOTATION>; answer: Annotation };
  'PATCH /manage/sites/:siteId/annotations/:annotationId': { body: Body<typeof B.ANNOTATION_CHANGE>; answer: Annotation };
  'DELETE /manage/sites/:siteId/annotations/:annotationId': { answer: void };

  // Imports and a site's email reports (import-routes.ts, ga4-import-route.ts, digests.ts).
  'GET /manage/sites/:siteId/imports': { answer: { imports: ImportView[] } };
  'POST /manage/sites/:siteId/imports/ga4': { body: Body<typeof B.GA4_IMPORT>; answer: { importId: string } };
  'DELETE /manage/sites/:siteId/imports/:importId': { answer: void };
  'GET /manage/sites/:siteId/digests': { answer: DigestSiteStatus & { configured: boolean } };
  'GET /manage/sites/:siteId/digest-webhooks': { answer: { webhooks: ManagedReportWebhook[] } };
  'POST /manage/sites/:siteId/digest-webhooks': { body: Body<typeof B.NEW_REPORT_WEBHOOK>; answer: ManagedReportWebhook };
  'DELETE /manage/sites/:siteId/digest-webhooks/:webhookId': { answer: void };
}
