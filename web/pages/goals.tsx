// /sites/:siteId/goals: every goal with its conversions, unique conversions, conversion rate and
// change over the period, and the site's funnels (each a link to its page).
import { ErrorText, Loading } from '../components/feedback.js';
import { PeriodPicker } from '../components/period-picker.js';
import { SiteFrame } from '../components/site-frame.js';
import { WideTable } from '../components/table.js';
import { useViewState } from '../lib/address.js';
import { changeIsGood, formatChange, formatCount, formatDay, formatRatio } from '../lib/format.js';
import { useLoad } from '../lib/hooks.js';
import type { Session } from '../lib/session.js';
import { readSite } from '../lib/site.js';
import { mountSitePage } from '../lib/site-page.js';
import { queryParams, withPeriod } from '../lib/view-state.js';
import type { SiteRow } from '../lib/sites.js';

interface Goal {
  goalId: number;
  name: string;
  kind: 'page' | 'event';
  pattern: string;
  conversions: number;
  uniqueConversions: number;
  conversionRate: number;
  delta: number | null;
}

interface FunnelSummary {
  id: number;
  name: string;
  stepCount: number;
  windowMinutes: number;
  version: number;
}

function GoalsView({ session, site }: { session: Session; site: SiteRow }) {
  const [state, go] = useViewState();
  const view = queryParams(state, { filters: false });
  const goals = useLoad(() => readSite<{ period: { from: string; to: string }; goals: Goal[] }>(site.id, { path: '/goals', params: view }), [view.toString()]);
  const funnels = useLoad(() => readSite<{ funnels: FunnelSummary[] }>(site.id, { path: '/funnels' }), [site.id]);
  return (
    <SiteFrame session={session} site={site} current="goals">
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={goals.data?.period} onChange={(period) => go(withPeriod(state, period))} />
      </div>
      <section class="card" aria-labelledby="goals-title" data-panel="goals" data-state={goals.error ? 'error' : goals.data && !goals.loading ? 'ready' : 'loading'}>
        <h2 id="goals-title">Goals</h2>
        {goals.data && (
          <p class="muted">
            {formatDay(goals.data.period.from)} – {formatDay(goals.data.period.to)}
          </p>
        )}
        {goals.error ? (
          <ErrorText message={goals.error} />
        ) : !goals.data ? (
          <Loading />
        ) : (
          <WideTable
            region="Goals and their conversions"
            columns={['Goal', { label: 'Conversions', numeric: true }, { label: 'Unique conversions', numeric: true }, { label: 'Conversion rate', numeric: true }, { label: 'Change', numeric: true }]}
            rows={goals.data.goals}
            empty={<p class="muted">This site has no goals yet.</p>}
            row={(g) => (
              <tr key={g.goalId}>
                <td>
                  {g.name} <span class="muted">({g.kind === 'page' ? 'page' : 'event'} {g.pattern})</span>
                </td>
                <td class="num">{formatCount(g.conversions)}</td>
                <td class="num">{formatCount(g.uniqueConversions)}</td>
                <td class="num">{formatRatio(g.conversionRate)}</td>
                <td class={`num ${g.delta === null || g.delta === 0 ? '' : changeIsGood('conversions', g.delta) ? 'up' : 'down'}`}>{g.delta === null ? '–' : formatChange(g.delta)}</td>
              </tr>
            )}
          />
        )}
      </section>
      <section class="card" aria-labelledby="funnels-title">
        <h2 id="funnels-title">Funnels</h2>
        {funnels.error ? (
          <ErrorText message={funnels.error} />
        ) : !funnels.data ? (
          <Loading />
        ) : funnels.data.funnels.length === 0 ? (
          <p class="muted">This site has no funnels yet.</p>
        ) : (
          <ul class="funnel-list">
            {funnels.data.funnels.map((f) => (
              <li key={f.id}>
                <a href={`/sites/${encodeURIComponent(site.id)}/funnels/${f.id}${window.location.search}`}>{f.name}</a>{' '}
                <span class="muted">
                  {f.stepCount} steps within {formatCount(f.windowMinutes)} min, version {f.version}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </SiteFrame>
  );
}

mountSitePage((session, site) => <GoalsView session={session} site={site} />);
