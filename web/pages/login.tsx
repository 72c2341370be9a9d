// /login: Email, Password, `Sign in`; for a user with two-factor sign-in, then `Code` and `Verify`;
// then the same-origin path of `next`, or `/`. With single sign-on configured, also a button
// `Sign in with <name>`, and a failed single sign-on's reason (`?sso=`) in words.
import { useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage } from '../lib/mount.js';
import { safeNext } from '../../src/core/next-path.js';
import { ErrorText } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import { isSsoFailure, SSO_FAILURE_PARAM, SSO_FAILURES, SSO_START_PATH } from '../../src/core/single-sign-on.js';

/** A code the account used a moment ago is no typo: the next one the app shows signs in. */
const CODE_USED = 'This code was just used. Wait for your authenticator app to show the next one (at most 30 seconds), then verify it.';

/** A refusal of the sign-in in the page's words when its reason has them; otherwise as the server said it. */
const inPageWords = (failure: unknown) =>
  failure instanceof ApiError && failure.reason === 'CODE_USED_UNAUTHORIZED' ? failure.withMessage(CODE_USED) : failure;

/**
 * The sign-in button of the operator's provider: the browser goes to the flow's start, keeping
 * `next`, and from there to the provider (a navigation, not a form: the pages' `form-action 'self'`
 * would stop a form's redirect to the provider).
 */
function SingleSignOnButton({ next }: { next: string | null }) {
  const options = useRead(() => call('GET /sign-in', { anonymous: true }));
  const sso = options.data?.singleSignOn;
  if (!sso) return null;
  const start = next ? `${SSO_START_PATH}?${new URLSearchParams({ next })}` : SSO_START_PATH;
  return (
    <p class="sso">
      <button type="button" onClick={() => window.location.assign(start)}>
        Sign in with {sso.name}
      </button>
    </p>
  );
}

function LoginPage() {
  const query = new URLSearchParams(window.location.search);
  const ssoFailure = query.get(SSO_FAILURE_PARAM);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // The password was right and the account asks for a second factor: the same request again, with the code.
  const [codeAsked, setCodeAsked] = useState(false);
  const signIn = useAction();
  const submit = () =>
    signIn.run(async () => {
      const answer = await call('POST /session', { body: { email, password, ...(codeAsked ? { code } : {}) }, anonymous: true }).catch(
        (failure: unknown) => {
          throw inPageWords(failure);
        },
      );
      if ('twoFactorRequired' in answer) {
        setCodeAsked(true);
        return;
      }
      window.location.assign(safeNext(query.get('next'), window.location.origin));
    });
  if (codeAsked) {
    return (
      <PlainLayout title="Two-factor sign-in">
        <Form onSubmit={submit} label="Two-factor sign-in">
          <TextField
            label="Code"
            hint="The 6 digits your authenticator app shows for svc, or one of your recovery codes."
            autoComplete="one-time-code"
            required
            autoFocus
            maxLength={64}
            spellcheck={false}
            value={code}
            onValue={setCode}
          />
          <ErrorText message={signIn.error} />
          <SubmitButton busy={signIn.busy} busyLabel="Verifying…">
            Verify
          </SubmitButton>
        </Form>
      </PlainLayout>
    );
  }
  return (
    <PlainLayout title="Sign in">
      {isSsoFailure(ssoFailure) && <ErrorText message={SSO_FAILURES[ssoFailure]} />}
      <SingleSignOnButton next={query.get('next')} />
      <Form onSubmit={submit} label="Sign in">
        <TextField label="Email" type="email" autoComplete="username" required autoFocus value={email} onValue={setEmail} />
        <TextField label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
        <ErrorText message={signIn.error} />
        <SubmitButton busy={signIn.busy} busyLabel="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
    </PlainLayout>
  );
}

mountPage(<LoginPage />);
