// A site's shared links and the state of its email reports (with `Send a test report`) on its settings page. Shared links: `Create link` (optional `Password`, `Expires` day,
// `Filters` locked on the link, `Embed domains`) shows the new link once with `Copy`; each link is
// listed with its filters, expiry and last use, and `Revoke`.
import { useId, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction, useRead } from '../lib/hooks.js';
import { ConfirmButton } from './confirm.js';
import { ShownOnce } from './shown-once.js';
import { ErrorText, LoadState } from './feedback.js';
import { CheckboxField, Form, SubmitButton, TextField } from './fields.js';
import { WideTable } from './table.js';
import { TestReport } from './test-report.js';

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
      <ShownOnce region="Shared link" text={shown.url} label="Shared link" onDone={() => setShown(undefined)}>
        Anyone with this link sees the site's dashboard, read only. It is shown only now. For an iframe on the embed domains, add <code>?embed=1</code>.
      </ShownOnce>
    );
  }
  return (
    <>
      <h3>Create link</h3>
      <Form onSubmit={submit} class="form" label="Create a shared link">
        <TextField label="Password" type="password" autoComplete="new-password" hint="Optional; at least 10 characters." value={password} onValue={setPassword} />
        <div class="field">
          <label for={expiresId}>Expires</label>
          <input id={expiresId} type="date" value={expiresOn} onInput={(event) => setExpiresOn(event.currentTarget.value)} aria-describedby={`${expiresId}-hint`} />
          <small id={`${expiresId}-hint`} class="hint">
            Optional: the last day the link works, in the site's time zone.
          </small>
        </div>
        <LinesField label="Filters" hint="Optional, one a line: <dimension>:<value>, such as page:/pricing or country:FR (exact values, as the read API filters), or a page pattern such as page:/blog/** (* within a path segment, ** across segments; read from single events, so periods within the site's raw-event days). Locked on the link." value={filters} onValue={setFilters} />
        <LinesField label="Embed domains" hint="Optional, one a line: the sites whose pages may show the link in an iframe, such as example.com." value={domains} onValue={setDomains} />
        <ErrorText message={create.error} />
        <SubmitButton busy={create.busy} busyLabel="Creating…">
          Create link
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
      <h2 id="email-reports-title">Email reports</h2>
      <LoadState state={state}>
        {(s) => (
          <>
            <dl class="facts">
              <dt>Mail</dt>
              <dd>{s.configured ? 'Configured' : 'Not configured: the operator sets SVC_SMTP_URL and SVC_PUBLIC_URL.'}</dd>
              <dt>Last sent</dt>
              <dd>{s.lastSentAt === null ? 'Never' : formatInstant(s.lastSentAt)}</dd>
              <dt>Last error</dt>
              <dd>{s.lastError === null ? 'None' : `${formatInstant(s.lastError.at)}: ${s.lastError.message}`}</dd>
              <dt>Waiting</dt>
              <dd>{s.pending}</dd>
            </dl>
            <TestReport siteId={siteId} name={siteName} configured={s.configured} />
          </>
        )}
      </LoadState>
      <p class="muted">
        Members choose their reports on their <a href="/account">account page</a>.
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
      <h3>Report webhooks</h3>
      <LoadState state={hooks}>
        {({ webhooks }) => (
          <WideTable
            class="stack"
            columns={['Webhook', 'Reports', 'Delete']}
            rows={webhooks}
            empty={<p class="muted">No report webhooks.</p>}
            row={(hook) => (
              <tr key={hook.id}>
                <td class="wrap">{hook.url}</td>
                <td>{[hook.weekly && 'weekly', hook.monthly && 'monthly'].filter(Boolean).join(', ') || 'none'}</td>
                <td>
                  <ConfirmButton label={`Delete webhook ${hook.id}`} question={`Delete the report webhook ${hook.url}?`} confirmLabel="Delete" disabled={remove.busy} onConfirm={() => remove.run(() => call('DELETE /manage/sites/:siteId/digest-webhooks/:webhookId', { params: { siteId, webhookId: hook.id } })).then(hooks.reload)}>
                    Delete
                  </ConfirmButton>
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={remove.error} />
      <Form onSubmit={submit} class="form" label="Add a report webhook">
        <TextField label="Webhook URL" type="url" required hint="HTTPS; a Slack incoming webhook gets Slack's message format, any other URL signed JSON." value={url} onValue={setUrl} />
        <TextField label="Signing secret" type="password" autoComplete="off" required value={secret} onValue={setSecret} />
        <CheckboxField label="Weekly report" checked={weekly} onChecked={setWeekly} />
        <CheckboxField label="Monthly report" checked={monthly} onChecked={setMonthly} />
        <ErrorText message={add.error} />
        <SubmitButton busy={add.busy} busyLabel="Adding…">
          Add webhook
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
      <h2 id="shared-links-title">Shared links</h2>
      <LoadState state={links}>
        {({ sharedLinks }) => (
          <WideTable
            class="stack"
            columns={['Link', 'Filters', 'Expires', 'Last use', 'Revoke']}
            rows={sharedLinks}
            empty={<p class="muted">No shared links.</p>}
            row={(link) => (
              <tr key={link.id}>
                <td>
                  Link {link.id}
                  {link.hasPassword && <div class="muted">with a password</div>}
                  {link.embedDomains.length > 0 && <div class="muted">embed: {link.embedDomains.join(', ')}</div>}
                </td>
                <td>{link.filters.length > 0 ? link.filters.join(', ') : <span class="muted">none</span>}</td>
                <td>{link.expiresAt === null ? <span class="muted">never</span> : formatInstant(link.expiresAt)}</td>
                <td>{link.lastUsedAt === null ? <span class="muted">never used</span> : formatInstant(link.lastUsedAt)}</td>
                <td>
                  <ConfirmButton
                    label={`Revoke link ${link.id}`}
                    question={`Revoke link ${link.id}? It stops working at once.`}
                    confirmLabel="Revoke"
                    disabled={revoke.busy}
                    onConfirm={() => revoke.run(() => call('DELETE /manage/sites/:siteId/shared-links/:linkId', { params: { siteId, linkId: link.id } })).then(links.reload)}
                  >
                    Revoke
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
