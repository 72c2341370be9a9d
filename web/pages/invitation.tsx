// /invitations/:token: what the invitation is for (organisation, role, email). Signed in with the
// invited email: `Accept invitation`. Signed out: `Sign in`, or `Create account` with the invited
// email fixed, then the same button. Signed in with another email: say so, and offer to sign out.
import { useState } from 'preact/hooks';
import { ApiError, setCsrfToken } from '../lib/api.js';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction, useRead } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage, pathSegment } from '../lib/mount.js';
import { loginPath } from '../../src/core/next-path.js';
import { ErrorText, LoadState } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import { fill, loadLanguage } from '../lib/i18n.js';
import { fillNodes } from '../lib/i18n.js';
import { frameText } from '../lib/text/frame.js';
import { signInText } from '../lib/text/sign-in.js';
import type { InvitationView, SessionView } from '../../src/core/management.js';

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The session, or undefined when signed out (a 401 here is an answer, not a reason to leave); signed in, the page is in the account's language. */
async function sessionIfAny(): Promise<SessionView | undefined> {
  try {
    const session = await call('GET /session', { anonymous: true });
    setCsrfToken(session.csrfToken);
    await loadLanguage(session.user.language);
    return session;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 401) return undefined;
    throw failure;
  }
}

/** Signs out and stays on the invitation, to sign in as its email or create its account. */
async function signOutHere(): Promise<void> {
  await call('DELETE /session');
  window.location.reload();
}

function Accept({ token, invitation }: { token: string; invitation: InvitationView }) {
  const accept = useAction();
  const submit = () =>
    accept.run(async () => {
      await call('POST /invitations/:token/accept', { params: { token } });
      window.location.assign('/');
    });
  return (
    <Form onSubmit={submit} label={fill(signInText.acceptInvitationTo, { org: invitation.orgName })}>
      <ErrorText message={accept.error} />
      <SubmitButton busy={accept.busy} busyLabel={signInText.accepting}>
        {signInText.acceptInvitation}
      </SubmitButton>
    </Form>
  );
}

function CreateAccount({ token, invitation, onSignedIn }: { token: string; invitation: InvitationView; onSignedIn(session: SessionView): void }) {
  const [password, setPassword] = useState('');
  const create = useAction();
  const submit = () =>
    create.run(async () => {
      const session = await call('POST /invitations/:token/account', { params: { token }, body: { password }, anonymous: true });
      setCsrfToken(session.csrfToken);
      onSignedIn(session);
    });
  return (
    <Form onSubmit={submit} label={signInText.createAccount}>
      <h2>{signInText.createAccount}</h2>
      <TextField label={signInText.emailField} type="email" autoComplete="username" readOnly value={invitation.email} onValue={() => undefined} hint={signInText.invitedEmail} />
      <TextField label={signInText.passwordField} type="password" autoComplete="new-password" required minLength={10} value={password} onValue={setPassword} hint={signInText.atLeast10} />
      <ErrorText message={create.error} />
      <SubmitButton busy={create.busy} busyLabel={signInText.creating}>
        {signInText.createAccount}
      </SubmitButton>
    </Form>
  );
}

function InvitationPage() {
  const token = pathSegment(1);
  const loaded = useRead(async () => {
    const invitation = await call('GET /invitations/:token', { params: { token }, anonymous: true });
    return { invitation, session: await sessionIfAny() };
  });
  const [created, setCreated] = useState<SessionView | undefined>(undefined);
  const leaving = useAction();
  return (
    <PlainLayout title={signInText.invitationTitle}>
      <LoadState state={loaded}>
        {({ invitation, session: signedIn }) => {
          const session = created ?? signedIn;
          return (
            <>
              <p>{fillNodes(signInText.invitedTo, { org: <strong>{invitation.orgName}</strong>, role: <strong>{signInText.roleNames[invitation.role]}</strong> })}</p>
              <p class="muted">{fill(signInText.invitationFor, { email: invitation.email, time: formatInstant(invitation.expiresAt) })}</p>
              {session && sameEmail(session.user.email, invitation.email) ? (
                <Accept token={token} invitation={invitation} />
              ) : session ? (
                <>
                  <p class="error" role="alert">
                    {fill(signInText.otherEmail, { email: invitation.email, user: session.user.email })}
                  </p>
                  <button type="button" onClick={() => leaving.run(signOutHere)} disabled={leaving.busy}>
                    {frameText.signOutButton}
                  </button>
                  <ErrorText message={leaving.error} />
                </>
              ) : (
                <>
                  <p>
                    {fillNodes(signInText.haveAccount, {
                      email: invitation.email,
                      signIn: <a href={loginPath(window.location.pathname, window.location.origin)}>{signInText.signInButton}</a>,
                    })}
                  </p>
                  <CreateAccount token={token} invitation={invitation} onSignedIn={setCreated} />
                </>
              )}
            </>
          );
        }}
      </LoadState>
    </PlainLayout>
  );
}

mountPage(<InvitationPage />);
