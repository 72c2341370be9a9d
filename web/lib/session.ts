// The signed-in user, its organisations and roles, as GET /app/v1/session reports them.
import { setCsrfToken } from './api.js';
import { call } from './client.js';
import { readPath } from './early.js';
import { SESSION_PATH } from '../../src/core/app-paths.js';
import type { Membership, SessionView } from '../../src/core/management.js';

/** The signed-in session (the early answer when the page asked it early); its CSRF token goes with every change that follows. */
export async function loadSession(): Promise<SessionView> {
  const { body: session } = await readPath<SessionView>(SESSION_PATH);
  setCsrfToken(session.csrfToken);
  return session;
}

export function membershipOf(session: SessionView, orgId: number): Membership | undefined {
  return session.memberships.find((membership) => membership.orgId === orgId);
}

export async function signOut(): Promise<void> {
  await call('DELETE /session');
  window.location.assign('/login');
}
