// /sites/:siteId: the site dashboard. The view (period, filters, chart metric) lives in the
// address, so a view is a link; every figure is read from /app/v1 with the view's parameters. A
// site without any event shows, in place of the figures, what it takes to get the first one.
import { useEffect, useState } from 'preact/hooks';
import { PANEL_ROWS, PANELS } from '../components/breakdown-panel.js';
import { breakdownRead } from '../lib/breakdown.js';
import { Loading } from '../components/feedback.js';
import { FirstEvent, INSTALLATION } from '../components/first-event.js';
import { Dashboard, goalsRead } from '../components/site-dashboard.js';
import { SiteFrame } from '../components/site-frame.js';
import { dropEarly } from '../lib/early.js';
import { useLoad } from '../lib/hooks.js';
import { mountSitePage } from '../lib/site-page.js';
import { timeseriesRead } from '../lib/series.js';
import { readSite, type SiteRead } from '../lib/site.js';
import { parseViewState, queryParams, statsParams } from '../lib/view-state.js';
import type { Installation, SessionView, SiteRow } from '../../src/core/vocabulary.js';

/** The figures, or the first-event panel while the site holds no event (an unanswered check shows the figures). */
function SiteDashboard({ session, site }: { session: SessionView; site: SiteRow }) {
  const installation = useLoad(() => readSite<Installation>(site.id, INSTALLATION), [site.id]);
  const [stored, setStored] = useState(false);
  const first = installation.data && !installation.data.hasEvents && !stored ? installation.data : undefined;
  // The figures read early describe the site without events: once it has one, they are read anew.
  useEffect(() => {
    if (first) dropEarly();
  }, [first !== undefined]);
  if (first || installation.loading) {
    return (
      <SiteFrame session={session} site={site} current="dashboard">
        {first ? <FirstEvent site={site} first={first} onStored={() => setStored(true)} /> : <Loading />}
      </SiteFrame>
    );
  }
  return <Dashboard site={site} frame={(children) => <SiteFrame session={session} site={site} current="dashboard">{children}</SiteFrame>} />;
}

/** Whether the site holds an event, and every figure of the view in the address. */
function firstReads(): SiteRead[] {
  const initial = parseViewState(window.location.search);
  const view = queryParams(initial);
  return [
    INSTALLATION,
    { path: '/stats', params: statsParams(initial) },
    timeseriesRead(view, initial.metric, initial.comparison),
    goalsRead(initial),
    ...PANELS.map((spec) => breakdownRead(view, spec.tabs[0]!.dimension, { limit: PANEL_ROWS })),
  ];
}

mountSitePage((session, site) => <SiteDashboard session={session} site={site} />, firstReads());
