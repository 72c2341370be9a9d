// Dates and times as the dashboard writes them, in the page's locale (./i18n.ts) or a given one, in the site's time zone; numbers, durations and changes are src/core/figure-text.ts's,
// the same in the dashboard, the CLI and the email reports.
import type { Grain } from '../../src/core/vocabulary.js';
import { cachedFormatter, formatCount, type KpiChange } from '../../src/core/figure-text.js';
import { pageLocale } from './i18n.js';
import { plural, type Plural } from '../../src/core/messages/language.js';

// In the page's locale unless told another: ./i18n.ts sets it as figure-text's default.
export {
  formatAmount,
  formatChange,
  formatCount,
  formatDuration,
  formatMetric,
  formatPoints,
  formatRatio,
  formatRatioOf,
  kpiChange,
  percentChange,
  pointsChange,
  type KpiChange,
} from '../../src/core/figure-text.js';

/** A count of a unit in the page's language, by Intl's own words: `7 days`, `7 Tage`, `7 jours` (`120 ms` short). */
export function formatUnits(n: number, unit: Grain | 'millisecond', unitDisplay: 'long' | 'short' = 'long', locale = pageLocale()): string {
  const options: Intl.NumberFormatOptions = { style: 'unit', unit, unitDisplay };
  return cachedFormatter('number', locale, options, (resolved) => new Intl.NumberFormat(resolved, options)).format(n);
}

/** A count's words in the page's language: `{n}` is the count as the locale writes it. */
export const countText = (entry: Plural, n: number, params: Readonly<Record<string, string | number>> = {}): string =>
  plural(entry, n, pageLocale(), { n: formatCount(n), ...params });

const dateFormat = (locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat =>
  cachedFormatter('date', locale, options, (resolved) => new Intl.DateTimeFormat(resolved, options));

/** The class of a change's text: `up` for good news, `down` for bad, none for neither. */
export const changeClass = (change: KpiChange): string => (change.good === null ? '' : change.good ? 'up' : 'down');

/**
 * The bucket that starts at `t` (epoch ms) as a date in the site's zone: with the hour for hourly
 * buckets, the first day for days and weeks, month and year for months.
 */
export function formatBucket(t: number, grain: Grain, timeZone: string, locale = pageLocale()): string {
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
export function formatAxisLabel(t: number, grain: Grain, timeZone: string, locale = pageLocale()): string {
  const date = new Date(t);
  if (grain === 'hour') return dateFormat(locale, { timeZone, hour: 'numeric' }).format(date);
  if (grain === 'month') return dateFormat(locale, { timeZone, month: 'short', year: '2-digit' }).format(date);
  return dateFormat(locale, { timeZone, day: 'numeric', month: 'short' }).format(date);
}

/** A site-local day `YYYY-MM-DD` as the locale writes a date. */
export function formatDay(day: string, locale = pageLocale()): string {
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
