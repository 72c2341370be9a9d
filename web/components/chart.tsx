// The chart of the selected metric over the period, the compared period dashed behind it, the
// bucket under way dashed at the end of the line (never read as a drop) and buckets yet to come left
// out; the pointer (a hover, a tap, or the arrow keys once focused) shows a bucket's date in the site's zone and its value.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { VNode } from 'preact';
import { chartGeometry, nearestIndex, partialBucket } from '../lib/chart.js';
import { bucketStamp, formatAxisLabel, formatBucket, formatMetric, formatUnits } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { type Metric, METRIC_REGISTRY } from '../../src/core/metric-registry.js';
import type { Comparison } from '../../src/core/vocabulary.js';
import type { TimeseriesAnswer } from '../../src/core/answers.js';
import { namesText } from '../lib/text/names.js';
import { periodText } from '../lib/text/period.js';
import { dashboardText } from '../lib/text/dashboard.js';

const MARGINS = { height: 240, left: 64, right: 12, top: 12, bottom: 28 };

/** The smallest step of the y axis a metric's labels show apart (formatMetric's precision: a ratio to a tenth of a percent, counts and seconds whole). */
const labelStep = (metric: Metric): number => (METRIC_REGISTRY[metric].format === 'ratio' ? 0.001 : 1);

/** The width of an element in CSS pixels, followed as it changes (the chart is drawn at its real size: text is never stretched). */
function useWidth(element: { current: Element | null }, initial: number): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.max(240, Math.round(entry.contentRect.width))));
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return width;
}

/** Drawn over the chart (the annotations' markers): `xs`, each bucket's x out of `width`, and the plot's height above the x labels. */
export type ChartOverlay = (xs: readonly number[], width: number, plotHeight: number) => VNode;

/** `now`: the instant that decides which bucket is under way (the clock, unless given). */
export function Chart({ series, metric, comparison, now = Date.now(), overlay }: { series: TimeseriesAnswer; metric: Metric; comparison: Comparison; now?: number; overlay?: ChartOverlay | undefined }) {
  const [active, setActive] = useState<number | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure, 960);
  const BOX = { ...MARGINS, width };
  // The period runs past now while its last day is today or later in the site's zone.
  const partial = useMemo(() => partialBucket(series.points, now, bucketStamp(now, 'day', series.tz) <= series.period.to), [series]);
  const g = useMemo(
    () => chartGeometry(series.points, series.prev, BOX, Math.max(2, Math.floor(width / 110)), labelStep(metric), partial),
    [series, width, metric, partial],
  );
  const label = namesText.metricNames[metric];
  const compared = series.prev ? comparison : null;
  const partialY = partial === null ? null : g.ys[partial];
  const format = (v: number | null) => formatMetric(metric, v);
  const point = (event: PointerEvent) => {
    const rect = svg.current!.getBoundingClientRect();
    setActive(nearestIndex(g.xs, ((event.clientX - rect.left) / rect.width) * BOX.width));
  };
  const keys = (event: KeyboardEvent) => {
    const last = series.points.length - 1;
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const from = active ?? (event.key === 'ArrowRight' ? -1 : last + 1);
      setActive(Math.max(0, Math.min(last, from + (event.key === 'ArrowRight' ? 1 : -1))));
    }
  };
  const at = active === null ? undefined : series.points[active];
  const prevAt = active === null ? undefined : series.prev?.[active];
  const total = series.points.length;
  return (
    <figure class="chart" ref={figure}>
      <svg
        ref={svg}
        viewBox={`0 0 ${BOX.width} ${BOX.height}`}
        width={BOX.width}
        height={BOX.height}
        role="img"
        aria-label={
          fill(dashboardText.chartName, { metric: label, buckets: formatUnits(total, series.grain) }) +
          (compared ? fill(dashboardText.chartCompared, { comparison: periodText.comparisons[compared] }) : '') +
          (partial === null ? '' : dashboardText.chartUnderWay[series.grain])
        }
        tabIndex={0}
        onPointerMove={point}
        onPointerDown={point}
        // A finger leaves the screen at the end of every tap: the tapped bucket stays shown until
        // the chart loses focus.
        onPointerLeave={(event) => event.pointerType !== 'touch' && setActive(null)}
        onKeyDown={keys}
        onBlur={() => setActive(null)}
      >
        {g.yTicks.map((t) => (
          <g key={t.value} class="grid">
            <line x1={BOX.left} x2={BOX.width - BOX.right} y1={t.y} y2={t.y} />
            <text x={BOX.left - 8} y={t.y + 4} text-anchor="end">
              {format(t.value)}
            </text>
          </g>
        ))}
        {g.xTicks.map((t) => (
          <text key={t.index} class="x-label" x={t.x} y={BOX.height - 8} text-anchor="middle">
            {formatAxisLabel(series.points[t.index]!.t, series.grain, series.tz)}
          </text>
        ))}
        {g.area && <path class="area" d={g.area} />}
        {g.prevLine && <path class="prev-line" d={g.prevLine} />}
        <path class="line" d={g.line} />
        {g.partialLine && <path class="partial-line" d={g.partialLine} />}
        {partialY != null && <circle class="partial-point" cx={g.xs[partial!]} cy={partialY} r={3} />}
        {active !== null && (
          <g class="cursor">
            <line x1={g.xs[active]} x2={g.xs[active]} y1={BOX.top} y2={g.baseline} />
            {g.ys[active] !== null && <circle cx={g.xs[active]} cy={g.ys[active]!} r={4} />}
          </g>
        )}
      </svg>
      {overlay?.(g.xs, BOX.width, MARGINS.height - MARGINS.bottom)}
      {at && (
        <div class="tooltip" role="status" style={{ left: `${(g.xs[active!]! / BOX.width) * 100}%` }}>
          <strong>{formatBucket(at.t, series.grain, series.tz)}</strong>
          <span>
            {fill(dashboardText.labelled, { label, value: format(at.value) })}
            {active === partial && dashboardText.soFar}
          </span>
          {prevAt && (
            <span class="muted">{fill(dashboardText.labelled, { label: `${compared ? periodText.comparisons[compared] : ''} (${formatBucket(prevAt.t, series.grain, series.tz)})`, value: format(prevAt.value) })}</span>
          )}
        </div>
      )}
      <figcaption class="legend">
        <span class="key current">{label}</span>
        {partial !== null && <span class="key partial">{dashboardText.currentBucket[series.grain]}</span>}
        {compared && <span class="key previous">{periodText.comparisons[compared]}</span>}
      </figcaption>
    </figure>
  );
}
