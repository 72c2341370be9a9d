// The chart's series: read with the compared period (unless comparison is off), and as CSV (a row per bucket:
// its site-local start, the value, the previous period's bucket and value).
import { toCsv } from './csv.js';
import { bucketStamp } from './format.js';
import { readSite } from './site.js';
import { timeseriesRead } from '../../src/core/dashboard-reads.js';
import type { Comparison } from '../../src/core/vocabulary.js';
import type { Metric } from '../../src/core/metric-registry.js';
import type { TimeseriesAnswer } from '../../src/core/answers.js';

export function readTimeseries(siteId: string, view: URLSearchParams, metric: Metric, comparison: Comparison): Promise<TimeseriesAnswer> {
  return readSite<TimeseriesAnswer>(siteId, timeseriesRead(view, metric, comparison));
}

export function seriesCsv(series: TimeseriesAnswer, metric: Metric): string {
  return toCsv(
    ['Bucket', metric, 'Previous bucket', `Previous ${metric}`],
    series.points.map((p, i) => {
      const prev = series.prev?.[i];
      return [bucketStamp(p.t, series.grain, series.tz), p.value, prev ? bucketStamp(prev.t, series.grain, series.tz) : null, prev?.value ?? null];
    }),
  );
}
