// The 14 dimensions of filters and breakdowns, and how each is scoped (docs/api.md, Dimensions).
//
// Event-scoped dimensions (page, event) describe one event; a filter on them keeps matching events.
// Session-scoped ones describe a whole session (copied onto each of its events at ingest, except
// `exit`, derived at query time); a filter on them keeps every event of matching sessions.

export const DIMENSIONS = [
  'page',
  'entry',
  'exit',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'region',
  'city',
  'browser',
  'os',
  'device',
  'event',
] as const;

export type Dimension = (typeof DIMENSIONS)[number];

export function isDimension(text: string): text is Dimension {
  return (DIMENSIONS as readonly string[]).includes(text);
}

export type DimensionScope = 'event' | 'session';

export function scopeOf(d: Dimension): DimensionScope {
  return d === 'page' || d === 'event' ? 'event' : 'session';
}

/** The key reported for an absent value, which a filter value `(none)` also matches. */
export const NONE_KEY = '(none)';
/** The key under which rollups fold the long tail beyond the per-day cap. */
export const OTHER_KEY = '(other)';

/**
 * A client's text as stored: one that spells a reserved key keeps its word but trades the
 * parentheses for brackets (`(none)` → `[none]`, `(other)` → `[other]`), so that it is counted as
 * a value of its own, never in the bucket of absent values or of the folded long tail.
 */
export function clientValue(text: string | null): string | null {
  return text === NONE_KEY || text === OTHER_KEY ? `[${text.slice(1, -1)}]` : text;
}
