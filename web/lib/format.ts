// Numbers, durations, changes and dates as the dashboard writes them: in the browser's locale
// (`locale` undefined) or a given one, dates in the site's time zone.
import type { Metric } from './view-state.js';

export type Grain = 'hour' | 'day' | 'week' | 'month';

// Intl formatters are costly to build and a dashboard formats hundreds of numbers.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}
function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** A count, grouped as the locale groups digits: 12,345 / 12 345 / 12.345. */
export function formatCount(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** A ratio 0..1 as a percentage with at most one decimal: 0.4235 -> 42.4%. */
export function formatRatio(ratio: number, locale?: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

/** Seconds as hours, minutes and seconds in the locale's short units: 125 -> 2m 5s (2 min 5 s in French). */
export function formatDuration(seconds: number, locale?: string): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const unit = (value: number, name: 'hour' | 'minute' | 'second') => numberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  if (h > 0) return `${unit(h, 'hour')} ${unit(m, 'minute')}`;
  if (m > 0) return `${unit(m, 'minute')} ${unit(s, 'second')}`;
  return unit(s, 'second');
}

/** A metric's value as its tile and chart show it; '–' when it is not computable. */
export function formatMetric(metric: Metric, value: number | null, locale?: string): string {
  if (value === null) return '–';
  if (metric === 'bounceRate') return formatRatio(value, locale);
  if (metric === 'avgDuration') return formatDuration(value, locale);
  return formatCount(value, locale);
}

/** A change in percent (12.5 means +12.5%), signed: +12.5%, −3%, 0%. */
export function formatChange(deltaPct: number, locale?: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(deltaPct / 100);
}

/** Whether a change is good news: fewer bounces are, more of anything else is. */
export function changeIsGood(metric: Metric, deltaPct: number): boolean {
  return metric === 'bounceRate' ? deltaPct < 0 : deltaPct > 0;
}

/**
 * The bucket that starts at `t` (epoch ms) as a date in the site's zone: with the hour for hourly
 * buckets, the first day for days and weeks, month and year for months.
 */
export function formatBucket(t: number, grain: Grain, timeZone: string, locale?: string): string {
  const date = new Date(t);
  switch (grain) {
    case 'hour':
      return dateFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(date);
    case 'month':
      return dateFormat(locale, { timeZone, month: 'long', year: 'numeric' }).format(date);
    default:
      return dateFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(date);
  }
}

/** A short axis label of a bucket in the site's zone. */
export function formatAxisLabel(t: number, grain: Grain, timeZone: string, locale?: string): string {
  const date = new Date(t);
  if (grain === 'hour') return dateFormat(locale, { timeZone, hour: 'numeric' }).format(date);
  if (grain === 'month') return dateFormat(locale, { timeZone, month: 'short', year: '2-digit' }).format(date);
  return dateFormat(locale, { timeZone, day: 'numeric', month: 'short' }).format(date);
}

/** A site-local day `YYYY-MM-DD` as the locale writes a date. */
export function formatDay(day: string, locale?: string): string {
  return dateFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(`${day}T00:00:00Z`));
}

/** A bucket's start as a sortable site-local stamp for CSV: `2026-03-02`, or `2026-03-02 14:00` for hours. */
export function bucketStamp(t: number, grain: Grain, timeZone: string): string {
  const parts: Record<string, string> = {};
  const options: Intl.DateTimeFormatOptions = { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  for (const p of dateFormat('en-US', options).formatToParts(new Date(t))) parts[p.type] = p.value;
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return grain === 'hour' ? `${day} ${parts.hour}:${parts.minute}` : day;
}
