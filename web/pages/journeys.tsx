// /sites/:siteId/journeys: the site's journeys view (components/journeys-view.tsx) in its pages' frame.
import { JourneysView } from '../components/journeys-view.js';
import { SiteFrame } from '../components/site-frame.js';
import { mountSitePage } from '../lib/site-page.js';

mountSitePage((session, site) => (
  <JourneysView
    site={site}
    frame={(children) => (
      <SiteFrame session={session} site={site} current="journeys">
        {children}
      </SiteFrame>
    )}
  />
));
