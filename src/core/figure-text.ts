// A figure and its change as text, the same in the email reports and the CLI (the dashboard writes
// them in the browser's locale, web/lib/format.ts).
import type { Kpi } from './answers.js';
import { changeInPoints, type Metric, METRIC_REGISTRY } from './metric-registry.js';

/** A count as the reports and the CLI write it: whole, thousands grouped (en-GB). */
export const count = (n: number) => Math.round(n).toLocaleString('en-GB');

/** A metric's value in its format (a count, a percentage, a duration); `—` when not computable. */
export function formatValue(metric: Metric, value: number | null): string {
  if (value === null) return '—';
  switch (METRIC_REGISTRY[metric].format) {
    case 'ratio':
      return `${(value * 100).toFixed(1)} %`;
    case 'duration': {
      const seconds = Math.round(value);
      return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
    }
    default:
      return count(value);
  }
}

/**
 * The change against the previous period, as the dashboard's tile writes it: a ratio's in
 * percentage points, any other's in percent; `—` when the previous period has no figure or 0.
 */
export function formatChange(metric: Metric, kpi: Kpi): string {
  if (kpi.prev === null || kpi.prev === 0 || kpi.value === null || kpi.deltaPct === null) return '—';
  const points = changeInPoints(metric, kpi.value, kpi.prev);
  const change = points ?? kpi.deltaPct;
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  return `${sign}${Math.abs(change).toFixed(1)} ${points === undefined ? '%' : 'pp'}`;
}

