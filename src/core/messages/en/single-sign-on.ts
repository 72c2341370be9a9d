// The English catalogue's sentences of the sign-in page for a failed single sign-on, a section of its
// own so that only that page bundles them.
import type { SsoFailure } from '../../single-sign-on.js';

export const singleSignOn = {
  /** Why a single sign-on did not sign in, by the reason the server names in `?sso=`. */
  failures: {
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
  } satisfies Record<SsoFailure, string>,
};
