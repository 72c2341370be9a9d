// The six KPI tiles: value and change against the previous period; a tile is a toggle that selects
// its metric for the chart.
import { changeIsGood, formatChange, formatMetric } from '../lib/format.js';
import { METRICS, type Metric } from '../lib/view-state.js';

export interface Kpi {
  value: number | null;
  prev: number | null;
  deltaPct: number;
}

export const METRIC_LABELS: Record<Metric, string> = {
  visitors: 'Visitors',
  pageviews: 'Pageviews',
  sessions: 'Sessions',
  bounceRate: 'Bounce rate',
  avgDuration: 'Visit duration',
  conversions: 'Conversions',
};

export function KpiTiles({ stats, metric, onSelect }: { stats: Record<Metric, Kpi> | undefined; metric: Metric; onSelect(metric: Metric): void }) {
  return (
    <div class="kpis" role="group" aria-label="Key figures">
      {METRICS.map((m) => {
        const kpi = stats?.[m];
        const good = kpi ? changeIsGood(m, kpi.deltaPct) : false;
        return (
          <button key={m} type="button" class="kpi" aria-pressed={m === metric} data-metric={m} onClick={() => onSelect(m)}>
            <span class="kpi-label">{METRIC_LABELS[m]}</span>
            <span class="kpi-value">{kpi ? formatMetric(m, kpi.value, undefined) : '…'}</span>
            {kpi && kpi.value !== null && kpi.prev !== null && (
              <span class={`kpi-change ${kpi.deltaPct === 0 ? '' : good ? 'up' : 'down'}`}>
                {formatChange(kpi.deltaPct)} <span class="muted">vs previous</span>
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
