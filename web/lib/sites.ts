// A site as GET /app/v1/sites lists it: one the user can see, with its organisation and role.
import type { Role } from './session.js';

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
