// Single sign-on's paths and reasons, shared by the server (which sends a failed flow back to /login
// with its reason) and the sign-in page (which shows the reason's sentence). Pure: the page's bundle imports it.

/** Where the sign-in button sends the browser; the provider sends it back to the callback. */
export const SSO_PATHS = '/login/oidc';
export const SSO_START_PATH = `${SSO_PATHS}/start`;
export const SSO_CALLBACK_PATH = `${SSO_PATHS}/callback`;
/** The cookie that binds a flow to the browser that started it (HttpOnly, SameSite=Lax, on SSO_PATHS, 10 minutes). */
export const SSO_BROWSER_COOKIE = 'svc_sso_flow';
/** The query parameter of /login that names why a single sign-on failed. */
export const SSO_FAILURE_PARAM = 'sso';

/** Why a single sign-on did not sign in; the sign-in page shows each in words (the catalogue's `signIn.ssoFailures`). */
export const SSO_FAILURES = ['denied', 'state', 'browser', 'check', 'provider', 'noEmail', 'unverified', 'unconfirmed', 'noAccount', 'busy', 'unconfigured', 'internal'] as const;

export type SsoFailure = (typeof SSO_FAILURES)[number];

export function isSsoFailure(value: unknown): value is SsoFailure {
  return (SSO_FAILURES as readonly unknown[]).includes(value);
}

/** The sign-in page's address that says why a single sign-on failed, keeping `next` (already a same-origin path). */
export function ssoFailurePath(failure: SsoFailure, next: string): string {
  const query = new URLSearchParams({ [SSO_FAILURE_PARAM]: failure });
  if (next !== '/') query.set('next', next);
  return `/login?${query}`;
}
