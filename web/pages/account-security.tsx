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
import { pageLocale } from '../lib/i18n.js';
import { plural } from '../../src/core/messages/language.js';
import { signInText } from '../lib/text/sign-in.js';
import type { SessionView, TwoFactorSetup, TwoFactorStatus } from '../../src/core/management.js';

/** The secret in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <div class="secret" role="region" aria-label={signInText.recoveryCodes}>
      <p>
        {signInText.twoFactorOn} {signInText.keepCodes}
      </p>
      <CopyBlock text={codes.join('\n')} label={signInText.recoveryCodes} />
      <button type="button" onClick={onDone}>
        {signInText.doneButton}
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
        <p>{signInText.twoFactorOff}</p>
        <button type="button" class="primary" disabled={start.busy} onClick={() => start.run(async () => setSetup(await call('POST /account/two-factor/setup')))}>
          {signInText.enableTwoFactor}
        </button>
        <ErrorText message={start.error} />
      </>
    );
  }
  const submit = () =>
    confirm.run(async () => onEnabled((await call('POST /account/two-factor/confirm', { body: { code, currentPassword: password } })).recoveryCodes));
  return (
    <>
      <p>{signInText.scanCode}</p>
      <img class="qr" width="200" height="200" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt={signInText.qrAlt} />
      <p>
        {signInText.keyLabel} <code class="secret-text">{grouped(setup.secret)}</code>
      </p>
      <FormSection title={signInText.confirmCode} label={signInText.confirmTwoFactor} action={confirm} onSubmit={submit} submitLabel={signInText.confirmButton} busyLabel={signInText.confirming}>
        <TextField label={signInText.codeField} autoComplete="one-time-code" required maxLength={6} spellcheck={false} value={code} onValue={setCode} />
        <TextField label={signInText.currentPassword} type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
      </FormSection>
    </>
  );
}

function Disable({ status, onDisabled }: { status: TwoFactorStatus; onDisabled(): void }) {
  const left = status.recoveryCodesLeft;
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
        {signInText.twoFactorOn} {plural(signInText.codesLeft, left, pageLocale(), { n: left.toLocaleString(pageLocale()) })} {left < 3 && signInText.fewCodesLeft}
      </p>
      <h3>{signInText.disableTwoFactor}</h3>
      <Form onSubmit={submit} class="form inline" label={signInText.disableTwoFactor}>
        <TextField label={signInText.codeField} hint={signInText.disableCodeHint} autoComplete="one-time-code" required maxLength={64} spellcheck={false} value={code} onValue={setCode} />
        <div class="submit-cell">
          <SubmitButton busy={action.busy} busyLabel={signInText.disabling}>
            {signInText.disableTwoFactor}
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
    <Layout session={session} title={signInText.securityTitle} crumbs={[{ href: '/account', label: signInText.accountCrumb }]}>
      {required && !codes && (
        <p class="notice" role="status">
          {signInText.twoFactorRequired}
        </p>
      )}
      <section class="card" aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">{signInText.twoFactorTitle}</h2>
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
