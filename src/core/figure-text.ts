// Figures as people read them: counts, ratios, durations, money and changes, in a locale (the
// page's in the dashboard, `locale` undefined: ./figure-locale.ts; REPORT_LOCALE in the CLI, the
// reader's in the email reports), so
// that the same figure reads the same wherever svc shows it.
import type { Kpi } from './answers.js';
import { figureLocale, figurePoints } from './figure-locale.js';
import { fill } from './messages/language.js';
import { names } from './messages/en/common.js';
import { changeIsGood, type Metric, METRIC_REGISTRY, pointsBetween } from './metric-registry.js';

/** The locale of the CLI's and the email reports' figures. */
export const REPORT_LOCALE = 'en-GB';

// Intl formatters are costly to build and a dashboard formats hundreds of numbers and dates.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

/** The Intl formatter of a kind for a locale (figureLocale() when undefined) and options, built once. */
export function cachedFormatter<F extends Intl.NumberFormat | Intl.DateTimeFormat>(kind: 'number' | 'date', locale: string | undefined, options: object, build: (locale: string | undefined) => F): F {
  const resolved = locale ?? figureLocale();
  const key = `${kind}|${resolved}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as F | undefined;
  if (!f) formatters.set(key, (f = build(resolved)));
  return f;
}

const numberFormat = (locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat =>
  cachedFormatter('number', locale, options, (resolved) => new Intl.NumberFormat(resolved, options));

/** A count, grouped as the locale groups digits: 12,345 / 12 345 / 12.345. */
export function formatCount(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** An amount of money in major units with its 2 decimals, grouped as the locale groups digits: 1,234.50 (the currency is said apart). */
export function formatAmount(amount: number, locale?: string): string {
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
}

/** How many of one thing per another (views per visit): at most two decimals, 1.5 / 2.25. */
export function formatRatioOf(count: number, per: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(count / per);
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
  switch (METRIC_REGISTRY[metric].format) {
    case 'ratio':
      return formatRatio(value, locale);
    case 'duration':
      return formatDuration(value, locale);
    case 'count':
      return formatCount(value, locale);
  }
}

/** A change in percent (12.5 means +12.5%), signed: +12.5%, −3%, 0%. */
export function formatChange(deltaPct: number, locale?: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(deltaPct / 100);
}

/**
 * A difference of two ratios in percentage points (0.003 means +0.3 pp), signed: +0.3 pp, −1 pp, 0 pp;
 * `points`: the catalogue's `pointChange` of the reader's language (`+0,3 Pp.`), the page's unless given.
 */
export function formatPoints(difference: number, locale?: string, points = figurePoints() ?? names.pointChange): string {
  return fill(points, { n: numberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(difference * 100) });
}

/** A KPI's change as its tile writes it, and whether it is good news (null: neither). */
export interface KpiChange {
  text: string;
  good: boolean | null;
}

/**
 * A ratio's change in percentage points (0.7% → 1.0% is +0.3 pp, not +42.9%), coloured as `metric`'s
 * changes are; `—` against a previous 0 or no previous value (a change from nothing means nothing).
 */
export function pointsChange(metric: Metric, value: number, prev: number | null, locale?: string, points?: string): KpiChange {
  if (prev === null || prev === 0) return { text: '—', good: null };
  // The points are rounded as they are written, so that a change written 0 pp is coloured as none.
  const change = pointsBetween(value, prev);
  return { text: formatPoints(change / 100, locale, points), good: change === 0 ? null : changeIsGood(metric, change) };
}

/** A change in percent (`deltaPct`), coloured as `metric`'s changes are; `—` without a comparison base (null). */
export function percentChange(metric: Metric, deltaPct: number | null, locale?: string): KpiChange {
  if (deltaPct === null) return { text: '—', good: null };
  return { text: formatChange(deltaPct, locale), good: deltaPct === 0 ? null : changeIsGood(metric, deltaPct) };
}

/**
 * A KPI's change: a ratio's in percentage points, any other's in percent, `—` against a previous 0
 * or no previous value. Null when the value itself is not computable.
 */
export function kpiChange(metric: Metric, kpi: Kpi, locale?: string, points?: string): KpiChange | null {
  if (kpi.value === null) return null;
  if (METRIC_REGISTRY[metric].format === 'ratio') return pointsChange(metric, kpi.value, kpi.prev, locale, points);
  return percentChange(metric, kpi.prev === null || kpi.prev === 0 ? null : kpi.deltaPct, locale);
}

/** A KPI's change as text, `–` where its value is not computable (the CLI's and the reports' cell). */
export const kpiChangeText = (metric: Metric, kpi: Kpi, locale?: string, points?: string): string => kpiChange(metric, kpi, locale, points)?.text ?? '–';
