// Typed reasons for discarding a collected event (docs/operations.md). Counted per reason in /metrics.
// No Node API: the dashboard shows each outcome in words from this module.
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

/** Each outcome in words, for a site owner checking an installation (docs/admin-api.md, "Recent collection outcomes"). */
export const OUTCOME_WORDS: Readonly<Record<Outcome, string>> = {
  accepted: 'accepted',
  accepted_without_revenue: 'accepted without its revenue: the amount is not a number ≥ 0 with at most 2 decimals, the currency not three letters, or the event a built-in one',
  too_large: 'dropped: the event is over 4 KB',
  bad_json: 'dropped: the event is not JSON',
  bad_shape: "dropped: the event breaks the tracker's rules",
  unknown_site: 'dropped: no active site has this id',
  origin_mismatch: "dropped: sent from a page outside the site's domain",
  gpc: 'dropped: the browser asks not to be tracked (Global Privacy Control) and the site honours it',
  bot_ua: 'dropped: the browser says it is a bot or an automated browser',
  bot_datacenter: 'dropped: sent from a hosting network, as bots are',
  rate_limited: 'dropped: too many events from one network',
  bad_name: 'dropped: the event name is not allowed',
  bad_props: "dropped: the event's properties break the tracker's rules",
};
