// /share/<token>: a site's dashboard shown through a shared link, without an account: no settings,
// no other site, no `Sign out`. The token goes to POST /app/v1/share in a body (with the link's
// password when it has one); the answer's access token then goes with every read. `Dashboard` and
// (for a link without locked filters) `Realtime` switch views in the page. `?embed=1` drops the
// page's header for an iframe.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, setShareAccess } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage, pathSegment } from '../lib/mount.js';
import { Dashboard } from '../components/site-dashboard.js';
import { RealtimeView } from '../components/realtime-view.js';
import { ErrorText, Loading } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import type { SiteRow } from '../../src/core/vocabulary.js';

interface Opened {
  access: string;
  expiresAt: number;
  site: { id: string; name: string; domain: string; timezone: string };
  filters: string[];
}

const embedded = new URLSearchParams(window.location.search).get('embed') === '1';
type View = 'dashboard' | 'realtime';
/** The view in the address: the dashboard, or (for a link without locked filters, which realtime cannot apply) `?view=realtime`. */
const viewInAddress = (): View => (new URLSearchParams(window.location.search).get('view') === 'realtime' ? 'realtime' : 'dashboard');

/** The address of a view of this link, with the address's other parameters (embed, period, filters). */
function viewHref(view: View): string {
  const params = new URLSearchParams(window.location.search);
  params.delete('view');
  if (view === 'realtime') params.set('view', 'realtime');
  const query = params.toString();
  return window.location.pathname + (query ? `?${query}` : '');
}

/** Links between the views, followed in the page: the link is not opened again (nor its password asked). */
function Tabs({ current, onView }: { current: View; onView(view: View): void }) {
  const link = (view: View, label: string) => (
    <a
      href={viewHref(view)}
      aria-current={current === view ? 'page' : undefined}
      onClick={(event) => {
        event.preventDefault();
        window.history.pushState(null, '', viewHref(view));
        onView(view);
      }}
    >
      {label}
    </a>
  );
  return (
    <nav class="tabs" aria-label="Views">
      {link('dashboard', 'Dashboard')}
      {link('realtime', 'Realtime')}
    </nav>
  );
}

/** The site as the dashboard's components take it: read-only, whatever role it would need. */
const sharedSite = (site: Opened['site']): SiteRow => ({ ...site, status: 'active', orgId: 0, orgName: '', role: 'viewer', visitors24h: 0 });

function Frame({ site, children }: { site: Opened['site']; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${site.name} · svc`;
  }, [site.name]);
  if (embedded) return <main id="content" class="embedded">{children}</main>;
  return (
    <>
      <header class="top">
        <span class="brand">svc</span>
        <span class="muted">Shared dashboard, read only</span>
      </header>
      <main id="content" tabIndex={-1}>
        <h1>
          {site.name} <span class="muted">{site.domain}</span>
        </h1>
        {children}
      </main>
    </>
  );
}

function PasswordForm({ onOpen }: { onOpen(password: string): Promise<void> }) {
  const [password, setPassword] = useState('');
  const action = useAction();
  return (
    <PlainLayout title="Shared dashboard">
      <Form onSubmit={() => action.run(() => onOpen(password))} label="Open the shared dashboard">
        <TextField label="Password" type="password" autoComplete="current-password" required autoFocus value={password} onValue={setPassword} />
        <ErrorText message={action.error} />
        <SubmitButton busy={action.busy} busyLabel="Opening…">
          View dashboard
        </SubmitButton>
      </Form>
    </PlainLayout>
  );
}

function SharePage() {
  const token = pathSegment(1);
  const [opened, setOpened] = useState<Opened | undefined>(undefined);
  const [passwordAsked, setPasswordAsked] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [view, setView] = useState<View>(viewInAddress);
  useEffect(() => {
    const back = () => setView(viewInAddress());
    window.addEventListener('popstate', back);
    return () => window.removeEventListener('popstate', back);
  }, []);
  const open = async (password?: string) => {
    const answer = await api<Opened | { passwordRequired: true }>('POST', '/share', { token, ...(password === undefined ? {} : { password }) }, { anonymous: true });
    if ('passwordRequired' in answer) {
      setPasswordAsked(true);
      return;
    }
    setShareAccess(answer.access);
    setOpened(answer);
  };
  useEffect(() => {
    open().catch((failure: unknown) => setError(messageOf(failure)));
  }, []);
  if (error) {
    return (
      <PlainLayout title="Shared dashboard">
        <ErrorText message={error} />
      </PlainLayout>
    );
  }
  if (opened) {
    const locked = opened.filters.length > 0;
    const current: View = locked ? 'dashboard' : view;
    const frame = (children: ComponentChildren) => (
      <Frame site={opened.site}>
        {!locked && <Tabs current={current} onView={setView} />}
        {children}
      </Frame>
    );
    const site = sharedSite(opened.site);
    return current === 'realtime' ? <RealtimeView site={site} frame={frame} /> : <Dashboard site={site} lockedFilters={opened.filters} frame={frame} />;
  }
  if (passwordAsked) return <PasswordForm onOpen={open} />;
  return <Loading />;
}

mountPage(<SharePage />);
