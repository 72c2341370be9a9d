// The read API's refusals as sentences a dashboard user can act on, shown in place of the figures
// they stop. Codes not listed keep the server's own message.
import { ApiError, messageOf, type FailureCode } from './api.js';

const READABLE: Partial<Record<FailureCode, string>> = {
  RAW_WINDOW_EXCEEDED:
    'These filters need single events, which this site keeps for a limited number of days (Raw events, in its settings): choose a shorter, more recent period, or remove a filter.',
  METRIC_NOT_FILTERABLE: 'This figure cannot be computed with the active filters: remove a filter or choose another metric.',
  HOURLY_CONVERSIONS_UNSUPPORTED: 'Conversions are counted per day: choose a period longer than two days to chart them.',
  INVALID_PERIOD: 'The period starts after it ends: choose a start day before the end day.',
  NOT_FOUND: 'Not found: it does not exist, was archived, or belongs to an organisation you are not a member of.',
  RATE_LIMITED: 'Too many requests for a moment: the figures will load again shortly.',
};

export function readableError(error: unknown): string {
  if (error instanceof ApiError) return READABLE[error.code] ?? error.message;
  return messageOf(error);
}
