// The KPI tiles, one per metric: value and change against the compared period; a tile is a toggle
// that selects its metric for the chart. A tile without a value says why (the filters, or no goals
// yet), visibly and as its description; so does a value counted over part of the period.
import { changeClass, formatDay, kpiChange, formatMetric, formatRatioOf } from '../lib/format.js';
import { nullReason } from '../lib/kpi-reason.js';
import { inSentence } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { type Metric, shownMetrics } from '../../src/core/metric-registry.js';
import { goalFilterOf, type Comparison, type Filter } from '../../src/core/vocabulary.js';
import type { Stats } from '../../src/core/answers.js';
import { namesText } from '../lib/text/names.js';
import { periodText } from '../lib/text/period.js';
import { dashboardText } from '../lib/text/dashboard.js';

/**
 * `busy`: the figures shown are those of the previous view while the new ones load (dimmed).
 * `goalSettings`: where goals are added, for a user who may manage them (linked when a tile has no
 * value for want of goals). `hasGoals`: whether the site has goals (undefined while unknown).
 * `conversionsSince`: the day conversions are counted from when it is after the period's first.
 */
export function KpiTiles({
  stats,
  metric,
  comparison,
  onSelect,
  busy,
  filters,
  goalSettings,
  hasGoals,
  conversionsSince,
}: {
  stats: Stats | undefined;
  metric: Metric;
  comparison: Comparison;
  onSelect(metric: Metric): void;
  busy: boolean;
  filters: readonly Filter[];
  goalSettings?: string;
  hasGoals?: boolean;
  conversionsSince?: string;
}) {
  // Under a page filter, time on page stands in visit duration's place (the registry's `shownFor`).
  const metrics = shownMetrics(filters);
  // Under a goal filter the visitors are the goals' converters, named so as the panels' rows name them.
  const converters = goalFilterOf(filters) !== undefined;
  const reasons = metrics.map((m) => (stats?.[m]?.value === null ? nullReason(m, filters, hasGoals) : undefined));
  const notes = metrics.map((m, i) => reasons[i]?.text ?? (m === 'conversions' && conversionsSince ? fill(dashboardText.countedSinceNote, { day: formatDay(conversionsSince) }) : undefined));
  return (
    <>
      <div class="kpis" role="group" aria-label={dashboardText.keyFigures} aria-busy={busy}>
        {metrics.map((m, i) => {
          const kpi = stats?.[m];
          const note = notes[i];
          const change = kpi && comparison !== 'off' ? kpiChange(m, kpi) : null;
          return (
            <button key={m} type="button" class="kpi" aria-pressed={m === metric} data-metric={m} onClick={() => onSelect(m)} title={note}>
              <span class="kpi-label">{converters && m === 'visitors' ? dashboardText.convertersLabel : namesText.metricNames[m]}</span>
              <span class="kpi-value">{kpi ? formatMetric(m, kpi.value) : '…'}</span>
              {/* Out of the accessible name: the title gives the note as the tile's description. */}
              {note && (
                <span class="kpi-reason" aria-hidden="true">
                  {note}
                </span>
              )}
              {change && (
                <span class={`kpi-change ${changeClass(change)}`}>
                  <span class="kpi-delta">{change.text}</span> <span class="muted">{periodText.versus[comparison]}</span>
                </span>
              )}
            </button>
          );
        })}
        {metrics.includes('pageviews') && <ViewsPerVisit stats={stats} />}
      </div>
      {/* Below the grid, not in it: a row spanning every column would keep the columns a row of tiles leaves empty. */}
      {goalSettings && reasons.some((r) => r?.cause === 'goals') && (
        <p class="kpi-note">
          <a href={goalSettings}>{dashboardText.addGoal}</a>
          {fill(dashboardText.toCount, { metrics: metrics.filter((_, i) => reasons[i]?.cause === 'goals').map((m) => inSentence(namesText.metricNames[m])).join(dashboardText.andWord) })}
        </p>
      )}
    </>
  );
}

/**
 * Views per visit: the (matching) pageviews over the visits of the same read, two decimals; a figure
 * of the tiles, not a metric of the API, so it charts nothing and has no change. Shown where the
 * pageviews are (not under a goal filter).
 */
function ViewsPerVisit({ stats }: { stats: Stats | undefined }) {
  const [views, visits] = [stats?.pageviews.value, stats?.sessions.value];
  const value = stats === undefined ? '…' : views === null || views === undefined || !visits ? '–' : formatRatioOf(views, visits);
  return (
    <div class="kpi" data-figure="viewsPerVisit">
      <span class="kpi-label">{dashboardText.viewsPerVisitLabel}</span>
      <span class="kpi-value">{value}</span>
    </div>
  );
}
