// The English catalogue's words of a shared link's page: its frame, its password form and the
// notices of a link locked to filters.

export const share = {
  viewsNav: 'Views',
  lockedToFilters: 'Funnels and realtime are not shared through this link: it is limited to filters, and they count every visitor of the site. Goals count under its filters, in the Events panel.',
  lockedToPages: 'Goals, funnels and realtime are not shared through this link: it is limited to pages, which goals may name beyond, and funnels and realtime count every visitor of the site.',
  /** Before and after a page pattern the link is limited to (`<code>/blog/*</code>`). */
  patternBefore: 'Pages matching ',
  /** `{days}`: the site keeps at least 30 days (RAW_DAYS.min), so the count needs no singular. */
  patternAfter: ' are counted from single events, which this site keeps for its last {days} days: the period must lie within them, and a comparison with days before them shows no previous figures.',
  readOnlyNote: 'Shared dashboard, read only',
  sharedDashboard: 'Shared dashboard',
  openShared: 'Open the shared dashboard',
  passwordField: 'Password',
  openingNote: 'Opening…',
  viewDashboard: 'View dashboard',
};
