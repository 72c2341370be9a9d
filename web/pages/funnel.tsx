// /sites/:siteId/funnels/:funnelId: a bar per step with its visitors and the rate from the previous
// step, the conversion over the period against the previous one, and a version selector (the
// address's `version`; the current version without it).
import { ErrorText, Loading } from '../components/feedback.js';
import { PeriodPicker } from '../components/period-picker.js';
import { SiteFrame } from '../components/site-frame.js';
import { useViewState } from '../lib/address.js';
import { changeIsGood, formatChange, formatCount, formatDay, formatRatio } from '../lib/format.js';
import { useLoad } from '../lib/hooks.js';
import { pathSegment } from '../lib/mount.js';
import type { Session } from '../lib/session.js';
import { readSite } from '../lib/site.js';
import { mountSitePage } from '../lib/site-page.js';
import { queryParams, withPeriod } from '../lib/view-state.js';
import { useEffect, useState } from 'preact/hooks';
import type { SiteRow } from '../lib/sites.js';

interface Reading {
  period: { from: string; to: string };
  funnel: { id: number; name: string; version: number; windowMinutes: number };
  steps: Array<{ step: number; visitors: number; rateFromPrevious: number | null }>;
  entered: number;
  completed: number;
  conversionRate: number;
  previous: { entered: number; completed: number; conversionRate: number };
  delta: number;
}

const addressVersion = () => new URLSearchParams(window.location.search).get('version') ?? '';

function FunnelView({ session, site }: { session: Session; site: SiteRow }) {
  const funnelId = pathSegment(3);
  const [state, go] = useViewState();
  const [version, setVersion] = useState(addressVersion);
  useEffect(() => {
    const follow = () => setVersion(addressVersion());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const params = queryParams(state, { filters: false });
  if (version) params.set('version', version);
  const reading = useLoad(() => readSite<Reading>(site.id, { path: `/funnels/${encodeURIComponent(funnelId)}`, params }), [params.toString()]);
  // The summary says how many versions there are.
  const summary = useLoad(() => readSite<{ funnels: Array<{ id: number; version: number }> }>(site.id, { path: '/funnels' }), [site.id]);
  const latest = summary.data?.funnels.find((f) => String(f.id) === funnelId)?.version ?? reading.data?.funnel.version ?? 1;
  const chooseVersion = (value: string) => {
    const query = new URLSearchParams(window.location.search);
    if (value === String(latest)) query.delete('version');
    else query.set('version', value);
    const text = query.toString();
    window.history.pushState(null, '', window.location.pathname + (text ? `?${text}` : ''));
    setVersion(query.get('version') ?? '');
  };
  const data = reading.data;
  const first = data?.steps[0]?.visitors ?? 0;
  return (
    <SiteFrame session={session} site={site} current="funnel">
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={data?.period} onChange={(period) => go(withPeriod(state, period))} />
        <div class="field version">
          <label for="version">Version</label>
          <select id="version" value={String(data?.funnel.version ?? (version || latest))} onChange={(e) => chooseVersion((e.target as HTMLSelectElement).value)}>
            {Array.from({ length: latest }, (_, i) => latest - i).map((v) => (
              <option key={v} value={String(v)}>
                {v === latest ? `${v} (current)` : String(v)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <section class="card" aria-labelledby="funnel-title" data-panel="funnel" data-state={reading.error ? 'error' : data && !reading.loading ? 'ready' : 'loading'}>
        <h2 id="funnel-title">{data ? data.funnel.name : 'Funnel'}</h2>
        {reading.error ? (
          <ErrorText message={reading.error} />
        ) : !data ? (
          <Loading />
        ) : (
          <>
            <p class="muted">
              {formatDay(data.period.from)} – {formatDay(data.period.to)}; steps completed within {formatCount(data.funnel.windowMinutes)} min
            </p>
            <dl class="funnel-totals">
              <div>
                <dt>Entered</dt>
                <dd>{formatCount(data.entered)}</dd>
              </div>
              <div>
                <dt>Completed</dt>
                <dd>{formatCount(data.completed)}</dd>
              </div>
              <div>
                <dt>Conversion rate</dt>
                <dd>
                  {formatRatio(data.conversionRate)}{' '}
                  <span class={data.delta === 0 ? 'muted' : changeIsGood('conversions', data.delta) ? 'up' : 'down'}>{formatChange(data.delta)}</span>
                </dd>
              </div>
            </dl>
            <ol class="funnel-steps">
              {data.steps.map((s) => (
                <li key={s.step}>
                  <div class="step-head">
                    <strong>Step {s.step}</strong>
                    <span>
                      {formatCount(s.visitors)} {s.visitors === 1 ? 'visitor' : 'visitors'}
                      {s.rateFromPrevious !== null && <span class="muted"> · {formatRatio(s.rateFromPrevious)} from step {s.step - 1}</span>}
                    </span>
                  </div>
                  <div class="step-bar" aria-hidden="true">
                    <span style={{ width: `${first > 0 ? (s.visitors / first) * 100 : 0}%` }} />
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
    </SiteFrame>
  );
}

mountSitePage((session, site) => <FunnelView session={session} site={site} />);
