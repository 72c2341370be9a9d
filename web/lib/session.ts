// The signed-in user, its organisations and roles, as GET /app/v1/session reports them.
import { api, setCsrfToken } from './api.js';
import type { Membership, Role, SessionView } from '../../src/core/vocabulary.js';

/** The signed-in session; its CSRF token goes with every change that follows. */
export async function loadSession(): Promise<SessionView> {
  const session = await api<SessionView>('GET', '/session');
  setCsrfToken(session.csrfToken);
  return session;
}

export function membershipOf(session: SessionView, orgId: number): Membership | undefined {
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
