// The MetaStore port, with the rollup bookkeeping it keeps; the records it stores are src/entities/.
import type { FunnelHistory, Org } from '../../core/management.js';
import type { FunnelStep, KeyScope, MatchKind } from '../../core/vocabulary.js';
import type { FunnelSummary } from '../../core/answers.js';
import type { FunnelVersion, Goal, NewGoal } from '../../entities/goals.js';
import type { ApiKeyRecord, NewSite, Site, SitePatch } from '../../entities/sites.js';
import type { Annotation } from '../../core/answers.js';
import type { AnnotationPatch, NewAnnotation, NewSegment, Segment, SegmentPatch } from '../../entities/segments.js';

/**
 * The MetaStore port: configuration and small mutable state. One Kysely implementation serves
 * SQLite (embedded) and PostgreSQL (SVC_DATABASE_URL); the other stores of the same database (the
 * AlertStore, the AccountStore) add their tables through migrations, and the factory (open.ts) builds them over the
 * same handle.
 */
export interface MetaStore {
  createOrg(name: string, now: number): Promise<Org>;
  listOrgs(): Promise<Org[]>;
  getOrg(id: number): Promise<Org | undefined>;

  /** Throws DuplicateDomain when an active site of the organisation already uses the domain (another organisation's may). */
  createSite(orgId: number, site: NewSite, publicId: string, now: number): Promise<Site>;
  listSites(orgId: number, options?: { activeOnly?: boolean }): Promise<Site[]>;
  listAllActiveSites(): Promise<Site[]>;
  getSite(publicId: string): Promise<Site | undefined>;
  /** Throws DuplicateDomain when re-activating onto a domain another active site of its organisation uses. */
  updateSite(publicId: string, patch: SitePatch): Promise<Site | undefined>;

  /** A key of `scope` (`read` unless given). */
  createApiKey(orgId: number, name: string, fingerprint: string, now: number, scope?: KeyScope): Promise<ApiKeyRecord>;
  listApiKeys(orgId: number): Promise<ApiKeyRecord[]>;
  getApiKey(id: number): Promise<ApiKeyRecord | undefined>;
  findApiKeyByFingerprint(fingerprint: string): Promise<ApiKeyRecord | undefined>;
  revokeApiKey(id: number, now: number): Promise<ApiKeyRecord | undefined>;

  createRelayKey(name: string, fingerprint: string, now: number): Promise<{ id: number; name: string }>;
  relayKeyExists(fingerprint: string): Promise<boolean>;

  /** Throws DuplicateGoal when a goal of the site has the same kind and pattern (whatever its name). */
  /** Throws DuplicateGoal for a goal the site has, LimitReached when it holds GOALS_PER_SITE_MAX goals already. */
  createGoal(siteInternalId: number, goal: NewGoal, now: number): Promise<Goal>;
  listGoals(siteInternalId: number): Promise<Goal[]>;
  deleteGoal(siteInternalId: number, goalId: number): Promise<boolean>;

  createFunnel(siteInternalId: number, funnel: { name: string; windowMinutes: number; steps: FunnelStep[] }, now: number): Promise<FunnelSummary>;
  /** Throws LimitReached when the funnel holds FUNNEL_VERSIONS_MAX versions already. */
  replaceFunnelSteps(siteInternalId: number, funnelId: number, steps: FunnelStep[], now: number): Promise<FunnelSummary | undefined>;
  listFunnels(siteInternalId: number): Promise<FunnelSummary[]>;
  /** A version's steps; `version` out of 1..current (or absent) selects the current one. */
  getFunnel(siteInternalId: number, funnelId: number, version?: number): Promise<FunnelVersion | undefined>;
  funnelHistory(siteInternalId: number, funnelId: number): Promise<FunnelHistory | undefined>;
  /** Deletes a funnel with every version of its steps; false when the site has no such funnel. */
  deleteFunnel(siteInternalId: number, funnelId: number): Promise<boolean>;

  /** Throws LimitReached when the site holds `max` segments already. */
  createSegment(siteInternalId: number, segment: NewSegment, now: number, max: number): Promise<Segment>;
  /** Every segment of the site, shared and personal, by id. */
  listSegments(siteInternalId: number): Promise<Segment[]>;
  getSegment(siteInternalId: number, id: number): Promise<Segment | undefined>;
  updateSegment(siteInternalId: number, id: number, patch: SegmentPatch): Promise<Segment | undefined>;
  deleteSegment(siteInternalId: number, id: number): Promise<boolean>;

  /** Throws LimitReached when the site holds `max` annotations already. */
  createAnnotation(siteInternalId: number, annotation: NewAnnotation, now: number, max: number): Promise<Annotation>;
  /** The site's annotations (those whose day lies in `days`, when given), by day, then id. */
  listAnnotations(siteInternalId: number, days?: { from: string; to: string }): Promise<Annotation[]>;
  updateAnnotation(siteInternalId: number, id: number, patch: AnnotationPatch): Promise<Annotation | undefined>;
  deleteAnnotation(siteInternalId: number, id: number): Promise<boolean>;

  /** The salt of a calendar date, created on first use. */
  saltFor(day: string): Promise<Buffer>;
  /** Deletes the salts of dates before `day`; returns how many. */
  deleteSaltsBefore(day: string): Promise<number>;

  /**
   * Takes the named lease for `holder` until `expiresAt` (epoch ms) when it is free, expired at
   * `now`, or already the holder's; says whether the holder now has it. Atomic across processes.
   */
  acquireLease(name: string, holder: string, now: number, expiresAt: number): Promise<boolean>;
  /** Moves the expiry of a lease the holder still has; false when it was taken over meanwhile. */
  renewLease(name: string, holder: string, expiresAt: number): Promise<boolean>;
  /** Gives the lease up if the holder still has it. */
  releaseLease(name: string, holder: string): Promise<void>;

  /** A site's rollup progress in one event store; undefined before its first rollup run there. */
  getRollupState(key: RollupKey): Promise<RollupState | undefined>;
  setRollupState(key: RollupKey, state: RollupState): Promise<void>;
  /** Records rolled-up days whose rollups must be rewritten (a day already recorded stays once). */
  addRollupPending(key: RollupKey, days: readonly string[]): Promise<void>;
  /** The pending days, ascending. */
  listRollupPending(key: RollupKey): Promise<string[]>;
  clearRollupPending(key: RollupKey, day: string): Promise<void>;

  close(): Promise<void>;
}

/**
 * Whose rollups: a site (public id) in one event store (`EventStore.id`). Processes that share the
 * metadata but each keep their own event store keep their own bookkeeping.
 */
export interface RollupKey {
  storeId: string;
  siteId: string;
}

/** What the rollup job (src/stats/rollups) keeps of a site between runs. */
export interface RollupState {
  /** The last site-local day (YYYY-MM-DD) the rollups cover; null when none. */
  watermark: string | null;
  /** The goal and funnel definitions the goal and funnel rollups were computed for (JSON). */
  definitions: string;
}

/** A goal of the same site already counts these events: same kind and pattern (`goalId`: that goal). */
export class DuplicateGoal extends Error {
  constructor(readonly goalId: number) {
    super(`a goal with this kind and pattern already exists (goal ${goalId})`);
  }
}

export class DuplicateDomain extends Error {
  constructor(readonly domain: string) {
    super(`an active site of this organisation already uses the domain ${domain}`);
  }
}

/** A site or an organisation holds as many records of a kind as it may (`max`): goals, segments, sites, API keys… */
export class LimitReached extends Error {
  constructor(
    readonly kind: 'goals' | 'segments' | 'annotations' | 'funnels' | 'funnelVersions' | 'alertRules' | 'sharedLinks' | 'reportWebhooks' | 'sites' | 'apiKeys',
    readonly max: number,
  ) {
    super(`the ${kind === 'sites' || kind === 'apiKeys' ? 'organisation' : kind === 'funnelVersions' ? 'funnel' : 'site'} holds ${max} ${kind} already`);
  }
}
