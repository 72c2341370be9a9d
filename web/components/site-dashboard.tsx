// The figures of a site's dashboard view (KPIs, chart, breakdown panels, period and filters), inside
// the frame a page gives them: the site's own pages (SiteFrame) or a shared link's page.
import type { ComponentChildren, VNode } from 'preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { BreakdownPanel } from './breakdown-panel.js';
import { Chart, type ChartOverlay } from './chart.js';
import { Loading } from './feedback.js';
import { ReadFailure, readState } from './read-failure.js';
import { FilterChips, FilterSentence } from './filter-chips.js';
import { ComparisonPicker } from './comparison-picker.js';
import { FilterDialog, FilterMenu } from './filter-menu.js';
import { KpiTiles } from './kpi-tiles.js';
import { PeriodPicker } from './period-picker.js';
import { Shortcuts } from './shortcuts.js';
import { useViewState } from '../lib/address.js';
import { downloadText } from '../lib/download.js';
import { formatDay } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { dashboardText } from '../lib/text/dashboard.js';
import { goalNamesOf, type GoalNames } from '../lib/labels.js';
import { useRead } from '../lib/hooks.js';
import { seriesCsv } from '../lib/series.js';
import { readNoted, readSite } from '../lib/site.js';
import { goalsRead, PANELS, timeseriesRead } from '../../src/core/dashboard-reads.js';
import { parseViewState, queryParams, statsParams, withComparison, withFilter, withFilterReplaced, withFilterValues, withMetric, withoutFilter, withPeriod, type ViewState } from '../../src/core/view-state.js';
import { goalFilterOf, roleAtLeast, type Comparison, type Filter, type Preset } from '../../src/core/vocabulary.js';
import type { GoalsAnswer, StatsAnswer, TimeseriesAnswer } from '../../src/core/answers.js';
import { CONVERSIONS_KEY } from '../../src/core/answer-headers.js';
import type { SiteRow } from '../../src/core/management.js';

/** An answer with the comparison it was read with: figures still shown while others load keep their own words. */
function readWith<T>(answer: Promise<T>, comparison: Comparison): Promise<T & { comparison: Comparison }> {
  return answer.then((a) => ({ ...a, comparison }));
}

/** What the site's own page adds to the view (a shared link's page goes without): module constants, so that the chart is drawn again only when its figures change. */
export interface DashboardAddOns {
  /** Beside `Filter`: the segments. */
  filterBar?(site: SiteRow, state: ViewState, go: (next: ViewState) => void, goals: GoalNames): VNode;
  /** The chart of `series` with what the page adds to it (the annotations); `draw(overlay)` draws the chart itself. */
  chart?(site: SiteRow, series: TimeseriesAnswer, draw: (overlay?: ChartOverlay) => VNode): VNode;
}

const NO_ADD_ONS: DashboardAddOns = {};

export function Dashboard({ site, frame, lockedFilters = [], addOns = NO_ADD_ONS }: { site: SiteRow; frame(children: ComponentChildren): VNode; lockedFilters?: readonly string[]; addOns?: DashboardAddOns }) {
  const [state, go] = useViewState();
  const [customRequested, setCustomRequested] = useState(0);
  const view = useMemo(() => queryParams(state), [state]);
  const key = view.toString();
  const kpiParams = useMemo(() => statsParams(state), [state]);
  const statsRead = { path: '/stats', params: kpiParams };
  const stats = useRead(() => readWith(readNoted<StatsAnswer>(site.id, statsRead), state.comparison), [kpiParams.toString()]);
  const seriesRead = timeseriesRead(view, state.metric, state.comparison);
  const series = useRead(() => readWith(readNoted<TimeseriesAnswer>(site.id, seriesRead), state.comparison), [key, state.metric, state.comparison]);
  const leftOut = stats.data?.imported === 'excluded' || series.data?.imported === 'excluded';
  // Under filters that need single events, a period reaching past the site's raw window is read from its first day inside it.
  const clippedFrom = stats.data && !stats.loading && stats.data.clippedToRawWindow ? stats.data.period.from : null;
  // Under filters, conversions are counted from raw events: a period that starts before the raw window counts them from its first day.
  const conversionsSince = stats.data && !stats.loading ? stats.data.countedSince.get(CONVERSIONS_KEY) : undefined;
  const goalSettings = roleAtLeast(site.role, 'admin') ? `/sites/${encodeURIComponent(site.id)}/settings#goals` : undefined;
  const goalsView = goalsRead(state);
  const goals = useRead(() => readSite<GoalsAnswer>(site.id, goalsView), [goalsView.params!.toString()]);
  const onPeriod = useCallback((preset: Preset) => go(withPeriod(state, { preset })), [state, go]);
  const onCustom = useCallback(() => setCustomRequested((n) => n + 1), []);
  const onFilter = useCallback((filter: Filter) => go(withFilter(state, filter)), [state, go]);
  // The dialog's value joins the view's filter on its dimension and operator as an `or`.
  const onDialogFilter = useCallback((filter: Filter) => go(withFilterValues(state, filter)), [state, go]);
  // The tiles say why a figure is missing under every filter the reads apply: the view's and a shared link's locked ones.
  const locked = useMemo(() => parseViewState(new URLSearchParams(lockedFilters.map((f) => ['filter', f]))).filters, [lockedFilters]);
  const appliedFilters = useMemo(() => [...state.filters, ...locked], [state.filters, locked]);
  const chartState = readState(series);
  // The chart and the panels render again when what they show changes, not on each of the view's
  // answers (the KPIs, the series and the goals come one after the other).
  const chart = useMemo(() => {
    const data = series.data;
    if (!data) return undefined;
    const draw = (overlay?: ChartOverlay) => <Chart series={data} metric={state.metric} comparison={data.comparison} overlay={overlay} />;
    return addOns.chart ? addOns.chart(site, data, draw) : draw();
  }, [series.data, state.metric, site, addOns]);
  const goalResults = goals.data?.goals;
  // A goal filter's chip names its goals: the view's goals read lists the filter's goals only, and an
  // added goal would show as its id until it comes, so the site's goals are read apart, per period.
  const goalFilter = goalFilterOf(state.filters) !== undefined;
  const periodGoals = { path: '/goals', params: queryParams(state, { filters: false }) };
  const allGoals = useRead(() => (goalFilter ? readSite<GoalsAnswer>(site.id, periodGoals) : Promise.resolve(undefined)), [goalFilter && periodGoals.params.toString()]);
  // Until they come, the view's (all of them when the view had no goal filter yet).
  const goalNames = useMemo(() => goalNamesOf(allGoals.data?.goals ?? goalResults), [allGoals.data, goalResults]);
  // A link locked to filters is refused the site's property keys: its panels have no Properties tab.
  const propertyKeys = lockedFilters.length === 0;
  const panels = useMemo(
    () => PANELS.map((spec) => <BreakdownPanel key={spec.id} spec={spec} siteId={site.id} view={view} goals={goalResults} propertyKeys={propertyKeys} onFilter={onFilter} />),
    [site.id, view, goalResults, propertyKeys, onFilter],
  );
  return frame(
    <>
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={stats.data?.period} onChange={(period) => go(withPeriod(state, period))} customRequested={customRequested} />
        <ComparisonPicker comparison={state.comparison} onChange={(comparison) => go(withComparison(state, comparison))} />
        <Shortcuts onPeriod={onPeriod} onCustom={onCustom} />
      </div>
      {locked.length > 0 && (
        <p class="notice locked-filters">
          {dashboardText.limitedTo}
          {locked.map((filter, i) => (
            <span key={filter.dimension}>
              {i > 0 && dashboardText.andWord}
              <FilterSentence filter={filter} />
            </span>
          ))}
          .
        </p>
      )}
      <div class="filter-bar">
        <FilterMenu siteId={site.id} state={state} onApply={onDialogFilter} />
        {addOns.filterBar?.(site, state, go, goalNames)}
        <FilterChips
          filters={state.filters}
          onRemove={(dimension) => go(withoutFilter(state, dimension))}
          emptyFocusId="period"
          goals={goalNames}
          editor={(filter, close) => <FilterDialog siteId={site.id} state={state} editing={filter} onApply={(edited) => go(withFilterReplaced(state, filter.dimension, edited))} onClose={close} />}
        />
      </div>
      {clippedFrom && (
        <p class="note" role="note" data-note="raw-window">
          {fill(dashboardText.rawFrom, { day: formatDay(clippedFrom) })}{' '}
          {roleAtLeast(site.role, 'admin') && <a href={`/sites/${encodeURIComponent(site.id)}/settings#general`}>{dashboardText.keepLonger}</a>}
        </p>
      )}
      {leftOut && (
        <p class="note" role="note">
          {dashboardText.importedLeftOut}
        </p>
      )}
      <section class="card overview" aria-label={dashboardText.overviewRegion} data-panel="overview" data-state={readState(stats)}>
        {stats.error ? (
          <ReadFailure read={stats} />
        ) : (
          <KpiTiles
            stats={stats.data?.stats}
            metric={state.metric}
            comparison={stats.data?.comparison ?? state.comparison}
            onSelect={(metric) => go(withMetric(state, metric))}
            busy={stats.loading}
            filters={appliedFilters}
            goalSettings={goalSettings}
            hasGoals={goals.data && goals.data.goals.length > 0}
            conversionsSince={conversionsSince}
          />
        )}
        <div class="chart-area" data-panel="chart" data-state={chartState} aria-busy={chartState === 'loading'}>
          {series.error ? (
            <ReadFailure read={series} />
          ) : series.data ? (
            <>
              {chart}
              <a
                href="#"
                class="export"
                onClick={(event) => {
                  event.preventDefault();
                  downloadText(`${state.metric}-${series.data!.period.from}-to-${series.data!.period.to}.csv`, seriesCsv(series.data!, state.metric));
                }}
              >
                {dashboardText.exportCsv}
              </a>
            </>
          ) : (
            <Loading />
          )}
        </div>
      </section>
      <div class="panels">{panels}</div>
    </>,
  );
}

