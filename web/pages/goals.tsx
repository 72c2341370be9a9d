// /sites/:siteId/goals: the site's goals and funnels (components/goals-view.tsx) in its pages' frame.
import { GoalsView } from '../components/goals-view.js';
import { SiteFrame } from '../components/site-frame.js';
import { mountSitePage } from '../lib/site-page.js';
import { viewSearch } from '../../src/core/view-state.js';

mountSitePage((session, site) => {
  const base = `/sites/${encodeURIComponent(site.id)}`;
  return (
    <GoalsView
      site={site}
      links={{ dashboard: (state) => base + viewSearch(state), funnel: (id) => `${base}/funnels/${id}${window.location.search}` }}
      frame={(children) => (
        <SiteFrame session={session} site={site} current="goals">
          {children}
        </SiteFrame>
      )}
    />
  );
});
