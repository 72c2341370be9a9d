// The English catalogue's words of a shared link's page: its frame, its password form and the
// notices of a link locked to filters. A count's words are a Plural.
import type { Plural } from '../language.js';

export const share = {
  viewsNav: 'Views',
  lockedToFilters: 'Funnels and realtime are not shared through this link: it is limited to filters, and they count every visitor of the site. Goals count under its filters, in the Events panel.',
  lockedToPages: 'Goals, funnels and realtime are not shared through this link: it is limited to pages, which goals may name beyond, and funnels and realtime count every visitor of the site.',
  /** Before and after a page pattern the link is limited to (`<code>/blog/*</code>`). */
  patternBefore: 'Pages matching ',
  patternAfter: {
    one: ' are counted from single events, which this site keeps for its last day: the period must lie within it, and a comparison with days before it shows no previous figures.',
    other: ' are counted from single events, which this site keeps for its last {n} days: the period must lie within them, and a comparison with days before them shows no previous figures.',
  } satisfies Plural,
  readOnlyNote: 'Shared dashboard, read only',
  sharedDashboard: 'Shared dashboard',
  openShared: 'Open the shared dashboard',
  passwordField: 'Password',
  openingNote: 'Opening…',
  viewDashboard: 'View dashboard',
};
