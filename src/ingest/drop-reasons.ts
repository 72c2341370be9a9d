// Typed reasons for discarding a collected event (docs/operations.md). Counted per reason in /metrics.
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
