// The sites of the dashboard's two APIs: as a user sees them, and as their organisation manages them.
import type { Role } from './session.js';

/** A site as GET /app/v1/sites lists it: one the user can see, with its organisation and role. */
export interface SiteRow {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  status: string;
  orgId: number;
  orgName: string;
  role: Role;
  visitors24h: number;
}

/** A site as /app/v1/manage reads and writes it, with its settings. */
export interface ManagedSite {
  id: string;
  domain: string;
  name: string;
  timezone: string;
  retentionMonths: number | null;
  honorGpc: boolean;
  status: 'active' | 'archived';
}
