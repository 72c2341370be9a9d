// /sites/:siteId/funnels/:funnelId: the funnel's view (components/funnel-view.tsx) in the site's pages' frame.
import { FunnelView } from '../components/funnel-view.js';
import { SiteFrame } from '../components/site-frame.js';
import { pathSegment } from '../lib/mount.js';
import { mountSitePage } from '../lib/site-page.js';

mountSitePage((session, site) => (
  <FunnelView
    site={site}
    funnelId={pathSegment(3)}
    frame={(children) => (
      <SiteFrame session={session} site={site} current="funnel">
        {children}
      </SiteFrame>
    )}
  />
));
