// /setup: the first account. The setup token is the admin token printed at first start.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage } from '../lib/mount.js';
import { ErrorText, LoadState } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import { signInText } from '../lib/text/sign-in.js';

function SetupForm() {
  const [setupToken, setSetupToken] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [organisation, setOrganisation] = useState('');
  const create = useAction();
  const submit = () =>
    create.run(async () => {
      await call('POST /setup', { body: { setupToken, email, password, organisation, ...(name ? { name } : {}) }, anonymous: true });
      window.location.assign('/');
    });
  return (
    <Form onSubmit={submit} label={signInText.firstAccount}>
      <TextField label={signInText.setupToken} type="password" autoComplete="off" required value={setupToken} onValue={setSetupToken} hint={signInText.setupTokenHint} />
      <TextField label={signInText.emailField} type="email" autoComplete="username" required value={email} onValue={setEmail} />
      <TextField label={signInText.yourName} autoComplete="name" value={name} onValue={setName} hint={signInText.optionalHint} />
      <TextField label={signInText.passwordField} type="password" autoComplete="new-password" required minLength={10} value={password} onValue={setPassword} hint={signInText.atLeast10} />
      <TextField label={signInText.organisationField} autoComplete="organization" required value={organisation} onValue={setOrganisation} hint={signInText.organisationHint} />
      <ErrorText message={create.error} />
      <SubmitButton busy={create.busy} busyLabel={signInText.creating}>
        {signInText.createAccount}
      </SubmitButton>
    </Form>
  );
}

function SetupPage() {
  const setup = useRead(() => call('GET /setup', { anonymous: true }));
  return (
    <PlainLayout title={signInText.setupTitle}>
      {/* Once set up, the load fails with its reason ("setup is done: sign in instead"). */}
      <LoadState state={setup}>{() => <SetupForm />}</LoadState>
    </PlainLayout>
  );
}

mountPage(<SetupPage />);
