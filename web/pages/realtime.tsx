// /sites/:siteId/realtime: the site's realtime view (components/realtime-view.tsx) in its pages' frame.
import { RealtimeView } from '../components/realtime-view.js';
import { SiteFrame } from '../components/site-frame.js';
import { mountSitePage } from '../lib/site-page.js';

mountSitePage((session, site) => (
  <RealtimeView
    site={site}
    frame={(children) => (
      <SiteFrame session={session} site={site} current="realtime">
        {children}
      </SiteFrame>
    )}
  />
));
