// Starts a page of one site (/sites/:siteId/...): the session, then the site, then the page.
import type { VNode } from 'preact';
import { LoadState } from '../components/feedback.js';
import { useRead } from './hooks.js';
import { mountPage, pathSegment, SignedIn } from './mount.js';
import { loadSite, readEarly } from './site.js';
import type { SiteRead } from '../../src/core/app-paths.js';
import type { SessionView, SiteRow } from '../../src/core/management.js';

function WithSite({ render }: { render(site: SiteRow): VNode }) {
  const siteId = pathSegment(1);
  const site = useRead(() => loadSite(siteId), [siteId]);
  return <LoadState state={site}>{render}</LoadState>;
}

/** `early`: the reads the page makes first, started with the site list before anything is known. */
export function mountSitePage(render: (session: SessionView, site: SiteRow) => VNode, early: readonly SiteRead[] = []): void {
  readEarly(pathSegment(1), early);
  mountPage(<SignedIn>{(session) => <WithSite render={(site) => render(session, site)} />}</SignedIn>);
}
