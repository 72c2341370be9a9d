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

/** Adopts a session body (from GET /session, sign-in or setup) for the requests that follow. */
export function adoptSession(session: Session): Session {
  setCsrfToken(session.csrfToken);
  return session;
}

export async function loadSession(): Promise<Session> {
  return adoptSession(await api<Session>('GET', '/session'));
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
