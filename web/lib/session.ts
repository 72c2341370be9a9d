// The signed-in user, its organisations and roles, as GET /app/v1/session reports them.
import { api, setCsrfToken } from './api.js';

export type Role = 'owner' | 'admin' | 'viewer';

export interface Membership {
  orgId: number;
  orgName: string;
  role: Role;
}

export interface Session {
  user: { id: number; email: string; name: string };
  csrfToken: string;
  memberships: Membership[];
}

/** The signed-in session; its CSRF token goes with every change that follows. */
export async function loadSession(): Promise<Session> {
  const session = await api<Session>('GET', '/session');
  setCsrfToken(session.csrfToken);
  return session;
}

export function membershipOf(session: Session, orgId: number): Membership | undefined {
  return session.memberships.find((membership) => membership.orgId === orgId);
}

/** Admins and owners change sites, goals, funnels, alert rules and keys; owners also members. */
export function canManage(role: Role | undefined): boolean {
  return role === 'admin' || role === 'owner';
}

export async function signOut(): Promise<void> {
  await api('DELETE', '/session');
  window.location.assign('/login');
}
