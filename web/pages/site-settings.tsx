// /sites/:siteId/settings: name, time zone, retention, raw events and GPC; the tracker snippet; goals; funnels;
// alert rules; reports; shared links; imports and export; archive. One section at a time, picked in a side
// menu (a list at the top on a phone) and named by the address's hash, so that a section is a link.
// Admins and owners only (the server refuses the rest with 403).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
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
import { RawDaysField } from '../components/raw-days.js';
import { EmailReportsState, SharedLinks } from '../components/shared-links.js';
import { TimezoneField } from '../components/timezone.js';
import { roleAtLeast } from '../../src/core/vocabulary.js';
import type { ManagedSite, SessionView } from '../../src/core/management.js';

function General({ site, onSaved }: { site: ManagedSite; onSaved(site: ManagedSite): void }) {
  const [name, setName] = useState(site.name);
  const [timezone, setTimezone] = useState(site.timezone);
  const [retention, setRetention] = useState(site.retentionMonths === null ? '' : String(site.retentionMonths));
  const [rawDays, setRawDays] = useState(site.rawDays);
  const [honorGpc, setHonorGpc] = useState(site.honorGpc);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      setSaved(false);
      const retentionMonths = retention.trim() === '' ? null : Number(retention);
      onSaved(await call('PATCH /manage/sites/:siteId', { params: { siteId: site.id }, body: { name, timezone, retentionMonths, rawDays, honorGpc } }));
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
        <RawDaysField days={rawDays} onDays={setRawDays} note="Shortening it deletes the older single events within the hour." />
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
  const snippet = useRead(() => call('GET /manage/sites/:siteId/snippet', { params: { siteId } }), [siteId]);
  return (
    <section class="card" id="snippet" aria-labelledby="snippet-title">
      <h2 id="snippet-title">Tracker snippet</h2>
      <p class="muted">Paste it into the &lt;head&gt; of every page of the site.</p>
      <LoadState state={snippet}>{({ snippet: text }) => <CopyBlock text={text} label="Tracker snippet" />}</LoadState>
      <p class="muted">
        To measure web vitals (LCP, INP, CLS, TTFB) for the pages' <em>Web vitals</em> view, add <code>data-vitals</code> to the tag: it then loads a second small
        script.
      </p>
    </section>
  );
}

function Archive({ site, onSaved }: { site: ManagedSite; onSaved(site: ManagedSite): void }) {
  const change = useAction();
  const setStatus = (status: ManagedSite['status']) => change.run(async () => onSaved(await call('PATCH /manage/sites/:siteId', { params: { siteId: site.id }, body: { status } })));
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

/** The sections of the page, in the menu's order; the first is shown when the hash names none. */
const SECTIONS = [
  { id: 'general', label: 'General' },
  { id: 'goals', label: 'Goals' },
  { id: 'funnels', label: 'Funnels' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'reports', label: 'Reports' },
  { id: 'shared-links', label: 'Shared links' },
  { id: 'imports', label: 'Imports and export' },
  { id: 'danger', label: 'Danger zone' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

const hashSection = (): SectionId => SECTIONS.find((s) => `#${s.id}` === window.location.hash)?.id ?? 'general';

/** The section the address's hash names, followed as the hash changes (menu links, back and forward). */
function useSection(): SectionId {
  const [section, setSection] = useState(hashSection);
  useEffect(() => {
    const follow = () => setSection(hashSection());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return section;
}

function SectionMenu({ current }: { current: SectionId }) {
  return (
    <nav class="section-menu" aria-label="Settings sections">
      <ul>
        {SECTIONS.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`} aria-current={s.id === current ? 'page' : undefined}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Settings({ session, siteId }: { session: SessionView; siteId: string }) {
  const loaded = useRead(async () => {
    const listed = (await call('GET /sites')).sites.find((row) => row.id === siteId);
    if (listed && !roleAtLeast(listed.role, 'admin')) return { listed, denied: true as const };
    const [site, { goals }] = await Promise.all([call('GET /manage/sites/:siteId', { params: { siteId } }), call('GET /manage/sites/:siteId/goals', { params: { siteId } })]);
    return { site, listed, goals, denied: false as const };
  }, [siteId]);
  const [site, setSite] = useState<ManagedSite | undefined>(undefined);
  const section = useSection();
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
                <div class="settings">
                  <SectionMenu current={section} />
                  <div class="settings-body">
                    {(
                      {
                        general: () => (
                          <>
                            <General site={current} onSaved={setSite} />
                            <Snippet siteId={siteId} />
                          </>
                        ),
                        goals: () => <Goals siteId={siteId} goals={data.goals} reload={loaded.reload} />,
                        funnels: () => <Funnels siteId={siteId} />,
                        alerts: () => <AlertRules siteId={siteId} goals={data.goals} timeZone={current.timezone} />,
                        reports: () => <EmailReportsState siteId={siteId} siteName={current.name} />,
                        'shared-links': () => <SharedLinks siteId={siteId} />,
                        imports: () => <Imports siteId={siteId} />,
                        danger: () => <Archive site={current} onSaved={setSite} />,
                      } satisfies Record<SectionId, () => ComponentChildren>
                    )[section]()}
                  </div>
                </div>
              </>
            )
          )
        }
      </LoadState>
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <Settings session={session} siteId={pathSegment(1)} />}</SignedIn>);
