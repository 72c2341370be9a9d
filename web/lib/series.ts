// The chart's series as CSV: a row per bucket (its site-local start, the value, the previous period's
// bucket and value).
import { toCsv } from './csv.js';
import { bucketStamp } from './format.js';
import type { Metric } from '../../src/core/metric-registry.js';
import type { TimeseriesAnswer } from '../../src/core/answers.js';
import { fill } from './i18n.js';
import { dashboardText } from './text/dashboard.js';

export function seriesCsv(series: TimeseriesAnswer, metric: Metric): string {
  return toCsv(
    [dashboardText.bucketColumn, metric, dashboardText.previousBucket, fill(dashboardText.previousOf, { metric })],
    series.points.map((p, i) => {
      const prev = series.prev?.[i];
      return [bucketStamp(p.t, series.grain, series.tz), p.value, prev ? bucketStamp(prev.t, series.grain, series.tz) : null, prev?.value ?? null];
    }),
  );
}
