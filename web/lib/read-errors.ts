// The read API's refusals as sentences a dashboard user can act on, shown in place of the figures
// they stop, by the refusal's reason. Reasons not listed keep the server's own message.
import { ApiError, messageOf } from './api.js';
import type { ErrorReason } from '../../src/core/errors.js';
import { readErrorsText } from './text/read-errors.js';

type ReadError = keyof typeof readErrorsText;

/** The catalogue's sentence of each refusal (readErrorsText). */
const READABLE: Partial<Record<ErrorReason, ReadError>> = {
  FILTERS_RAW_WINDOW_EXCEEDED: 'window',
  PROPERTY_NONE_RAW_WINDOW_EXCEEDED: 'window',
  OPERATOR_RAW_WINDOW_EXCEEDED: 'window',
  // A shared link's lock on pages is no filter its viewer can remove.
  PAGE_PATTERN_RAW_WINDOW_EXCEEDED: 'pageLock',
  METRIC_NOT_FILTERABLE: 'unfilterable',
  HOURLY_CONVERSIONS_UNSUPPORTED: 'hourly',
  REVERSED_INVALID_PERIOD: 'reversed',
  SITE_NOT_FOUND: 'missing',
  FUNNEL_NOT_FOUND: 'missing',
  DASHBOARD_RATE_LIMITED: 'busy',
  LONG_READS_RATE_LIMITED: 'busy',
};

/** Refusals that tell of days without single events: nothing went wrong, the figures do not exist (shown as a note, not an error). */
const NO_SINGLE_EVENTS: ReadonlySet<ErrorReason> = new Set(['FILTERS_RAW_WINDOW_EXCEEDED', 'PROPERTY_NONE_RAW_WINDOW_EXCEEDED', 'OPERATOR_RAW_WINDOW_EXCEEDED', 'PAGE_PATTERN_RAW_WINDOW_EXCEEDED']);

export function tellsOfNoSingleEvents(reason: ErrorReason | undefined): boolean {
  return reason !== undefined && NO_SINGLE_EVENTS.has(reason);
}

export function readableError(error: unknown): string {
  if (!(error instanceof ApiError)) return messageOf(error);
  const sentence = error.reason && READABLE[error.reason];
  return sentence ? readErrorsText[sentence] : messageOf(error);
}
