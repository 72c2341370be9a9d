// Site-local calendar arithmetic on IANA zones, through Intl (no tz database of our own).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(epochMs: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function formatDay(p: LocalParts): string {
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

// The hot path asks for the local day of one instant after another, nearly always inside the same
// local day: each zone remembers the span of the last day it computed.
const lastDay = new Map<string, LocalDaySpan>();

/** A site-local calendar day (YYYY-MM-DD) and the instants it spans, [start, end). */
export interface LocalDaySpan {
  readonly day: string;
  readonly start: number;
  readonly end: number;
}

/** The site-local day of an instant, with its bounds. */
export function localDaySpan(epochMs: number, timeZone: string): LocalDaySpan {
  const hit = lastDay.get(timeZone);
  if (hit && epochMs >= hit.start && epochMs < hit.end) return hit;
  const day = formatDay(localParts(epochMs, timeZone));
  const span = { day, start: startOfLocalDay(day, timeZone), end: startOfLocalDay(addDays(day, 1), timeZone) };
  if (epochMs >= span.start && epochMs < span.end) lastDay.set(timeZone, span);
  return span;
}

/** The site-local calendar day (YYYY-MM-DD) of an instant. */
export function localDay(epochMs: number, timeZone: string): string {
  return localDaySpan(epochMs, timeZone).day;
}

/** Offset of the zone from UTC at an instant, in minutes (local = utc + offset). */
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
  const p = localParts(epochMs, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/** The local wall-clock time of an instant, expressed as if it were UTC (minute precision). */
function wallClock(epochMs: number, timeZone: string): number {
  return epochMs + zoneOffsetMinutes(epochMs, timeZone) * 60_000;
}

/**
 * The UTC instant of a local wall-clock time. A repeated wall time (fall back) gives its first
 * occurrence; a skipped one (spring forward, including a skipped midnight) gives the first instant
 * after the gap. Any offset and any size of transition (Lord Howe moves by 30 minutes).
 */
export function localToEpoch(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force a day before and after bracket any transition near this wall time.
  const offsets = new Set([-86_400_000, 0, 86_400_000].map((d) => zoneOffsetMinutes(wall + d, timeZone)));
  const candidates = [...offsets].map((o) => wall - o * 60_000).sort((x, y) => x - y);
  const exact = candidates.find((t) => wallClock(t, timeZone) === wall);
  if (exact !== undefined) return exact;
  // Skipped: local time jumps over `wall` between the earliest and latest candidate; transitions
  // fall on whole minutes, so a minute-step binary search finds the first instant after the gap.
  let lo = candidates[0]!;
  let hi = candidates.at(-1)!;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (wallClock(mid, timeZone) < wall) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Day starts already found, per zone and day: a year's timeseries asks two years of them (about
 * three formatToParts calls each, 9 ms a year view on a busy machine). Emptied past KNOWN_DAY_STARTS.
 */
const dayStarts = new Map<string, number>();
const KNOWN_DAY_STARTS = 100_000;

/** Start of a site-local day (its local midnight, or the first instant after a gap). */
export function startOfLocalDay(day: string, timeZone: string): number {
  const key = `${timeZone} ${day}`;
  const known = dayStarts.get(key);
  if (known !== undefined) return known;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const start = localToEpoch(y, m, d, 0, 0, timeZone);
  if (dayStarts.size >= KNOWN_DAY_STARTS) dayStarts.clear();
  dayStarts.set(key, start);
  return start;
}

/** Day arithmetic on YYYY-MM-DD strings (calendar days, no zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
