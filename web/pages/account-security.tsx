// /account/security: two-factor sign-in. `Enable two-factor sign-in` shows the QR code (drawn by the
// server, never by a remote service) and the same secret as text, then `Code`, `Current password` (a
// stolen session cannot put its own authenticator on the account) and `Confirm`; the ten
// recovery codes are shown once. `Disable two-factor sign-in` asks for a current code.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { Layout } from '../lib/layout.js';
import { mountPage, SignedIn } from '../lib/mount.js';
import { CopyBlock } from '../components/copy.js';
import { ErrorText, LoadState } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import { FormSection } from '../components/form-section.js';
import type { SessionView, TwoFactorSetup, TwoFactorStatus } from '../../src/core/management.js';

/** The secret in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <div class="secret" role="region" aria-label="Recovery codes">
      <p>
        Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs in once in place of a code, if the phone is lost. They are shown only
        now.
      </p>
      <CopyBlock text={codes.join('\n')} label="Recovery codes" />
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function Enable({ onEnabled }: { onEnabled(codes: string[]): void }) {
  const [setup, setSetup] = useState<TwoFactorSetup | undefined>(undefined);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const start = useAction();
  const confirm = useAction();
  if (!setup) {
    return (
      <>
        <p>Two-factor sign-in is off. With it on, signing in also asks for a code of an authenticator app on your phone.</p>
        <button type="button" class="primary" disabled={start.busy} onClick={() => start.run(async () => setSetup(await call('POST /account/two-factor/setup')))}>
          Enable two-factor sign-in
        </button>
        <ErrorText message={start.error} />
      </>
    );
  }
  const submit = () =>
    confirm.run(async () => onEnabled((await call('POST /account/two-factor/confirm', { body: { code, currentPassword: password } })).recoveryCodes));
  return (
    <>
      <p>Scan this QR code with an authenticator app, or type the key below into it; then enter the 6-digit code it shows.</p>
      <img class="qr" width="200" height="200" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt="QR code of the two-factor key for your authenticator app" />
      <p>
        Key: <code class="secret-text">{grouped(setup.secret)}</code>
      </p>
      <FormSection title="Confirm the code" label="Confirm two-factor sign-in" action={confirm} onSubmit={submit} submitLabel="Confirm" busyLabel="Confirming…">
        <TextField label="Code" autoComplete="one-time-code" required maxLength={6} spellcheck={false} value={code} onValue={setCode} />
        <TextField label="Current password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
      </FormSection>
    </>
  );
}

function Disable({ status, onDisabled }: { status: TwoFactorStatus; onDisabled(): void }) {
  const [code, setCode] = useState('');
  const action = useAction();
  const submit = () =>
    action.run(async () => {
      await call('DELETE /account/two-factor', { body: { code } });
      onDisabled();
    });
  return (
    <>
      <p>
        Two-factor sign-in is on. {status.recoveryCodesLeft} of 10 recovery codes are left{status.recoveryCodesLeft < 3 && ': disable and enable it again for new ones'}.
      </p>
      <h3>Disable two-factor sign-in</h3>
      <Form onSubmit={submit} class="form inline" label="Disable two-factor sign-in">
        <TextField label="Code" hint="A code of your authenticator app, or a recovery code." autoComplete="one-time-code" required maxLength={64} spellcheck={false} value={code} onValue={setCode} />
        <div class="submit-cell">
          <SubmitButton busy={action.busy} busyLabel="Disabling…">
            Disable two-factor sign-in
          </SubmitButton>
        </div>
      </Form>
      <ErrorText message={action.error} />
    </>
  );
}

function SecurityPage({ session }: { session: SessionView }) {
  const status = useRead(() => call('GET /account/two-factor'));
  const [codes, setCodes] = useState<string[] | undefined>(undefined);
  const required = session.twoFactor.requiredBy.length > 0;
  return (
    <Layout session={session} title="Security" crumbs={[{ href: '/account', label: 'Account' }]}>
      {required && !codes && (
        <p class="notice" role="status">
          An organisation you are a member of requires two-factor sign-in: enable it to use the dashboard.
        </p>
      )}
      <section class="card" aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        {codes ? (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(undefined);
              if (required) window.location.assign('/');
              else status.reload();
            }}
          />
        ) : (
          <LoadState state={status}>{(s) => (s.enabled ? <Disable status={s} onDisabled={status.reload} /> : <Enable onEnabled={setCodes} />)}</LoadState>
        )}
      </section>
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <SecurityPage session={session} />}</SignedIn>);
