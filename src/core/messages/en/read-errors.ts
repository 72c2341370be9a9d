// The English catalogue's sentences for the read API's refusals, shown in place of the figures they
// stop (web/lib/read-errors.ts picks one by the refusal's reason).
export const readErrors = {
  window: 'Not counted for these days: these filters need single events, which this site keeps for a limited time (Keep single events, in its settings). Choose a more recent period, or remove a filter.',
  missing: 'Not found: it does not exist, was archived, or belongs to an organisation you are not a member of.',
  busy: 'Too many requests for a moment: the figures will load again shortly.',
  pageLock: 'This shared link shows some pages only, which needs single events, kept for a limited number of days: choose a shorter, more recent period.',
  unfilterable: 'This figure cannot be computed with the active filters: remove a filter or choose another metric.',
  hourly: 'Conversions of all goals together are counted per day: filter by a goal to chart its conversions by the hour, or choose a period longer than two days.',
  reversed: 'The period starts after it ends: choose a start day before the end day.',
};
