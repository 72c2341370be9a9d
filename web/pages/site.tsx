// /sites/:siteId: the site dashboard. The view (period, filters, chart metric) lives in the
// address, so a view is a link; every figure is read from /app/v1 with the view's parameters.
import { useCallback, useMemo, useState } from 'preact/hooks';
import { BreakdownPanel, PANEL_ROWS, PANELS } from '../components/breakdown-panel.js';
import { breakdownRead } from '../lib/breakdown.js';
import { Chart } from '../components/chart.js';
import { ErrorText, Loading } from '../components/feedback.js';
import { FilterChips } from '../components/filter-chips.js';
import { KpiTiles, type Kpi } from '../components/kpi-tiles.js';
import { PeriodPicker } from '../components/period-picker.js';
import { Shortcuts } from '../components/shortcuts.js';
import { SiteFrame } from '../components/site-frame.js';
import { useViewState } from '../lib/address.js';
import { downloadText } from '../lib/download.js';
import { useRead } from '../lib/read.js';
import { mountSitePage } from '../lib/site-page.js';
import { readTimeseries, seriesCsv, timeseriesRead } from '../lib/series.js';
import type { Session } from '../lib/session.js';
import { readSite, type SiteRead } from '../lib/site.js';
import { parseViewState, queryParams, withFilter, withMetric, withoutFilter, withPeriod, type Metric, type Period } from '../lib/view-state.js';
import type { SiteRow } from '../lib/sites.js';

interface StatsAnswer {
  period: { from: string; to: string; tz: string };
  stats: Record<Metric, Kpi>;
}

function Dashboard({ session, site }: { session: Session; site: SiteRow }) {
  const [state, go] = useViewState();
  const [customRequested, setCustomRequested] = useState(0);
  const view = useMemo(() => queryParams(state), [state]);
  const key = view.toString();
  const stats = useRead(() => readSite<StatsAnswer>(site.id, { path: '/stats', params: view }), key);
  const series = useRead(() => readTimeseries(site.id, view, state.metric), `${key}|${state.metric}`);
  const onPeriod = useCallback((preset: Period) => go(withPeriod(state, { preset })), [state, go]);
  const onCustom = useCallback(() => setCustomRequested((n) => n + 1), []);
  const onFilter = useCallback((dimension: Parameters<typeof withFilter>[1], value: string) => go(withFilter(state, dimension, value)), [state, go]);
  const chartState = series.error ? 'error' : series.loading || !series.data ? 'loading' : 'ready';
  return (
    <SiteFrame session={session} site={site} current="dashboard">
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={stats.data?.period} onChange={(period) => go(withPeriod(state, period))} customRequested={customRequested} />
        <Shortcuts onPeriod={onPeriod} onCustom={onCustom} />
      </div>
      <FilterChips filters={state.filters} onRemove={(dimension) => go(withoutFilter(state, dimension))} />
      <section class="card overview" aria-label="Overview" data-panel="overview" data-state={stats.error ? 'error' : stats.data && !stats.loading ? 'ready' : 'loading'}>
        {stats.error ? <ErrorText message={stats.error} /> : <KpiTiles stats={stats.data?.stats} metric={state.metric} onSelect={(metric) => go(withMetric(state, metric))} />}
        <div class="chart-area" data-panel="chart" data-state={chartState} aria-busy={chartState === 'loading'}>
          {series.error ? (
            <ErrorText message={series.error} />
          ) : series.data ? (
            <>
              <Chart series={series.data} metric={state.metric} />
              <a
                href="#"
                class="export"
                onClick={(event) => {
                  event.preventDefault();
                  downloadText(`${state.metric}-${series.data!.period.from}-${series.data!.period.to}.csv`, seriesCsv(series.data!, state.metric));
                }}
              >
                Export CSV
              </a>
            </>
          ) : (
            <Loading />
          )}
        </div>
      </section>
      <div class="panels">
        {PANELS.map((spec) => (
          <BreakdownPanel key={spec.id} spec={spec} siteId={site.id} view={view} onFilter={onFilter} />
        ))}
      </div>
    </SiteFrame>
  );
}

/** Every figure of the view in the address. */
function firstReads(): SiteRead[] {
  const initial = parseViewState(window.location.search);
  const view = queryParams(initial);
  return [
    { path: '/stats', params: view },
    timeseriesRead(view, initial.metric),
    ...PANELS.map((spec) => breakdownRead(view, spec.tabs[0]!.dimension, { limit: PANEL_ROWS })),
  ];
}

mountSitePage((session, site) => <Dashboard session={session} site={site} />, firstReads());
