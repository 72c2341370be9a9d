// Typed reasons for discarding a collected event (docs/operations.md). Counted per reason in /metrics.
// No Node API: the dashboard bundles it, and says each outcome in the catalogue's words
// (src/core/messages/en/first-event.ts).
export const DROP_REASONS = [
  'too_large',
  'bad_json',
  'bad_shape',
  'unknown_site',
  'origin_mismatch',
  'gpc',
  'bot_ua',
  'bot_datacenter',
  'rate_limited',
  'bad_name',
  'bad_props',
] as const;

export type DropReason = (typeof DROP_REASONS)[number];

/** What became of a collected event: stored (without the revenue it came with when that was not valid), or dropped for a reason. */
export type Outcome = DropReason | 'accepted' | 'accepted_without_revenue';

/** Whether an outcome stores the event. */
export const isAccepted = (outcome: Outcome): boolean => outcome === 'accepted' || outcome === 'accepted_without_revenue';
