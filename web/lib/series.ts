// The chart's series: read with the previous period for comparison, and as CSV (a row per bucket:
// its site-local start, the value, the previous period's bucket and value).
import type { Point } from './chart.js';
import { toCsv } from './csv.js';
import { bucketStamp, type Grain } from './format.js';
import { readSite, type SiteRead } from './site.js';
import type { Metric } from './view-state.js';

export interface Timeseries {
  period: { from: string; to: string };
  grain: Grain;
  tz: string;
  points: Point[];
  prev?: Point[];
}

export function timeseriesRead(view: URLSearchParams, metric: Metric): SiteRead {
  const params = new URLSearchParams(view);
  params.set('metric', metric);
  params.set('compare', 'true');
  return { path: '/timeseries', params };
}

export function readTimeseries(siteId: string, view: URLSearchParams, metric: Metric): Promise<Timeseries> {
  return readSite<Timeseries>(siteId, timeseriesRead(view, metric));
}

export function seriesCsv(series: Timeseries, metric: Metric): string {
  return toCsv(
    ['Bucket', metric, 'Previous bucket', `Previous ${metric}`],
    series.points.map((p, i) => {
      const prev = series.prev?.[i];
      return [bucketStamp(p.t, series.grain, series.tz), p.value, prev ? bucketStamp(prev.t, series.grain, series.tz) : null, prev?.value ?? null];
    }),
  );
}
