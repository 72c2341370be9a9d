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
import { OnDemand } from '../components/on-demand.js';
import { RawDaysField } from '../components/raw-days.js';
import { EmailReportsState, SharedLinks } from '../components/shared-links.js';
import { TimezoneField } from '../components/timezone.js';
import { fill, fillNodes } from '../lib/i18n.js';
import { frameText } from '../lib/text/frame.js';
import { siteSettingsText } from '../lib/text/site-settings.js';
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
      <h2 id="general-title">{siteSettingsText.sections.general}</h2>
      <Form onSubmit={submit} label={siteSettingsText.generalSettings}>
        <TextField label={siteSettingsText.nameLabel} required value={name} onValue={setName} />
        <TimezoneField value={timezone} onValue={setTimezone} />
        <TextField
          label={siteSettingsText.retentionLabel}
          type="number"
          min={1}
          value={retention}
          onValue={setRetention}
          hint={siteSettingsText.retentionHint}
        />
        <RawDaysField days={rawDays} onDays={setRawDays} note={siteSettingsText.rawDaysNote} />
        <CheckboxField label={siteSettingsText.honourGpc} checked={honorGpc} onChecked={setHonorGpc} hint={siteSettingsText.gpcHint} />
        <div class="actions">
          <SubmitButton busy={save.busy} busyLabel={siteSettingsText.saving}>
            {frameText.saveButton}
          </SubmitButton>
          {saved && <Notice>{siteSettingsText.savedNote}</Notice>}
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
      <h2 id="snippet-title">{siteSettingsText.snippetTitle}</h2>
      <p class="muted">{siteSettingsText.snippetHint}</p>
      <LoadState state={snippet}>{({ snippet: text }) => <CopyBlock text={text} label={siteSettingsText.snippetTitle} />}</LoadState>
      <p class="muted">
        {fillNodes(siteSettingsText.vitalsHint, { view: <em>{siteSettingsText.vitalsView}</em>, attribute: <code>data-vitals</code> })}
      </p>
    </section>
  );
}

function Archive({ site, onSaved }: { site: ManagedSite; onSaved(site: ManagedSite): void }) {
  const change = useAction();
  const setStatus = (status: ManagedSite['status']) => change.run(async () => onSaved(await call('PATCH /manage/sites/:siteId', { params: { siteId: site.id }, body: { status } })));
  return (
    <section class="card" id="archive" aria-labelledby="archive-title">
      <h2 id="archive-title">{siteSettingsText.archiveTitle}</h2>
      {site.status === 'active' ? (
        <>
          <p class="muted">{siteSettingsText.archiveHint}</p>
          <ConfirmButton question={fill(siteSettingsText.archiveQuestion, { domain: site.domain })} confirmLabel={siteSettingsText.archiveSite} onConfirm={() => setStatus('archived')} disabled={change.busy}>
            {siteSettingsText.archiveSite}
          </ConfirmButton>
        </>
      ) : (
        <>
          <p>{siteSettingsText.archivedNote}</p>
          <button type="button" onClick={() => setStatus('active')} disabled={change.busy}>
            {siteSettingsText.restoreSite}
          </button>
        </>
      )}
      <ErrorText message={change.error} />
    </section>
  );
}

const loadImports = () => import('../components/imports-section.js');

/** The sections of the page, in the menu's order; the first is shown when the hash names none. */
const SECTIONS = ['general', 'goals', 'funnels', 'alerts', 'reports', 'shared-links', 'imports', 'danger'] as const;
type SectionId = (typeof SECTIONS)[number];

const hashSection = (): SectionId => SECTIONS.find((id) => `#${id}` === window.location.hash) ?? 'general';

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
    <nav class="section-menu" aria-label={siteSettingsText.sectionsNav}>
      <ul>
        {SECTIONS.map((id) => (
          <li key={id}>
            <a href={`#${id}`} aria-current={id === current ? 'page' : undefined}>
              {siteSettingsText.sections[id]}
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
    <Layout session={session} title={current ? fill(siteSettingsText.pageTitle, { name: current.name }) : siteSettingsText.untitledPage} crumbs={crumbs}>
      <LoadState state={loaded}>
        {(data) =>
          data.denied ? (
            <p class="error" role="alert">
              {fillNodes(siteSettingsText.viewerDenied, { org: data.listed.orgName, back: <a href={`/sites/${encodeURIComponent(siteId)}`}>{siteSettingsText.backToDashboard}</a> })}
            </p>
          ) : (
            current && (
              <>
                <p class="muted">
                  {current.domain} · {siteSettingsText.siteIdWord} <code>{current.id}</code>
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
                        imports: () => <OnDemand load={loadImports}>{({ Imports }) => <Imports siteId={siteId} />}</OnDemand>,
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
