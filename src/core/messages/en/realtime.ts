// The English catalogue's words of the realtime view: the visitors of the last minutes, the chart of
// pageviews per minute, the top lists and the live feed. A count's words are a Plural.
import type { Plural } from '../language.js';

export const realtime = {
  nowRegion: 'Now',
  /** After the count of current visitors, which the page writes apart. */
  visitorsNow: { one: 'visitor in the last 5 minutes', other: 'visitors in the last 5 minutes' } satisfies Plural,
  minutesChart: { one: '{n} pageview in the last {minutes} minutes', other: '{n} pageviews in the last {minutes} minutes' } satisfies Plural,
  minutesCaption: 'Pageviews per minute, last {minutes} minutes ({total} in all)',
  updatedNote: 'Updated {time} ({zone}); refreshes every {seconds} s',
  /** The minutes the top lists and the feed cover. */
  topWindow: 'last 30 minutes',
  titledWindow: '{title}, last 30 minutes',
  topTitles: { pages: 'Pages', referrers: 'Referrers', countries: 'Countries' },
  nobodyNow: 'Nobody right now.',
  liveFeed: 'Live feed',
  noEventsNow: 'No events in the last 30 minutes.',
  fromReferrer: 'from {referrer}',
};
