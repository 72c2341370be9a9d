// Kysely table types of the MetaStore. The same definitions serve SQLite and PostgreSQL.
import type { ColumnType, Generated } from 'kysely';
import type { KeyScope } from '../../core/vocabulary.js';

export interface OrgsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface SitesTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  domain: string;
  name: string;
  timezone: string;
  retention_months: number | null;
  raw_days: number;
  honor_gpc: number; // 0 | 1
  status: 'active' | 'archived';
  created_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  fingerprint: string; // SHA-256 hex of the full key
  created_at: number;
  revoked_at: number | null;
  scope: Generated<KeyScope>;
}

export interface RelayKeysTable {
  id: Generated<number>;
  name: string;
  fingerprint: string;
  created_at: number;
}

export interface GoalsTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  kind: 'page' | 'event';
  pattern: string;
  /** The property values an event goal requires, as `storedGoalProps` writes them ('' when none). */
  props: ColumnType<string, string | undefined, never>;
  created_at: number;
  currency: string | null;
}

export interface FunnelsTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  window_minutes: number;
  version: number; // current version
  created_at: number;
}

export interface FunnelVersionsTable {
  funnel_id: number;
  version: number;
  steps: string; // JSON: [{kind, pattern}]
  created_at: number;
}

export interface SaltsTable {
  day: string; // calendar date YYYY-MM-DD
  salt: Buffer;
}

export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number; // epoch ms
}

export interface RollupStateTable {
  store_id: string; // EventStore.id
  site_id: string; // public id
  watermark: string | null;
  definitions: string;
}

export interface RollupPendingTable {
  store_id: string;
  site_id: string;
  day: string;
}

export interface SegmentsTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  filters: string; // JSON array of filter parameters
  shared: number; // 0 | 1
  owner_user_id: number | null;
  created_at: number;
}

export interface AnnotationsTable {
  id: Generated<number>;
  site_id: number;
  day: string; // site-local YYYY-MM-DD
  text: string;
  created_at: number;
}

export interface MetaDatabase {
  orgs: OrgsTable;
  sites: SitesTable;
  api_keys: ApiKeysTable;
  relay_keys: RelayKeysTable;
  goals: GoalsTable;
  funnels: FunnelsTable;
  funnel_versions: FunnelVersionsTable;
  salts: SaltsTable;
  leases: LeasesTable;
  rollup_state: RollupStateTable;
  rollup_pending: RollupPendingTable;
  segments: SegmentsTable;
  annotations: AnnotationsTable;
}
