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
import { isSsoFailure, SSO_FAILURE_PARAM, SSO_START_PATH } from '../../src/core/single-sign-on.js';
import { fill } from '../lib/i18n.js';
import { signInText } from '../lib/text/sign-in.js';
import { singleSignOnText } from '../lib/text/single-sign-on.js';

/**
 * A refusal of the sign-in in the page's words when its reason has them (a code the account used a
 * moment ago is no typo: the next one the app shows signs in); otherwise as the server said it.
 */
const inPageWords = (failure: unknown) =>
  failure instanceof ApiError && failure.reason === 'CODE_USED_UNAUTHORIZED' ? failure.withMessage(signInText.codeUsed) : failure;

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
        {fill(signInText.signInWith, { name: sso.name })}
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
      <PlainLayout title={signInText.twoFactorTitle}>
        <Form onSubmit={submit} label={signInText.twoFactorTitle}>
          <TextField
            label={signInText.codeField}
            hint={signInText.codeHint}
            autoComplete="one-time-code"
            required
            autoFocus
            maxLength={64}
            spellcheck={false}
            value={code}
            onValue={setCode}
          />
          <ErrorText message={signIn.error} />
          <SubmitButton busy={signIn.busy} busyLabel={signInText.verifying}>
            {signInText.verifyButton}
          </SubmitButton>
        </Form>
      </PlainLayout>
    );
  }
  return (
    <PlainLayout title={signInText.signInButton}>
      {isSsoFailure(ssoFailure) && <ErrorText message={singleSignOnText.failures[ssoFailure]} />}
      <SingleSignOnButton next={query.get('next')} />
      <Form onSubmit={submit} label={signInText.signInButton}>
        <TextField label={signInText.emailField} type="email" autoComplete="username" required autoFocus value={email} onValue={setEmail} />
        <TextField label={signInText.passwordField} type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
        <ErrorText message={signIn.error} />
        <SubmitButton busy={signIn.busy} busyLabel={signInText.signingIn}>
          {signInText.signInButton}
        </SubmitButton>
      </Form>
    </PlainLayout>
  );
}

mountPage(<LoginPage />);
