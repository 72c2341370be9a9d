// Periods, grains and buckets in a site's local calendar (docs/api.md, Parameters). Pure: the caller passes
// "today" (the site-local day of the clock) and the zone.
import { addDays, localParts, localToEpoch, startOfLocalDay } from './localtime.js';
import { type Comparison, type Grain, type Preset } from './vocabulary.js';

/** Inclusive range of site-local days. */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** Longest period accepted, so that bucket lists and scans stay bounded. */
export const MAX_PERIOD_DAYS = 3660;

/**
 * The days a period may name. A period's exclusive end (the day after `to`) must itself be a
 * four-digit-year day, since day texts are compared as strings: 9999-12-31 has no such next day.
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '9999-12-30';

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidDay(text: string): boolean {
  const m = DAY_TEXT.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && text >= FIRST_DAY && text <= LAST_DAY;
}

function parts(day: string): [number, number, number] {
  return day.split('-').map(Number) as [number, number, number];
}

function format(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** Number of days from `a` to `b` (b − a). */
export function dayDiff(a: string, b: string): number {
  const [ay, am, ad] = parts(a);
  const [by, bm, bd] = parts(b);
  return Math.round((Date.UTC(by, bm - 1, bd) - Date.UTC(ay, am - 1, ad)) / 86_400_000);
}

export function periodDays(p: Period): number {
  return dayDiff(p.from, p.to) + 1;
}

/** Calendar months added to a day, the day of month clamped to the target month's length. */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = parts(day);
  const lastOfTarget = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
  return format(y, m + n, Math.min(d, lastOfTarget));
}

export function mondayOf(day: string): string {
  const [y, m, d] = parts(day);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday = 0
  return addDays(day, -weekday);
}

export function firstOfMonth(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/**
 * The days of a preset ending today. `firstDataDay` is the site's first day with data (collected or
 * imported; null when none), which `all` starts from; the other presets leave it unread.
 */
export function presetPeriod(preset: Preset, today: string, firstDataDay?: string | null): Period {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { from: y, to: y };
    }
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'month':
      return { from: firstOfMonth(today), to: today };
    case 'last_month': {
      const from = addMonths(firstOfMonth(today), -1);
      return { from, to: addDays(firstOfMonth(today), -1) };
    }
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case '12mo':
      return { from: addMonths(firstOfMonth(today), -11), to: today };
    case 'all':
      if (firstDataDay === undefined) throw new Error('period all needs the site\'s first day with data');
      return allDays(firstDataDay, today);
  }
}

/**
 * The days of `all`: from the first day with data to today; today alone when there is none (or it
 * lies after today), and at most the longest period accepted (its last MAX_PERIOD_DAYS days).
 */
function allDays(firstDataDay: string | null, today: string): Period {
  const earliest = addDays(today, -(MAX_PERIOD_DAYS - 1));
  if (firstDataDay === null || firstDataDay > today) return { from: today, to: today };
  return { from: firstDataDay < earliest ? earliest : firstDataDay, to: today };
}

/** The same number of days just before `from`. */
export function previousPeriod(p: Period): Period {
  const n = periodDays(p);
  return { from: addDays(p.from, -n), to: addDays(p.from, -1) };
}

/**
 * The same local days one year before, over the same number of days: the first day moves back a
 * year (29 February to 28 February) and the period keeps its length.
 */
export function yearEarlier(p: Period): Period {
  const from = addMonths(p.from, -12);
  return { from, to: addDays(from, periodDays(p) - 1) };
}

/** The period a comparison reads; null when comparison is off. */
export function comparedPeriod(p: Period, comparison: Comparison): Period | null {
  if (comparison === 'off') return null;
  return comparison === 'year' ? yearEarlier(p) : previousPeriod(p);
}

/**
 * The last day of an elapsed part, counted up to `until` (exclusive, epoch ms): the same local
 * time of day as the request's clock. `share` is the part of that day's length before `until`, for
 * sources that keep whole days only.
 */
export interface DayCut {
  readonly day: string;
  readonly until: number;
  readonly share: number;
}

export interface ElapsedPart {
  readonly period: Period;
  readonly cut: DayCut;
}

/**
 * The part of a compared period that matches the elapsed part of a period running today: as many
 * days from its start as have begun in the period, the last one up to the same local time of day
 * (the wall clock, so that a day of 23 or 25 hours is cut at the same hour). Null when the period
 * does not contain today (it is over, or has not begun): it is compared whole.
 */
export function elapsedPart(period: Period, compared: Period, now: number, timeZone: string): ElapsedPart | null {
  const local = localParts(now, timeZone);
  const today = format(local.year, local.month, local.day);
  if (today < period.from || today > period.to) return null;
  const day = addDays(compared.from, dayDiff(period.from, today));
  const [y, m, d] = parts(day);
  const start = startOfLocalDay(day, timeZone);
  const end = startOfLocalDay(addDays(day, 1), timeZone);
  const wall = localToEpoch(y, m, d, local.hour, local.minute, timeZone) + local.second * 1000;
  const until = Math.min(end, Math.max(start, wall));
  return { period: { from: compared.from, to: day }, cut: { day, until, share: (until - start) / (end - start) } };
}

/** Grain by local days, so that two days across a DST change still count as 48 hours. */
export function grainFor(p: Period): Grain {
  const n = periodDays(p);
  if (n <= 2) return 'hour';
  if (n <= 90) return 'day';
  if (n <= 366) return 'week';
  return 'month';
}

/** A bucket of whole days: `t` is its local start in UTC ms; from..to are the days inside the period. */
export interface DayBucket {
  readonly t: number;
  readonly from: string;
  readonly to: string;
}

function bucketStartDay(day: string, grain: 'day' | 'week' | 'month'): string {
  if (grain === 'day') return day;
  return grain === 'week' ? mondayOf(day) : firstOfMonth(day);
}

/** Day, week or month buckets covering the period; a week or month starts on its Monday or 1st. */
export function dayBuckets(p: Period, grain: 'day' | 'week' | 'month', timeZone: string): DayBucket[] {
  const buckets: DayBucket[] = [];
  let day = p.from;
  while (day <= p.to) {
    const start = bucketStartDay(day, grain);
    let last = day;
    while (last < p.to && bucketStartDay(addDays(last, 1), grain) === start) last = addDays(last, 1);
    buckets.push({ t: startOfLocalDay(start, timeZone), from: day, to: last });
    day = addDays(last, 1);
  }
  return buckets;
}

/**
 * Local wall-clock hour starts of the period, in UTC ms, ascending. A repeated hour (DST end) gives
 * two buckets, a skipped hour (DST start) none. `end` is the instant the period ends.
 */
export function hourBuckets(p: Period, timeZone: string): { starts: number[]; end: number } {
  const start = startOfLocalDay(p.from, timeZone);
  const end = startOfLocalDay(addDays(p.to, 1), timeZone);
  const starts = new Set<number>();
  for (let day = p.from; day <= p.to; day = addDays(day, 1)) {
    const [y, m, d] = parts(day);
    for (let h = 0; h < 24; h++) {
      const t = localToEpoch(y, m, d, h, 0, timeZone);
      starts.add(t);
      // The second occurrence of a repeated wall-clock hour starts one hour later with the same local hour.
      const later = t + 3_600_000;
      const a = localParts(t, timeZone);
      const b = localParts(later, timeZone);
      if (a.hour === b.hour && a.day === b.day) starts.add(later);
    }
  }
  return { starts: [...starts].filter((t) => t >= start && t < end).sort((a, b) => a - b), end };
}
