// /login: Email, Password, `Sign in`; then the same-origin path of `next`, or `/`.
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage } from '../lib/mount.js';
import { safeNext } from '../../src/core/next-path.js';
import { ErrorText } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';

function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useAction();
  const submit = () =>
    signIn.run(async () => {
      await api('POST', '/session', { email, password }, { anonymous: true });
      window.location.assign(safeNext(new URLSearchParams(window.location.search).get('next'), window.location.origin));
    });
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
