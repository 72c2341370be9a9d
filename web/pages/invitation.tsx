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
import type { InvitationView, SessionView } from '../../src/core/management.js';

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The session, or undefined when signed out (a 401 here is an answer, not a reason to leave). */
async function sessionIfAny(): Promise<SessionView | undefined> {
  try {
    const session = await call('GET /session', { anonymous: true });
    setCsrfToken(session.csrfToken);
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
    <Form onSubmit={submit} label={`Accept the invitation to ${invitation.orgName}`}>
      <ErrorText message={accept.error} />
      <SubmitButton busy={accept.busy} busyLabel="Accepting…">
        Accept invitation
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
    <Form onSubmit={submit} label="Create account">
      <h2>Create account</h2>
      <TextField label="Email" type="email" autoComplete="username" readOnly value={invitation.email} onValue={() => undefined} hint="The invited email." />
      <TextField label="Password" type="password" autoComplete="new-password" required minLength={10} value={password} onValue={setPassword} hint="At least 10 characters." />
      <ErrorText message={create.error} />
      <SubmitButton busy={create.busy} busyLabel="Creating…">
        Create account
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
    <PlainLayout title="Invitation">
      <LoadState state={loaded}>
        {({ invitation, session: signedIn }) => {
          const session = created ?? signedIn;
          return (
            <>
              <p>
                You are invited to join <strong>{invitation.orgName}</strong> as <strong>{invitation.role}</strong>.
              </p>
              <p class="muted">
                For {invitation.email}; the link works once, until {formatInstant(invitation.expiresAt)}.
              </p>
              {session && sameEmail(session.user.email, invitation.email) ? (
                <Accept token={token} invitation={invitation} />
              ) : session ? (
                <>
                  <p class="error" role="alert">
                    This invitation is for {invitation.email}, and you are signed in as {session.user.email}. Sign out, then sign in with {invitation.email} or create its account.
                  </p>
                  <button type="button" onClick={() => leaving.run(signOutHere)} disabled={leaving.busy}>
                    Sign out
                  </button>
                  <ErrorText message={leaving.error} />
                </>
              ) : (
                <>
                  <p>
                    Have an account with {invitation.email}? <a href={loginPath(window.location.pathname, window.location.origin)}>Sign in</a>: you come back here to accept.
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
