// The geometry of the dashboard's line chart: the selected metric's buckets as an SVG path, the
// compared period's drawn over the same x positions (bucket i against bucket i), the bucket still
// under way apart, y ticks on round values and a few x labels. Pure: the component draws it and
// handles the pointer.
import type { Point } from '../../src/core/answers.js';

export interface ChartBox {
  width: number;
  height: number;
  /** Room left for the y labels and below for the x labels. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export interface ChartGeometry {
  /** x of each bucket. */
  xs: number[];
  /** y of each bucket's value (null where the value is). */
  ys: Array<number | null>;
  /** SVG path data; a null value breaks the line. The partial bucket is not on it. */
  line: string;
  /** From the bucket before the partial one to it (drawn dashed: its value is still growing); '' without one. */
  partialLine: string;
  prevLine: string;
  /** The area under the line, closed on the baseline. */
  area: string;
  yTicks: Array<{ y: number; value: number }>;
  xTicks: Array<{ x: number; index: number }>;
  baseline: number;
}

/** A round step (1, 2 or 5 times a power of ten) giving about `count` ticks up to `max`. */
export function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function path(xs: readonly number[], ys: ReadonlyArray<number | null>): string {
  let d = '';
  let drawing = false;
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i];
    if (y === null || y === undefined) {
      drawing = false;
      continue;
    }
    d += `${drawing ? 'L' : 'M'}${xs[i]!.toFixed(1)},${y.toFixed(1)}`;
    drawing = true;
  }
  return d;
}

/**
 * The bucket under way at `now` (epoch ms): the last one started, when `now` is before the next
 * one's start or, for the last bucket, when the period runs past `now`; null when every bucket
 * started is complete.
 */
export function partialBucket(points: readonly Point[], now: number, runsPastNow: boolean): number | null {
  let index = -1;
  points.forEach((p, i) => p.t <= now && (index = i));
  if (index === -1) return null;
  const next = points[index + 1];
  return (next ? now < next.t : runsPastNow) ? index : null;
}

/**
 * `minStep` is the smallest difference the y labels show apart (1 for counts, whose labels have no
 * decimals): a smaller step would print the same label twice.
 */
export function chartGeometry(
  points: readonly Point[],
  prev: readonly Point[] | undefined,
  box: ChartBox,
  xLabels = 6,
  minStep = 0,
  partial: number | null = null,
): ChartGeometry {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const baseline = box.top + plotHeight;
  const values = [...points, ...(prev ?? [])].map((p) => p.value).filter((v): v is number => v !== null);
  const step = Math.max(minStep, niceStep(Math.max(0, ...values), 4));
  const top = Math.max(step, Math.ceil(Math.max(0, ...values) / step) * step);
  const yOf = (v: number | null) => (v === null ? null : baseline - (v / top) * plotHeight);
  const n = points.length;
  const xAt = (i: number, count: number) => box.left + (count <= 1 ? plotWidth / 2 : (i / (count - 1)) * plotWidth);
  const xs = points.map((_, i) => xAt(i, n));
  const ys = points.map((p) => yOf(p.value));
  // The previous period has as many days, but its weeks or months can fall in one bucket more or
  // fewer (buckets start on a Monday or a 1st): its line then spans the width on steps of its own,
  // drawn whole rather than a bucket short. Otherwise bucket faces bucket.
  const spread = prev !== undefined && Math.abs(prev.length - n) === 1;
  const prevXs = spread ? prev.map((_, j) => xAt(j, prev.length)) : xs;
  const prevYs = (spread ? prev : points.map((_, i) => prev?.[i])).map((p) => yOf(p?.value ?? null));
  const complete = ys.map((y, i) => (i === partial ? null : y));
  const line = path(xs, complete);
  const partialLine = partial === null ? '' : path(xs.slice(Math.max(0, partial - 1), partial + 1), ys.slice(Math.max(0, partial - 1), partial + 1));
  const first = complete.findIndex((y) => y !== null);
  let last = -1;
  complete.forEach((y, i) => y !== null && (last = i));
  const area = first === -1 ? '' : `${path(xs.slice(first, last + 1), complete.slice(first, last + 1))}L${xs[last]!.toFixed(1)},${baseline}L${xs[first]!.toFixed(1)},${baseline}Z`;
  const yTicks: ChartGeometry['yTicks'] = [];
  for (let v = 0; v <= top + step / 2; v += step) yTicks.push({ value: v, y: yOf(v)! });
  const every = Math.max(1, Math.ceil(n / xLabels));
  const xTicks = xs.flatMap((x, index) => (index % every === 0 ? [{ x, index }] : []));
  return { xs, ys, line, partialLine, prevLine: path(prevXs, prevYs), area, yTicks, xTicks, baseline };
}

/** The bucket under a pointer at `x`: the nearest one. */
export function nearestIndex(xs: readonly number[], x: number): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i]! - x) < Math.abs(xs[best]! - x)) best = i;
  return best;
}
