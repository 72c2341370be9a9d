// The frame of a site's pages: the layout titled with the site, and links between its pages
// (Settings only for the roles that may change it).
import type { ComponentChildren } from 'preact';
import { Layout } from '../lib/layout.js';
import type { SessionView, SiteRow } from '../../src/core/management.js';
import { roleAtLeast } from '../../src/core/vocabulary.js';
import { frameText } from '../lib/text/frame.js';

type SitePage = 'dashboard' | 'realtime' | 'journeys' | 'goals' | 'funnel';

export function SiteFrame({ session, site, current, children }: { session: SessionView; site: SiteRow; current: SitePage; children: ComponentChildren }) {
  const base = `/sites/${encodeURIComponent(site.id)}`;
  const link = (page: SitePage, href: string, label: string) => (
    <a href={href} aria-current={current === page ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <Layout
      session={session}
      title={site.name}
      crumbs={[{ href: base, label: site.domain }]}
      tabs={
        <nav class="tabs" aria-label={frameText.siteTabs}>
          {link('dashboard', base, frameText.dashboardTab)}
          {link('realtime', `${base}/realtime`, frameText.realtimeTab)}
          {link('journeys', `${base}/journeys`, frameText.journeysTab)}
          {link(current === 'funnel' ? 'funnel' : 'goals', `${base}/goals`, frameText.goalsAndFunnels)}
          {roleAtLeast(site.role, 'admin') && <a href={`${base}/settings`}>{frameText.settingsTab}</a>}
        </nav>
      }
    >
      {children}
    </Layout>
  );
}
