// A site's shared links and the state of its email reports (with `Send a test report`) on its settings page. Shared links: `Create link` (optional `Password`, `Expires` day,
// `Filters` locked on the link, `Embed domains`) shows the new link once with `Copy`; each link is
// listed with its filters, expiry and last use, and `Revoke`.
import { useId, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { formatCount } from '../lib/format.js';
import { useAction, useRead } from '../lib/hooks.js';
import { ConfirmButton } from './confirm.js';
import { ShownOnce } from './shown-once.js';
import { ErrorText, LoadState } from './feedback.js';
import { CheckboxField, Form, SubmitButton, TextField } from './fields.js';
import { WideTable } from './table.js';
import { TestReport } from './test-report.js';
import { fill } from '../lib/i18n.js';
import { fillNodes } from '../lib/i18n.js';
import { reportsText } from '../lib/text/reports.js';
import { siteSettingsText } from '../lib/text/site-settings.js';

/** One entry a line, blank lines dropped. */
export const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A text area of entries, one a line (read with `lines`). */
export function LinesField({ label, hint, value, onValue }: { label: string; hint: string; value: string; onValue(value: string): void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={2} spellcheck={false} value={value} onInput={(event) => onValue(event.currentTarget.value)} aria-describedby={`${id}-hint`} />
      <small id={`${id}-hint`} class="hint">
        {hint}
      </small>
    </div>
  );
}

function CreateLink({ siteId, onCreated }: { siteId: string; onCreated(): void }) {
  const [password, setPassword] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [filters, setFilters] = useState('');
  const [domains, setDomains] = useState('');
  const [shown, setShown] = useState<{ url: string; embedUrl: string } | undefined>(undefined);
  const create = useAction();
  const expiresId = useId();
  const submit = () =>
    create.run(async () => {
      const body = {
        ...(password === '' ? {} : { password }),
        ...(expiresOn === '' ? {} : { expiresOn }),
        filters: lines(filters),
        embedDomains: lines(domains),
      };
      setShown(await call('POST /manage/sites/:siteId/shared-links', { params: { siteId }, body }));
      setPassword('');
      setExpiresOn('');
      setFilters('');
      setDomains('');
      onCreated();
    });
  if (shown) {
    return (
      <ShownOnce region={siteSettingsText.sharedLinkLabel} text={shown.url} label={siteSettingsText.sharedLinkLabel} onDone={() => setShown(undefined)}>
        {fillNodes(siteSettingsText.linkShownOnce, { param: <code>?embed=1</code> })}
      </ShownOnce>
    );
  }
  return (
    <>
      <h3>{siteSettingsText.createLink}</h3>
      <Form onSubmit={submit} class="form" label={siteSettingsText.createSharedLink}>
        <TextField label={siteSettingsText.linkPassword} type="password" autoComplete="new-password" hint={siteSettingsText.passwordHint} value={password} onValue={setPassword} />
        <div class="field">
          <label for={expiresId}>{siteSettingsText.expires}</label>
          <input id={expiresId} type="date" value={expiresOn} onInput={(event) => setExpiresOn(event.currentTarget.value)} aria-describedby={`${expiresId}-hint`} />
          <small id={`${expiresId}-hint`} class="hint">
            {siteSettingsText.expiresHint}
          </small>
        </div>
        <LinesField label={siteSettingsText.filtersLabel} hint={siteSettingsText.filtersHint} value={filters} onValue={setFilters} />
        <LinesField label={siteSettingsText.embedDomainsLabel} hint={siteSettingsText.embedDomainsHint} value={domains} onValue={setDomains} />
        <ErrorText message={create.error} />
        <SubmitButton busy={create.busy} busyLabel={siteSettingsText.creating}>
          {siteSettingsText.createLink}
        </SubmitButton>
      </Form>
    </>
  );
}

/** The state of the site's email reports: the last one mailed, the last failure, those waiting. */
export function EmailReportsState({ siteId, siteName }: { siteId: string; siteName: string }) {
  const state = useRead(() => call('GET /manage/sites/:siteId/digests', { params: { siteId } }), [siteId]);
  return (
    <section class="card" id="email-reports" aria-labelledby="email-reports-title">
      <h2 id="email-reports-title">{reportsText.emailReports}</h2>
      <LoadState state={state}>
        {(s) => (
          <>
            <dl class="facts">
              <dt>{siteSettingsText.mailTerm}</dt>
              <dd>{s.configured ? siteSettingsText.mailConfigured : siteSettingsText.mailNotConfigured}</dd>
              <dt>{siteSettingsText.lastSent}</dt>
              <dd>{s.lastSentAt === null ? siteSettingsText.neverSent : formatInstant(s.lastSentAt)}</dd>
              <dt>{siteSettingsText.lastErrorTerm}</dt>
              <dd>{s.lastError === null ? siteSettingsText.noError : `${formatInstant(s.lastError.at)}: ${s.lastError.message}`}</dd>
              <dt>{siteSettingsText.waitingTerm}</dt>
              <dd>{formatCount(s.pending)}</dd>
            </dl>
            <TestReport siteId={siteId} name={siteName} configured={s.configured} />
          </>
        )}
      </LoadState>
      <p class="muted">
        {fillNodes(siteSettingsText.membersChoose, { link: <a href="/account">{siteSettingsText.accountPage}</a> })}
      </p>
      <ReportWebhooks siteId={siteId} />
    </section>
  );
}

/** Webhooks that receive the site's reports: signed JSON, or Slack's format for a Slack URL. */
function ReportWebhooks({ siteId }: { siteId: string }) {
  const hooks = useRead(() => call('GET /manage/sites/:siteId/digest-webhooks', { params: { siteId } }), [siteId]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [weekly, setWeekly] = useState(true);
  const [monthly, setMonthly] = useState(false);
  const add = useAction();
  const remove = useAction();
  const submit = () =>
    add.run(async () => {
      await call('POST /manage/sites/:siteId/digest-webhooks', { params: { siteId }, body: { url, secret, weekly, monthly } });
      setUrl('');
      setSecret('');
      hooks.reload();
    });
  return (
    <>
      <h3>{siteSettingsText.reportWebhooksTitle}</h3>
      <LoadState state={hooks}>
        {({ webhooks }) => (
          <WideTable
            class="stack"
            columns={[siteSettingsText.webhookColumn, siteSettingsText.sections.reports, siteSettingsText.deleteButton]}
            rows={webhooks}
            empty={<p class="muted">{siteSettingsText.noReportWebhooks}</p>}
            row={(hook) => (
              <tr key={hook.id}>
                <td class="wrap">{hook.url}</td>
                <td>{[hook.weekly && siteSettingsText.weeklyWord, hook.monthly && siteSettingsText.monthlyWord].filter(Boolean).join(', ') || siteSettingsText.noneWord}</td>
                <td>
                  <ConfirmButton label={fill(siteSettingsText.deleteWebhookOf, { id: hook.id })} question={fill(siteSettingsText.deleteWebhookQuestion, { url: hook.url })} confirmLabel={siteSettingsText.deleteButton} disabled={remove.busy} onConfirm={() => remove.run(() => call('DELETE /manage/sites/:siteId/digest-webhooks/:webhookId', { params: { siteId, webhookId: hook.id } })).then(hooks.reload)}>
                    {siteSettingsText.deleteButton}
                  </ConfirmButton>
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={remove.error} />
      <Form onSubmit={submit} class="form" label={siteSettingsText.addReportWebhook}>
        <TextField label={siteSettingsText.webhookUrl} type="url" required hint={siteSettingsText.webhookUrlHint} value={url} onValue={setUrl} />
        <TextField label={siteSettingsText.signingSecret} type="password" autoComplete="off" required value={secret} onValue={setSecret} />
        <CheckboxField label={reportsText.weeklyReport} checked={weekly} onChecked={setWeekly} />
        <CheckboxField label={reportsText.monthlyReport} checked={monthly} onChecked={setMonthly} />
        <ErrorText message={add.error} />
        <SubmitButton busy={add.busy} busyLabel={siteSettingsText.adding}>
          {siteSettingsText.addWebhook}
        </SubmitButton>
      </Form>
    </>
  );
}

export function SharedLinks({ siteId }: { siteId: string }) {
  const links = useRead(() => call('GET /manage/sites/:siteId/shared-links', { params: { siteId } }), [siteId]);
  const revoke = useAction();
  return (
    <section class="card" id="shared-links" aria-labelledby="shared-links-title">
      <h2 id="shared-links-title">{siteSettingsText.sections['shared-links']}</h2>
      <LoadState state={links}>
        {({ sharedLinks }) => (
          <WideTable
            class="stack"
            columns={[siteSettingsText.linkColumn, siteSettingsText.filtersLabel, siteSettingsText.expires, siteSettingsText.lastUse, siteSettingsText.revokeButton]}
            rows={sharedLinks}
            empty={<p class="muted">{siteSettingsText.noSharedLinks}</p>}
            row={(link) => (
              <tr key={link.id}>
                <td>
                  {fill(siteSettingsText.linkOf, { id: link.id })}
                  {link.hasPassword && <div class="muted">{siteSettingsText.withPassword}</div>}
                  {link.embedDomains.length > 0 && <div class="muted">{fill(siteSettingsText.embedOn, { domains: link.embedDomains.join(', ') })}</div>}
                </td>
                <td>{link.filters.length > 0 ? link.filters.join(', ') : <span class="muted">{siteSettingsText.noneWord}</span>}</td>
                <td>{link.expiresAt === null ? <span class="muted">{siteSettingsText.neverExpires}</span> : formatInstant(link.expiresAt)}</td>
                <td>{link.lastUsedAt === null ? <span class="muted">{siteSettingsText.neverUsed}</span> : formatInstant(link.lastUsedAt)}</td>
                <td>
                  <ConfirmButton
                    label={fill(siteSettingsText.revokeLinkOf, { id: link.id })}
                    question={fill(siteSettingsText.revokeQuestion, { id: link.id })}
                    confirmLabel={siteSettingsText.revokeButton}
                    disabled={revoke.busy}
                    onConfirm={() => revoke.run(() => call('DELETE /manage/sites/:siteId/shared-links/:linkId', { params: { siteId, linkId: link.id } })).then(links.reload)}
                  >
                    {siteSettingsText.revokeButton}
                  </ConfirmButton>
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={revoke.error} />
      <CreateLink siteId={siteId} onCreated={links.reload} />
    </section>
  );
}
