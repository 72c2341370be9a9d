// Single sign-on's words, shared by the server (which sends a failed flow back to /login with its
// reason) and the sign-in page (which shows the reason's sentence). Pure: the page's bundle imports it.

/** Where the sign-in button sends the browser; the provider sends it back to the callback. */
export const SSO_PATHS = '/login/oidc';
export const SSO_START_PATH = `${SSO_PATHS}/start`;
export const SSO_CALLBACK_PATH = `${SSO_PATHS}/callback`;
/** The cookie that binds a flow to the browser that started it (HttpOnly, SameSite=Lax, on SSO_PATHS, 10 minutes). */
export const SSO_BROWSER_COOKIE = 'svc_sso_flow';
/** The query parameter of /login that names why a single sign-on failed. */
export const SSO_FAILURE_PARAM = 'sso';

/** Why a single sign-on did not sign in, with the sentence the sign-in page shows for each. */
export const SSO_FAILURES = {
  denied: 'The sign-in was cancelled at the identity provider. Start again to sign in.',
  state: 'This sign-in expired or was already used. Start again.',
  browser: 'This sign-in was started in another browser, so it did not sign you in here. Start again from this page.',
  check: 'The identity provider’s answer failed a check, so it was not used. Start again; if it happens again, tell your operator.',
  provider: 'The identity provider cannot be reached now. Try again in a few minutes, or sign in with your password.',
  noEmail: 'The identity provider did not share your email address, so it cannot sign you in here. Ask your operator to let svc read the email claim, then start again.',
  unverified: 'The identity provider says your email is not verified, so it cannot sign you in here. Verify it at the provider, then start again.',
  unconfirmed: 'An account with your email exists here, but its email is not confirmed, so single sign-on cannot use it. Sign in with your password and confirm your email on your account page first.',
  noAccount: 'Your account does not exist here. Ask an owner of your organisation for an invitation.',
  busy: 'Too many sign-ins are under way. Wait a few minutes, then start again.',
  unconfigured: 'Single sign-on is not configured on this service. Sign in with your password.',
  internal: 'Signing in failed on this service’s side. Try again in a moment.',
} as const;

export type SsoFailure = keyof typeof SSO_FAILURES;

export function isSsoFailure(value: unknown): value is SsoFailure {
  return typeof value === 'string' && Object.hasOwn(SSO_FAILURES, value);
}

/** The sign-in page's address that says why a single sign-on failed, keeping `next` (already a same-origin path). */
export function ssoFailurePath(failure: SsoFailure, next: string): string {
  const query = new URLSearchParams({ [SSO_FAILURE_PARAM]: failure });
  if (next !== '/') query.set('next', next);
  return `/login?${query}`;
}
