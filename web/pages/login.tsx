// /login: Email, Password, `Sign in`; for a user with two-factor sign-in, then `Code` and `Verify`;
// then the same-origin path of `next`, or `/`.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage } from '../lib/mount.js';
import { safeNext } from '../../src/core/next-path.js';
import { ErrorText } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';

/** A code the account used a moment ago is no typo: the next one the app shows signs in. */
const CODE_USED = 'This code was just used. Wait for your authenticator app to show the next one (at most 30 seconds), then verify it.';

/** A refusal of the sign-in in the page's words when its reason has them; otherwise as the server said it. */
const inPageWords = (failure: unknown) =>
  failure instanceof ApiError && failure.reason === 'CODE_USED_UNAUTHORIZED' ? failure.withMessage(CODE_USED) : failure;

function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // The password was right and the account asks for a second factor: the same request again, with the code.
  const [codeAsked, setCodeAsked] = useState(false);
  const signIn = useAction();
  const submit = () =>
    signIn.run(async () => {
      const answer = await api<{ twoFactorRequired?: true }>('POST', '/session', { email, password, ...(codeAsked ? { code } : {}) }, { anonymous: true }).catch(
        (failure: unknown) => {
          throw inPageWords(failure);
        },
      );
      if (answer.twoFactorRequired) {
        setCodeAsked(true);
        return;
      }
      window.location.assign(safeNext(new URLSearchParams(window.location.search).get('next'), window.location.origin));
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
