// /: the sites the user can see, grouped by organisation, with visitors of the last 24 hours.
import { call } from '../lib/client.js';
import { useRead } from '../lib/hooks.js';
import { Layout } from '../lib/layout.js';
import { mountPage, SignedIn } from '../lib/mount.js';
import { LoadState } from '../components/feedback.js';
import { WideTable } from '../components/table.js';
import type { Membership, SessionView, SiteRow } from '../../src/core/management.js';
import { roleAtLeast } from '../../src/core/vocabulary.js';
import { pageLocale } from '../lib/i18n.js';
import { frameText } from '../lib/text/frame.js';
import { orgSettingsText } from '../lib/text/org-settings.js';

function OrgSites({ membership, sites }: { membership: Membership; sites: SiteRow[] }) {
  const manage = roleAtLeast(membership.role, 'admin');
  return (
    <section class="card" aria-labelledby={`org-${membership.orgId}`}>
      <div class="card-head">
        <h2 id={`org-${membership.orgId}`}>{membership.orgName}</h2>
        <span class="actions">
          <span class="badge">{orgSettingsText.roleNames[membership.role]}</span>
          {manage && <a href={`/orgs/${membership.orgId}/settings`}>{orgSettingsText.orgSettingsLink}</a>}
        </span>
      </div>
      <WideTable
        columns={[frameText.siteTabs, orgSettingsText.domainWord, { label: orgSettingsText.visitors24h, numeric: true }]}
        rows={sites}
        empty={
          <p class="muted">
            {orgSettingsText.noSitesYet}
            {manage && (
              <>
                {' '}
                <a href={`/orgs/${membership.orgId}/settings#sites`}>{orgSettingsText.addSite}</a>.
              </>
            )}
          </p>
        }
        row={(site) => (
          <tr key={site.id}>
            <td>
              <a href={`/sites/${encodeURIComponent(site.id)}`}>{site.name}</a>
            </td>
            <td class="muted">{site.domain}</td>
            <td class="num">{site.visitors24h.toLocaleString(pageLocale())}</td>
          </tr>
        )}
      />
    </section>
  );
}

function Home({ session }: { session: SessionView }) {
  const sites = useRead(() => call('GET /sites'));
  return (
    <Layout session={session} title={orgSettingsText.sitesTitle}>
      {session.memberships.length === 0 && <p>{orgSettingsText.notMember}</p>}
      <LoadState state={sites}>
        {({ sites: rows }) =>
          session.memberships.map((membership) => (
            <OrgSites key={membership.orgId} membership={membership} sites={rows.filter((site) => site.orgId === membership.orgId)} />
          ))
        }
      </LoadState>
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <Home session={session} />}</SignedIn>);
