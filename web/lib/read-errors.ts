// The read API's refusals as sentences a dashboard user can act on, shown in place of the figures
// they stop, by the refusal's reason. Reasons not listed keep the server's own message.
import { ApiError, messageOf } from './api.js';
import type { ErrorReason } from '../../src/core/errors.js';

const RAW_WINDOW =
  'Not counted for these days: these filters need single events, which this site keeps for a limited time (Keep single events, in its settings). Choose a more recent period, or remove a filter.';
const NOT_FOUND = 'Not found: it does not exist, was archived, or belongs to an organisation you are not a member of.';
const RATE_LIMITED = 'Too many requests for a moment: the figures will load again shortly.';

const READABLE: Partial<Record<ErrorReason, string>> = {
  FILTERS_RAW_WINDOW_EXCEEDED: RAW_WINDOW,
  PROPERTY_NONE_RAW_WINDOW_EXCEEDED: RAW_WINDOW,
  OPERATOR_RAW_WINDOW_EXCEEDED: RAW_WINDOW,
  // A shared link's lock on pages is no filter its viewer can remove.
  PAGE_PATTERN_RAW_WINDOW_EXCEEDED:
    'This shared link shows some pages only, which needs single events, kept for a limited number of days: choose a shorter, more recent period.',
  METRIC_NOT_FILTERABLE: 'This figure cannot be computed with the active filters: remove a filter or choose another metric.',
  HOURLY_CONVERSIONS_UNSUPPORTED: 'Conversions of all goals together are counted per day: filter by a goal to chart its conversions by the hour, or choose a period longer than two days.',
  REVERSED_INVALID_PERIOD: 'The period starts after it ends: choose a start day before the end day.',
  SITE_NOT_FOUND: NOT_FOUND,
  FUNNEL_NOT_FOUND: NOT_FOUND,
  DASHBOARD_RATE_LIMITED: RATE_LIMITED,
  LONG_READS_RATE_LIMITED: RATE_LIMITED,
};

/** Refusals that tell of days without single events: nothing went wrong, the figures do not exist (shown as a note, not an error). */
const NO_SINGLE_EVENTS: ReadonlySet<ErrorReason> = new Set(['FILTERS_RAW_WINDOW_EXCEEDED', 'PROPERTY_NONE_RAW_WINDOW_EXCEEDED', 'OPERATOR_RAW_WINDOW_EXCEEDED', 'PAGE_PATTERN_RAW_WINDOW_EXCEEDED']);

export function tellsOfNoSingleEvents(reason: ErrorReason | undefined): boolean {
  return reason !== undefined && NO_SINGLE_EVENTS.has(reason);
}

export function readableError(error: unknown): string {
  if (error instanceof ApiError) return (error.reason && READABLE[error.reason]) ?? error.message;
  return messageOf(error);
}
