// /sites/:siteId: the site dashboard. The view (period, filters, chart metric) lives in the
// address, so a view is a link; every figure is read from /app/v1 with the view's parameters. A
// site without any event shows, in place of the figures, what it takes to get the first one.
import { useEffect, useState } from 'preact/hooks';
import { Loading } from '../components/feedback.js';
import { FirstEvent } from '../components/first-event.js';
import { AnnotatedChart } from '../components/annotations.js';
import { SegmentsMenu } from '../components/segments.js';
import { Dashboard, type DashboardAddOns } from '../components/site-dashboard.js';
import { SiteFrame } from '../components/site-frame.js';
import { dropEarly } from '../lib/early.js';
import { useRead } from '../lib/hooks.js';
import { mountSitePage } from '../lib/site-page.js';
import { readSite } from '../lib/site.js';
import { dashboardReads, INSTALLATION } from '../../src/core/dashboard-reads.js';
import type { Installation, SessionView, SiteRow } from '../../src/core/management.js';

/** The site's own page adds segments beside `Filter` and annotations on the chart. */
const ADD_ONS: DashboardAddOns = {
  filterBar: (site, state, go, goals) => <SegmentsMenu site={site} state={state} go={go} goals={goals} />,
  chart: (site, series, draw) => <AnnotatedChart site={site} series={series} chart={draw} />,
};

/** The figures, or the first-event panel while the site holds no event (an unanswered check shows the figures). */
function SiteDashboard({ session, site }: { session: SessionView; site: SiteRow }) {
  const installation = useRead(() => readSite<Installation>(site.id, INSTALLATION), [site.id]);
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
  return <Dashboard site={site} addOns={ADD_ONS} frame={(children) => <SiteFrame session={session} site={site} current="dashboard">{children}</SiteFrame>} />;
}

mountSitePage((session, site) => <SiteDashboard session={session} site={site} />, dashboardReads(window.location.search));
