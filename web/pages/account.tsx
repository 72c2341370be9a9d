// /account: the signed-in user's own password, email and account (every change asks for the current
// password; a changed password, or an email changed by its mailed link, ends the user's other
// sessions), `Confirm email` while the email is unconfirmed, and its email reports:
// per site, `Weekly report` and `Monthly report`, and `Send a test report`: last week's report mailed
// to the user now (no subscription needed, none changed).
import { useState } from 'preact/hooks';
import { setCsrfToken } from '../lib/api.js';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { Layout } from '../lib/layout.js';
import { mountPage, SignedIn } from '../lib/mount.js';
import { ConfirmButton } from '../components/confirm.js';
import { ErrorText, LoadState, Notice } from '../components/feedback.js';
import { TestReport } from '../components/test-report.js';
import { CheckboxField, TextField } from '../components/fields.js';
import { FormSection } from '../components/form-section.js';
import type { ReportChoice, SessionView } from '../../src/core/management.js';

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = () =>
    action.run(async () => {
      setDone(false);
      // Answered with the new session: its CSRF token serves the changes that follow.
      setCsrfToken((await call('PUT /account/password', { body: { currentPassword: current, newPassword: next } })).csrfToken);
      setCurrent('');
      setNext('');
      setDone(true);
    });
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <FormSection title="Change password" action={action} onSubmit={submit} submitLabel="Change password" busyLabel="Changing…" hint={done && <Notice>Password changed. Your other sessions ended.</Notice>}>
        <TextField label="Current password" type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
        <TextField label="New password" type="password" autoComplete="new-password" required minLength={10} maxLength={1024} hint="At least 10 characters." value={next} onValue={setNext} />
      </FormSection>
    </section>
  );
}

/** The email changes once the link mailed to the new address is followed; `Confirm email` mails a link to the current one. */
function ChangeEmail({ session }: { session: SessionView }) {
  const [email, setEmail] = useState(session.user.email);
  const [current, setCurrent] = useState('');
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const action = useAction();
  const confirm = useAction();
  const submit = () =>
    action.run(async () => {
      setSentTo(undefined);
      setSentTo((await call('PUT /account/email', { body: { currentPassword: current, email } })).pendingEmail);
      setCurrent('');
    });
  const askConfirmation = () =>
    confirm.run(async () => {
      setSentTo((await call('POST /account/email/confirmation')).pendingEmail);
    });
  const sent = sentTo !== undefined && <Notice>A link was mailed to {sentTo}. The email changes (or is confirmed) once you follow it.</Notice>;
  return (
    <section class="card" aria-labelledby="email-title">
      <h2 id="email-title">Email</h2>
      {!session.user.emailConfirmed && (
        <p>
          Your email is not confirmed: single sign-on cannot sign you in until it is.{' '}
          <button type="button" onClick={askConfirmation} disabled={confirm.busy}>
            Confirm email
          </button>
        </p>
      )}
      {confirm.error && <ErrorText message={confirm.error} />}
      <FormSection title="Change email" action={action} onSubmit={submit} submitLabel="Change email" busyLabel="Sending…" hint={sent}>
        <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField label="Current password" type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
      </FormSection>
    </section>
  );
}

function DeleteAccount() {
  const [current, setCurrent] = useState('');
  const action = useAction();
  const remove = () =>
    action.run(async () => {
      await call('DELETE /account', { body: { currentPassword: current } });
      window.location.assign('/login');
    });
  return (
    <section class="card" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p class="muted">Your memberships and sessions end at once. The last owner of an organisation makes another member owner first.</p>
      <div class="form inline">
        <TextField label="Current password" type="password" autoComplete="current-password" value={current} onValue={setCurrent} />
        <div class="submit-cell">
          <ConfirmButton question="Delete your account? This cannot be undone." confirmLabel="Delete account" disabled={action.busy || current === ''} onConfirm={remove}>
            Delete account
          </ConfirmButton>
        </div>
      </div>
      <ErrorText message={action.error} />
    </section>
  );
}

function SiteReports({ row, configured }: { row: ReportChoice; configured: boolean }) {
  const [choice, setChoice] = useState({ weekly: row.weekly, monthly: row.monthly });
  const save = useAction();
  const change = (next: typeof choice) =>
    save.run(async () => {
      setChoice(next);
      setChoice(await call('PUT /account/digests/:siteId', { params: { siteId: row.siteId }, body: next }));
    });
  return (
    <fieldset class="reports">
      <legend>
        {row.name} <span class="muted">{row.domain}</span>
      </legend>
      <CheckboxField label="Weekly report" hint="Mondays at 08:00, for the previous week." checked={choice.weekly} onChecked={(weekly) => change({ ...choice, weekly })} />
      <CheckboxField label="Monthly report" hint="The 1st at 08:00, for the previous month." checked={choice.monthly} onChecked={(monthly) => change({ ...choice, monthly })} />
      <ErrorText message={save.error} />
      <TestReport siteId={row.siteId} name={row.name} configured={configured} />
    </fieldset>
  );
}

function EmailReports() {
  const reports = useRead(() => call('GET /account/digests'));
  return (
    <section class="card" aria-labelledby="reports-title">
      <h2 id="reports-title">Email reports</h2>
      <LoadState state={reports}>
        {({ configured, sites }) => (
          <>
            {!configured && <p class="muted">This service sends no mail yet: its operator sets SVC_SMTP_URL and SVC_PUBLIC_URL. Your choices are kept.</p>}
            {sites.length === 0 ? <p class="muted">No sites yet.</p> : sites.map((row) => <SiteReports key={row.siteId} row={row} configured={configured} />)}
          </>
        )}
      </LoadState>
    </section>
  );
}

function AccountPage({ session }: { session: SessionView }) {
  return (
    <Layout session={session} title="Account">
      <p>
        Signed in as <strong>{session.user.email}</strong>. Two-factor sign-in is {session.twoFactor.enabled ? 'on' : 'off'}: <a href="/account/security">Security</a>.
      </p>
      <ChangePassword />
      <ChangeEmail session={session} />
      <EmailReports />
      <DeleteAccount />
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <AccountPage session={session} />}</SignedIn>);
