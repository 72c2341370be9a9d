// Domain records of the MetaStore port, as the rest of the code sees them.

export interface Org {
  id: number;
  name: string;
}

export type SiteStatus = 'active' | 'archived';

export interface Site {
  internalId: number; // never leaves the service
  id: string; // public id: the tracker's data-site and every API path
  orgId: number;
  domain: string;
  name: string;
  timezone: string;
  retentionMonths: number | null;
  honorGpc: boolean;
  status: SiteStatus;
  createdAt: number;
}

export interface NewSite {
  domain: string;
  name: string;
  timezone: string;
  retentionMonths: number | null;
  honorGpc: boolean;
}

export type SitePatch = Partial<Pick<Site, 'name' | 'timezone' | 'retentionMonths' | 'honorGpc' | 'status'>>;

export interface ApiKeyRecord {
  id: number;
  orgId: number;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export type MatchKind = 'page' | 'event';

export interface Goal {
  goalId: number;
  siteId: number; // internal
  name: string;
  kind: MatchKind;
  pattern: string;
}

export interface FunnelStep {
  kind: MatchKind;
  pattern: string;
}

export interface FunnelSummary {
  id: number;
  name: string;
  stepCount: number;
  windowMinutes: number;
  version: number;
  createdAt: number;
}

export interface FunnelVersion {
  id: number;
  name: string;
  windowMinutes: number;
  version: number; // the version these steps belong to
  currentVersion: number;
  steps: FunnelStep[];
}

/** A funnel with every version of its steps, oldest first. */
export interface FunnelHistory {
  id: number;
  name: string;
  windowMinutes: number;
  version: number; // the current version
  createdAt: number;
  versions: Array<{ version: number; createdAt: number; steps: FunnelStep[] }>;
}

/**
 * The MetaStore port: configuration and small mutable state. One Kysely implementation serves
 * SQLite (embedded) and PostgreSQL (SVC_DATABASE_URL); the other stores of the same database (the
 * AlertStore) add their tables through migrations, and the factory (open.ts) builds them over the
 * same handle.
 */
export interface MetaStore {
  createOrg(name: string, now: number): Promise<Org>;
  listOrgs(): Promise<Org[]>;
  getOrg(id: number): Promise<Org | undefined>;

  /** Throws DuplicateDomain when an active site already uses the domain. */
  createSite(orgId: number, site: NewSite, publicId: string, now: number): Promise<Site>;
  listSites(orgId: number, options?: { activeOnly?: boolean }): Promise<Site[]>;
  listAllActiveSites(): Promise<Site[]>;
  getSite(publicId: string): Promise<Site | undefined>;
  /** Throws DuplicateDomain when re-activating onto a domain another active site uses. */
  updateSite(publicId: string, patch: SitePatch): Promise<Site | undefined>;

  createApiKey(orgId: number, name: string, fingerprint: string, now: number): Promise<ApiKeyRecord>;
  listApiKeys(orgId: number): Promise<ApiKeyRecord[]>;
  getApiKey(id: number): Promise<ApiKeyRecord | undefined>;
  findApiKeyByFingerprint(fingerprint: string): Promise<ApiKeyRecord | undefined>;
  revokeApiKey(id: number, now: number): Promise<ApiKeyRecord | undefined>;

  createRelayKey(name: string, fingerprint: string, now: number): Promise<{ id: number; name: string }>;
  relayKeyExists(fingerprint: string): Promise<boolean>;

  createGoal(siteInternalId: number, goal: { name: string; kind: MatchKind; pattern: string }, now: number): Promise<Goal>;
  listGoals(siteInternalId: number): Promise<Goal[]>;
  deleteGoal(siteInternalId: number, goalId: number): Promise<boolean>;

  createFunnel(siteInternalId: number, funnel: { name: string; windowMinutes: number; steps: FunnelStep[] }, now: number): Promise<FunnelSummary>;
  replaceFunnelSteps(siteInternalId: number, funnelId: number, steps: FunnelStep[], now: number): Promise<FunnelSummary | undefined>;
  listFunnels(siteInternalId: number): Promise<FunnelSummary[]>;
  /** A version's steps; `version` out of 1..current (or absent) selects the current one. */
  getFunnel(siteInternalId: number, funnelId: number, version?: number): Promise<FunnelVersion | undefined>;
  funnelHistory(siteInternalId: number, funnelId: number): Promise<FunnelHistory | undefined>;
  /** Deletes a funnel with every version of its steps; false when the site has no such funnel. */
  deleteFunnel(siteInternalId: number, funnelId: number): Promise<boolean>;

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

  close(): Promise<void>;
}

export class DuplicateDomain extends Error {
  constructor(readonly domain: string) {
    super(`an active site already uses the domain ${domain}`);
  }
}
