// /account: the signed-in user's own password, email and account (every change asks for the current
// password; a changed password, or an email changed by its mailed link, ends the user's other
// sessions), `Confirm email` while the email is unconfirmed, its language, and its email reports:
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
import { CheckboxField, SelectField, TextField } from '../components/fields.js';
import { fill, loadLanguage } from '../lib/i18n.js';
import { accountText } from '../lib/text/account.js';
import { reportsText } from '../lib/text/reports.js';
import { LANGUAGES, type Language } from '../../src/core/messages/language.js';
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
      <h2 id="password-title">{accountText.password}</h2>
      <FormSection title={accountText.changePassword} action={action} onSubmit={submit} submitLabel={accountText.changePassword} busyLabel={accountText.changing} hint={done && <Notice>{accountText.passwordChanged}</Notice>}>
        <TextField label={accountText.currentPassword} type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
        <TextField label={accountText.newPassword} type="password" autoComplete="new-password" required minLength={10} maxLength={1024} hint={accountText.atLeast10} value={next} onValue={setNext} />
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
  const sent = sentTo !== undefined && <Notice>{fill(accountText.linkMailed, { email: sentTo })}</Notice>;
  return (
    <section class="card" aria-labelledby="email-title">
      <h2 id="email-title">{accountText.email}</h2>
      {!session.user.emailConfirmed && (
        <p>
          {accountText.notConfirmed}{' '}
          <button type="button" onClick={askConfirmation} disabled={confirm.busy}>
            {accountText.confirmEmail}
          </button>
        </p>
      )}
      {confirm.error && <ErrorText message={confirm.error} />}
      <FormSection title={accountText.changeEmail} action={action} onSubmit={submit} submitLabel={accountText.changeEmail} busyLabel={accountText.sending} hint={sent}>
        <TextField label={accountText.email} type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField label={accountText.currentPassword} type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
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
      <h2 id="delete-title">{accountText.deleteAccount}</h2>
      <p class="muted">{accountText.deleteHint}</p>
      <div class="form inline">
        <TextField label={accountText.currentPassword} type="password" autoComplete="current-password" value={current} onValue={setCurrent} />
        <div class="submit-cell">
          <ConfirmButton question={accountText.deleteQuestion} confirmLabel={accountText.deleteAccount} disabled={action.busy || current === ''} onConfirm={remove}>
            {accountText.deleteAccount}
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
      <CheckboxField label={reportsText.weeklyReport} hint={accountText.weeklyHint} checked={choice.weekly} onChecked={(weekly) => change({ ...choice, weekly })} />
      <CheckboxField label={reportsText.monthlyReport} hint={accountText.monthlyHint} checked={choice.monthly} onChecked={(monthly) => change({ ...choice, monthly })} />
      <ErrorText message={save.error} />
      <TestReport siteId={row.siteId} name={row.name} configured={configured} />
    </fieldset>
  );
}

function EmailReports() {
  const reports = useRead(() => call('GET /account/digests'));
  return (
    <section class="card" aria-labelledby="reports-title">
      <h2 id="reports-title">{reportsText.emailReports}</h2>
      <LoadState state={reports}>
        {({ configured, sites }) => (
          <>
            {!configured && <p class="muted">{accountText.noMail}</p>}
            {sites.length === 0 ? <p class="muted">{accountText.noSites}</p> : sites.map((row) => <SiteReports key={row.siteId} row={row} configured={configured} />)}
          </>
        )}
      </LoadState>
    </section>
  );
}

/** A language's name in itself (`Deutsch`, `Français`), as Intl names it: what a language menu lists. */
function languageName(language: Language): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/** The account's language: saved, then the page loads again in it (every part of it, at once). */
function LanguageChoice({ session }: { session: SessionView }) {
  const [choice, setChoice] = useState<Language | ''>(session.user.language ?? '');
  const save = useAction();
  const change = (next: Language | '') =>
    save.run(async () => {
      setChoice(next);
      const { language } = await call('PUT /account/language', { body: { language: next === '' ? null : next } });
      await loadLanguage(language);
      window.location.reload();
    });
  const options: Array<[Language | '', string]> = [['', accountText.browserLanguage], ...LANGUAGES.map((l): [Language, string] => [l, languageName(l)])];
  return (
    <section class="card" aria-labelledby="language-title">
      <h2 id="language-title">{accountText.language}</h2>
      <SelectField label={accountText.language} hint={accountText.languageHint} value={choice} onValue={change} options={options} />
      <ErrorText message={save.error} />
    </section>
  );
}

function AccountPage({ session }: { session: SessionView }) {
  const [before, after = ''] = (session.twoFactor.enabled ? accountText.twoFactorOn : accountText.twoFactorOff).split('{security}');
  return (
    <Layout session={session} title={accountText.title}>
      <p>
        {accountText.signedInAs}
        <strong>{session.user.email}</strong>
        {before}
        <a href="/account/security">{accountText.security}</a>
        {after}
      </p>
      <ChangePassword />
      <ChangeEmail session={session} />
      <LanguageChoice session={session} />
      <EmailReports />
      <DeleteAccount />
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <AccountPage session={session} />}</SignedIn>);
