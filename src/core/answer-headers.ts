// What the read API's answers say in headers beside their bodies (./answers.ts): what they did with
// imported days, a read clipped to the raw window, the days goals and funnels are counted since, a
// refusal's reason. Constants and plain functions: the dashboard bundles this module.
/**
 * What an answer did with days imported from another tool (its `Svc-Imported` header): `included`,
 * `excluded` (the read is one they cannot answer exactly), or `none` (no day read holds any).
 */
export const IMPORTED_ANSWERS = ['included', 'excluded', 'none'] as const;
export type ImportedAnswer = (typeof IMPORTED_ANSWERS)[number];

export function isImportedAnswer(text: string | null): text is ImportedAnswer {
  return (IMPORTED_ANSWERS as readonly string[]).includes(text ?? '');
}

/**
 * The response header that carries a refusal's reason on /app/v1 and /admin/v1: on the read API's
 * routes mounted again under /app/v1 it is the only place of the reason, since their bodies stay
 * /v1's byte for byte; elsewhere the envelope says it too.
 */
export const REASON_HEADER = 'svc-error-reason';

/** The response header of every planned read (stats, timeseries, breakdown, goals, funnel) that says its ImportedAnswer. */
export const IMPORTED_HEADER = 'svc-imported';

/** The response header of a read clipped to the raw window (`raw=clip`): `clipped; from=<the day asked>`. */
export const RAW_WINDOW_HEADER = 'svc-raw-window';
export const rawWindowHeader = (requestedFrom: string) => `clipped; from=${requestedFrom}`;

/**
 * From which day the figures of each goal or funnel version of a goals or funnel answer are
 * complete: days of the site's rollups before it lack them (it was made after them, and their raw
 * events were gone). Said by the dashboard's answers (/app/v1) only, in a header so that their
 * bodies stay byte for byte those of /v1: `goal:7=2026-02-19, funnel:3:2=2026-02-19`, naming only
 * the goals and versions whose figures miss days; absent when none do.
 */
export const COUNTED_SINCE_HEADER = 'svc-counted-since';

/** How the rollups' bookkeeping and the counted-since header name a goal. */
export const goalKey = (goalId: number): string => `goal:${goalId}`;
/**
 * How the counted-since header names the stats' conversions under filters when a `raw=clip` read
 * counts them from the raw window's first day only (the period starts before it).
 */
export const CONVERSIONS_KEY = 'conversions';
/** How the rollups' bookkeeping and the counted-since header name a funnel version. */
export const funnelKey = (funnelId: number, version: number): string => `funnel:${funnelId}:${version}`;

/** The counted-since header's value for the first complete day of each definition (`goalKey`, `funnelKey`); undefined when none misses days. */
export function countedSinceHeader(days: ReadonlyArray<readonly [key: string, countedSince: string | null]>): string | undefined {
  const said = days.filter((entry): entry is readonly [string, string] => entry[1] !== null);
  return said.length === 0 ? undefined : said.map(([key, day]) => `${key}=${day}`).join(', ');
}

/** The first complete day of each definition a counted-since header names (none for an absent header). */
export function parseCountedSince(header: string | null | undefined): ReadonlyMap<string, string> {
  const days = new Map<string, string>();
  for (const entry of (header ?? '').split(',')) {
    const separator = entry.lastIndexOf('=');
    if (separator > 0) days.set(entry.slice(0, separator).trim(), entry.slice(separator + 1).trim());
  }
  return days;
}
