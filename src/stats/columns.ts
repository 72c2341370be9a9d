// The column of the events table that holds each dimension's key (the exit page, which no event
// holds, is derived per session as `exit_page`). Session rows (./rollups/tables.ts) keep the
// session-scoped keys under the same names, so that one filter predicate reads both.
import type { Dimension } from '../core/vocabulary.js';

const COLUMN: Record<Dimension, string> = {
  page: 'page',
  entry: 'entry_page',
  exit: 'exit_page',
  referrer: 'referrer',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  country: 'country',
  region: 'region',
  city: 'city',
  browser: 'browser',
  os: 'os',
  device: 'device',
  event: 'name',
  hostname: 'hostname',
};

export function dimensionColumn(d: Dimension): string {
  return COLUMN[d];
}
