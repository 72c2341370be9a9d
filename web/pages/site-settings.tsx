// /sites/:siteId/settings: name, time zone, retention, raw events and GPC; the tracker snippet; goals; funnels;
// alert rules; imports and export; archive. Admins and owners only (the server refuses the rest with 403).
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useAction, useLoad } from '../lib/hooks.js';
import { Layout, type Crumb } from '../lib/layout.js';
import { mountPage, pathSegment, SignedIn } from '../lib/mount.js';
import { AlertRules } from '../components/alert-rules.js';
import { ConfirmButton } from '../components/confirm.js';
import { CopyBlock } from '../components/copy.js';
import { ErrorText, LoadState, Notice } from '../components/feedback.js';
import { CheckboxField, Form, SubmitButton, TextField } from '../components/fields.js';
import { Funnels } from '../components/funnels.js';
import { Goals } from '../components/goals.js';
import { Imports } from '../components/imports.js';
import { EmailReportsState, SharedLinks } from '../components/shared-links.js';
import { TimezoneField } from '../components/timezone.js';
import { RAW_DAYS, roleAtLeast } from '../../src/core/vocabulary.js';
import type { ManagedGoal, ManagedSite, SessionView, SiteRow } from '../../src/core/management.js';

function General({ site, onSaved }: { site: ManagedSite; onSaved(site: ManagedSite): void }) {
  const [name, setName] = useState(site.name);
  const [timezone, setTimezone] = useState(site.timezone);
  const [retention, setRetention] = useState(site.retentionMonths === null ? '' : String(site.retentionMonths));
  const [rawDays, setRawDays] = useState(String(site.rawDays));
  const [honorGpc, setHonorGpc] = useState(site.honorGpc);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      setSaved(false);
      const retentionMonths = retention.trim() === '' ? null : Number(retention);
      onSaved(await api<ManagedSite>('PATCH', `/manage/sites/${encodeURIComponent(site.id)}`, { name, timezone, retentionMonths, rawDays: Number(rawDays), honorGpc }));
      setSaved(true);
    });
  return (
    <section class="card" id="general" aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <Form onSubmit={submit} label="General settings">
        <TextField label="Name" required value={name} onValue={setName} />
        <TimezoneField value={timezone} onValue={setTimezone} />
        <TextField
          label="Retention (months)"
          type="number"
          min={1}
          value={retention}
          onValue={setRetention}
          hint="Everything older than this is deleted: events and daily figures alike. Empty keeps the daily figures for ever."
        />
        <TextField
          label="Raw events (days)"
          type="number"
          required
          min={RAW_DAYS.min}
          max={RAW_DAYS.max}
          value={rawDays}
          onValue={setRawDays}
          hint={`Single events are kept this many days (${RAW_DAYS.min} to ${RAW_DAYS.max}), so that any combination of filters answers over them; older days keep their daily figures, which answer one filter at a time. Lowering it deletes the older events within the hour.`}
        />
        <CheckboxField label="Honour Global Privacy Control" checked={honorGpc} onChecked={setHonorGpc} hint="Visits from browsers that send Sec-GPC: 1 are not recorded." />
        <div class="actions">
          <SubmitButton busy={save.busy} busyLabel="Saving…">
            Save
          </SubmitButton>
          {saved && <Notice>Saved.</Notice>}
        </div>
        <ErrorText message={save.error} />
      </Form>
    </section>
  );
}

function Snippet({ siteId }: { siteId: string }) {
  const snippet = useLoad(() => api<{ snippet: string }>('GET', `/manage/sites/${encodeURIComponent(siteId)}/snippet`), [siteId]);
  return (
    <section class="card" id="snippet" aria-labelledby="snippet-title">
      <h2 id="snippet-title">Tracker snippet</h2>
      <p class="muted">Paste it into the &lt;head&gt; of every page of the site.</p>
      <LoadState state={snippet}>{({ snippet: text }) => <CopyBlock text={text} label="Tracker snippet" />}</LoadState>
    </section>
  );
}

function Archive({ site, onSaved }: { site: ManagedSite; onSaved(site: ManagedSite): void }) {
  const change = useAction();
  const setStatus = (status: ManagedSite['status']) => change.run(async () => onSaved(await api<ManagedSite>('PATCH', `/manage/sites/${encodeURIComponent(site.id)}`, { status })));
  return (
    <section class="card" id="archive" aria-labelledby="archive-title">
      <h2 id="archive-title">Archive</h2>
      {site.status === 'active' ? (
        <>
          <p class="muted">An archived site stops collecting and leaves the site list; its data stays until you restore it.</p>
          <ConfirmButton question={`Archive ${site.domain}? It stops collecting events at once.`} confirmLabel="Archive site" onConfirm={() => setStatus('archived')} disabled={change.busy}>
            Archive site
          </ConfirmButton>
        </>
      ) : (
        <>
          <p>This site is archived: it collects nothing.</p>
          <button type="button" onClick={() => setStatus('active')} disabled={change.busy}>
            Restore site
          </button>
        </>
      )}
      <ErrorText message={change.error} />
    </section>
  );
}

function Settings({ session, siteId }: { session: SessionView; siteId: string }) {
  const loaded = useLoad(async () => {
    const sitePath = `/manage/sites/${encodeURIComponent(siteId)}`;
    const listed = (await api<{ sites: SiteRow[] }>('GET', '/sites')).sites.find((row) => row.id === siteId);
    if (listed && !roleAtLeast(listed.role, 'admin')) return { listed, denied: true as const };
    const [site, { goals }] = await Promise.all([api<ManagedSite>('GET', sitePath), api<{ goals: ManagedGoal[] }>('GET', `${sitePath}/goals`)]);
    return { site, listed, goals, denied: false as const };
  }, [siteId]);
  const [site, setSite] = useState<ManagedSite | undefined>(undefined);
  const current = site ?? (loaded.data?.denied === false ? loaded.data.site : undefined);
  const listed = loaded.data?.listed;
  const crumbs: Crumb[] = [];
  if (listed) {
    if (roleAtLeast(listed.role, 'admin')) crumbs.push({ href: `/orgs/${listed.orgId}/settings`, label: listed.orgName });
    crumbs.push({ href: `/sites/${encodeURIComponent(siteId)}`, label: listed.name });
  }
  return (
    <Layout session={session} title={current ? `${current.name} settings` : 'Site settings'} crumbs={crumbs}>
      <LoadState state={loaded}>
        {(data) =>
          data.denied ? (
            <p class="error" role="alert">
              Your role in {data.listed.orgName} is viewer: settings are for admins and owners. <a href={`/sites/${encodeURIComponent(siteId)}`}>Back to the dashboard</a>.
            </p>
          ) : (
            current && (
            <>
              <p class="muted">
                {current.domain} · site id <code>{current.id}</code>
              </p>
              <General site={current} onSaved={setSite} />
              <Snippet siteId={siteId} />
              <Goals siteId={siteId} goals={data.goals} reload={loaded.reload} />
              <Funnels siteId={siteId} />
              <AlertRules siteId={siteId} goals={data.goals} timeZone={current.timezone} />
              <SharedLinks siteId={siteId} />
              <EmailReportsState siteId={siteId} />
              <Imports siteId={siteId} />
              <Archive site={current} onSaved={setSite} />
            </>
            )
          )
        }
      </LoadState>
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <Settings session={session} siteId={pathSegment(1)} />}</SignedIn>);
