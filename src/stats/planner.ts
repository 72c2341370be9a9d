// The planner: a pure step Query → Query that decides where each day's numbers come from
// (docs/api.md, "How answers are computed") and rejects what cannot be answered.
//
// - at most one filter, and no breakdown or a breakdown of that filter's own dimension → rollups
//   up to the site's watermark, raw events after it (or from the first day in the raw window on
//   which the filter's key was folded into `(other)`, which rollups cannot count);
// - two or more filters, or a filter with another dimension's breakdown → raw events only, and the
//   whole period must lie in the raw window (the last 30 local days);
// - hourly timeseries → raw events only (earlier hours are not computable and come out null).
import { addDays } from '../core/localtime.js';
import { ApiError } from '../core/errors.js';
import { addMonths, firstOfMonth, periodDays, RAW_WINDOW_DAYS, type Period } from '../core/period.js';
import { metricTakesFilters, type Query } from '../core/query.js';

export interface PlanInputs {
  /** Last day the site's rollups cover; null when none. */
  watermark: string | null;
  retentionMonths: number | null;
  /** The first rolled-up day on which the single filter's key was folded into `(other)`, if any. */
  firstFoldedDay?: string | null;
}

export function rawWindowStart(today: string): string {
  return addDays(today, -(RAW_WINDOW_DAYS - 1));
}

export function retentionStart(today: string, retentionMonths: number | null): string | null {
  return retentionMonths === null ? null : addMonths(today, -retentionMonths);
}

function rawOnlyByFilters(q: Query): boolean {
  const [filter] = q.filters;
  return q.filters.length >= 2 || (filter !== undefined && q.breakdown !== null && q.breakdown.dimension !== filter.dimension);
}

/** Whether a query reads raw events only, whatever the rollups hold. */
export function needsRawEvents(q: Query): boolean {
  return (q.kind === 'timeseries' && q.grain === 'hour') || rawOnlyByFilters(q);
}

export function planQuery(q: Query, inputs: PlanInputs): Query {
  if (q.kind === 'timeseries') {
    if (!metricTakesFilters(q.metric, q.filters)) {
      throw new ApiError('METRIC_NOT_FILTERABLE', `the ${q.metric} metric does not take the given filters`);
    }
    if (q.metric === 'conversions' && q.grain === 'hour') {
      throw new ApiError('HOURLY_CONVERSIONS_UNSUPPORTED', 'conversions are not available per hour; use a period of 3 days or more');
    }
  }
  const windowStart = rawWindowStart(q.today);
  // Raw events are kept 30 days: the period must start inside that window and, reaching into the
  // future or not, last at most 30 days (docs/api.md: the period is then limited to 30 days).
  if (rawOnlyByFilters(q) && (q.period.from < windowStart || periodDays(q.period) > RAW_WINDOW_DAYS)) {
    throw new ApiError(
      'RAW_WINDOW_EXCEEDED',
      `two or more filters, or a filter with another dimension's breakdown, need a period within the last ${RAW_WINDOW_DAYS} days`,
    );
  }
  const path = needsRawEvents(q) ? ('raw' as const) : ('rollup' as const);
  return Object.freeze({
    ...q,
    plan: Object.freeze({
      path,
      watermark: path === 'rollup' ? rollupWatermark(inputs, windowStart) : inputs.watermark,
      rawWindowStart: windowStart,
      retentionStart: retentionStart(q.today, inputs.retentionMonths),
    }),
  });
}

/**
 * The last day read from rollups. Rollups cannot count a filter's key on a day it was folded into
 * `(other)`: from the first such day inside the raw window on, raw events answer instead (they are
 * kept for those days). A folded day before the window has only its rollup, which reads 0 for the key.
 */
function rollupWatermark(inputs: PlanInputs, windowStart: string): string | null {
  const { watermark, firstFoldedDay: folded } = inputs;
  if (watermark === null || !folded || folded < windowStart || folded > watermark) return watermark;
  return addDays(folded, -1);
}

/** Where the days of a range come from under a plan; days in neither part are not computable. */
export interface DaySources {
  rollup: Period | null;
  raw: Period | null;
  /** The first computable day of the range, or null when none is. */
  firstComputable: string | null;
}

function clip(from: string, to: string): Period | null {
  return from <= to ? { from, to } : null;
}

export function daySources(q: Query, range: Period): DaySources {
  const plan = q.plan;
  if (plan === null) throw new Error('daySources needs a planned query');
  let from = range.from;
  if (plan.retentionStart !== null && plan.retentionStart > from) from = plan.retentionStart;
  if (plan.path === 'raw') {
    if (plan.rawWindowStart > from) from = plan.rawWindowStart;
    const raw = clip(from, range.to);
    return { rollup: null, raw, firstComputable: raw?.from ?? null };
  }
  const wm = plan.watermark;
  const rollup = wm === null ? null : clip(from, wm < range.to ? wm : range.to);
  const rawFrom = wm !== null && addDays(wm, 1) > from ? addDays(wm, 1) : from;
  const raw = clip(rawFrom, range.to);
  return { rollup, raw, firstComputable: rollup?.from ?? raw?.from ?? null };
}

/** A previous period is comparable only when every one of its days is computable. */
export function fullyComputable(q: Query, range: Period): boolean {
  return daySources(q, range).firstComputable === range.from;
}

/** A range of rolled-up days as whole calendar months (read from monthly sums) and the days around them. */
export interface MonthSplit {
  head: Period | null;
  months: Period | null; // first days of the first and last whole months
  tail: Period | null;
}

export function splitMonths(range: Period): MonthSplit {
  const firstWhole = range.from === firstOfMonth(range.from) ? range.from : addMonths(firstOfMonth(range.from), 1);
  const nextMonth = addMonths(firstOfMonth(range.to), 1);
  const lastWholeEnd = addDays(nextMonth, -1) === range.to ? range.to : addDays(firstOfMonth(range.to), -1);
  if (firstWhole > lastWholeEnd) return { head: range, months: null, tail: null };
  return {
    head: clip(range.from, addDays(firstWhole, -1)),
    months: { from: firstWhole, to: firstOfMonth(lastWholeEnd) },
    tail: clip(addDays(lastWholeEnd, 1), range.to),
  };
}
