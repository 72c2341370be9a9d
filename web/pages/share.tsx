// /share/<token>: a site's dashboard shown through a shared link, without an account: no settings,
// no other site, no `Sign out`. The token goes to POST /app/v1/share in a body (with the link's
// password when it has one); the answer's access token then goes with every read. `Dashboard` and,
// for a link without locked filters, `Realtime` and `Goals` (with each funnel's view) switch views in
// the page; a link locked to filters says why it shares the dashboard alone. `?embed=1` drops the
// page's header for an iframe. An access token reads for 12 hours: when a read says it ended, the
// page opens the link again (asking its password again when it has one) and reads on. The views
// besides the dashboard load when first opened (components/share-views.tsx).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, messageOf, setShareAccess } from '../lib/api.js';
import { call } from '../lib/client.js';
import { useAction } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage, pathSegment } from '../lib/mount.js';
import { Dashboard } from '../components/site-dashboard.js';
import { OnDemand } from '../components/on-demand.js';
import { pagePatternIsLiteral } from '../../src/core/patterns.js';
import { viewSearch } from '../../src/core/view-state.js';
import { lockSharesGoals } from '../../src/core/vocabulary.js';
import { ErrorText, Loading } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import type { SiteRow } from '../../src/core/management.js';
import type { OpenedShare } from '../../src/http/app-v1/routes.js';
import { formatCount } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { frameText } from '../lib/text/frame.js';
import { namesText } from '../lib/text/names.js';
import { shareText } from '../lib/text/share.js';

const embedded = new URLSearchParams(window.location.search).get('embed') === '1';
const VIEWS = ['dashboard', 'realtime', 'goals', 'funnel'] as const;
type View = (typeof VIEWS)[number];
/** The view in the address (`?view=`; the dashboard without it), and for `funnel` its `?funnel=` id. */
const viewInAddress = (): View => {
  const view = new URLSearchParams(window.location.search).get('view');
  return (VIEWS as readonly string[]).includes(view ?? '') ? (view as View) : 'dashboard';
};
const funnelInAddress = () => new URLSearchParams(window.location.search).get('funnel') ?? '';

const loadOtherViews = () => import('../components/share-views.js');

/** The address of this link's page with `params` and, from the current address, whether it is embedded. */
function shareHref(params: URLSearchParams): string {
  if (embedded) params.set('embed', '1');
  const query = params.toString();
  return window.location.pathname + (query ? `?${query}` : '');
}

/** The address of a view of this link, with the address's other parameters (embed, period, filters). */
function viewHref(view: View): string {
  const params = new URLSearchParams(window.location.search);
  for (const name of ['view', 'funnel', 'version']) params.delete(name);
  if (view !== 'dashboard') params.set('view', view);
  return shareHref(params);
}

/** The goals view's links, to the views of this link's page. */
const goalsLinks = {
  dashboard: (state: Parameters<typeof viewSearch>[0]) => shareHref(new URLSearchParams(viewSearch(state))),
  funnel: (funnelId: number) => {
    const params = new URLSearchParams(window.location.search);
    params.delete('view');
    params.set('view', 'funnel');
    params.set('funnel', String(funnelId));
    return shareHref(params);
  },
};

/**
 * Follows, in the page, a link to another address of the same page (a view, a goal's dashboard, a
 * funnel): the link is not opened again (nor its password asked). Listeners of the address
 * (the views' state) hear it as Back and Forward.
 */
function followInPage(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement) || anchor.target !== '' || anchor.origin !== window.location.origin || anchor.pathname !== window.location.pathname) return;
  event.preventDefault();
  window.history.pushState(null, '', anchor.pathname + anchor.search);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

function Tabs({ current }: { current: View }) {
  const link = (view: View, label: string) => (
    <a href={viewHref(view)} aria-current={current === view ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="tabs" aria-label={shareText.viewsNav}>
      {link('dashboard', frameText.dashboardTab)}
      {link('realtime', frameText.realtimeTab)}
      {link('goals', namesText.goalsWord)}
    </nav>
  );
}

/** Why a link locked to filters shows the dashboard alone (goals in its Events panel unless locked to pages), and, for a page pattern, which periods it answers. */
function LockedScope({ filters, rawDays }: { filters: readonly string[]; rawDays: number }) {
  const pattern = filters.find((f) => f.startsWith('page:') && !pagePatternIsLiteral(f.slice('page:'.length)));
  return (
    <div class="notice share-scope" role="note">
      {lockSharesGoals(filters) ? (
        <p>{shareText.lockedToFilters}</p>
      ) : (
        <p>{shareText.lockedToPages}</p>
      )}
      {pattern && (
        <p>
          {shareText.patternBefore}
          <code>{pattern.slice('page:'.length)}</code>
          {fill(shareText.patternAfter, { days: formatCount(rawDays) })}
        </p>
      )}
    </div>
  );
}

/** The site as the dashboard's components take it: read-only, whatever role it would need. */
const sharedSite = (site: OpenedShare['site']): SiteRow => ({ ...site, status: 'active', orgId: 0, orgName: '', role: 'viewer', visitors24h: 0 });

function Frame({ site, children }: { site: OpenedShare['site']; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${site.name} · svc`;
  }, [site.name]);
  if (embedded) return <main id="content" class="embedded">{children}</main>;
  return (
    <>
      <header class="top">
        <span class="brand">svc</span>
        <span class="muted">{shareText.readOnlyNote}</span>
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

function PasswordForm({ onOpen }: { onOpen(password: string): Promise<unknown> }) {
  const [password, setPassword] = useState('');
  const action = useAction();
  return (
    <PlainLayout title={shareText.sharedDashboard}>
      <Form onSubmit={() => action.run(() => onOpen(password))} label={shareText.openShared}>
        <TextField label={shareText.passwordField} type="password" autoComplete="current-password" required autoFocus value={password} onValue={setPassword} />
        <ErrorText message={action.error} />
        <SubmitButton busy={action.busy} busyLabel={shareText.openingNote}>
          {shareText.viewDashboard}
        </SubmitButton>
      </Form>
    </PlainLayout>
  );
}

function SharePage() {
  const token = pathSegment(1);
  const [opened, setOpened] = useState<OpenedShare | undefined>(undefined);
  const [passwordAsked, setPasswordAsked] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [view, setView] = useState<View>(viewInAddress);
  const [funnelId, setFunnelId] = useState(funnelInAddress);
  useEffect(() => {
    const follow = () => {
      setView(viewInAddress());
      setFunnelId(funnelInAddress());
    };
    window.addEventListener('popstate', follow);
    document.addEventListener('click', followInPage);
    return () => {
      window.removeEventListener('popstate', follow);
      document.removeEventListener('click', followInPage);
    };
  }, []);
  /**
   * Opens the link: its access set (the page as it is when opened again), or its password asked
   * (the page's views closed). True when it reads.
   */
  const open = async (password?: string): Promise<boolean> => {
    const answer = await call('POST /share', { body: { token, ...(password === undefined ? {} : { password }) }, anonymous: true });
    if ('passwordRequired' in answer) {
      setOpened(undefined);
      setPasswordAsked(true);
      return false;
    }
    setShareAccess(answer.access, reopen);
    setOpened((shown) => shown ?? answer);
    return true;
  };
  /**
   * A read refused with the 404 of an ended access (after 12 hours; a revoked or expired link's is
   * the same): the link is opened again, and a revoked or expired one answers that 404 again.
   */
  const reopen = async (failure: ApiError): Promise<boolean> => failure.reason === 'SHARED_LINK_NOT_FOUND' && open();
  useEffect(() => {
    open().catch((failure: unknown) => setError(messageOf(failure)));
  }, []);
  if (error) {
    return (
      <PlainLayout title={shareText.sharedDashboard}>
        <ErrorText message={error} />
      </PlainLayout>
    );
  }
  if (opened) {
    const locked = opened.filters.length > 0;
    // A link locked to filters shares the dashboard alone; a funnel view needs its funnel.
    const current: View = locked || (view === 'funnel' && funnelId === '') ? 'dashboard' : view;
    const frame = (children: ComponentChildren) => (
      <Frame site={opened.site}>
        {locked ? <LockedScope filters={opened.filters} rawDays={opened.site.rawDays} /> : <Tabs current={current === 'funnel' ? 'goals' : current} />}
        {children}
      </Frame>
    );
    const site = sharedSite(opened.site);
    if (current === 'dashboard') return <Dashboard site={site} lockedFilters={opened.filters} frame={frame} />;
    return (
      // Keyed by the view: a view that could not load is tried again when the viewer opens another.
      <OnDemand key={current} load={loadOtherViews} frame={frame}>
        {({ RealtimeView, GoalsView, FunnelView }) =>
          current === 'realtime' ? (
            <RealtimeView site={site} frame={frame} />
          ) : current === 'goals' ? (
            <GoalsView site={site} frame={frame} links={goalsLinks} />
          ) : (
            <FunnelView site={site} funnelId={funnelId} frame={frame} />
          )
        }
      </OnDemand>
    );
  }
  if (passwordAsked) return <PasswordForm onOpen={open} />;
  return <Loading />;
}

mountPage(<SharePage />);
