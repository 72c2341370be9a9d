// The catalogue's `realtime` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const realtime: WebCatalogue['realtime'] = {
  nowRegion: 'Jetzt',
  visitorsNow: { other: 'Besucher in den letzten 5 Minuten' },
  minutesChart: { one: '{n} Seitenaufruf in den letzten {minutes} Minuten', other: '{n} Seitenaufrufe in den letzten {minutes} Minuten' },
  minutesCaption: 'Seitenaufrufe pro Minute, letzte {minutes} Minuten (insgesamt {total})',
  updatedNote: 'Stand {time} ({zone}); aktualisiert sich alle {seconds} s',
  topWindow: 'letzte 30 Minuten',
  titledWindow: '{title}, letzte 30 Minuten',
  topTitles: { pages: 'Seiten', referrers: 'Verweise', countries: 'Länder' },
  nobodyNow: 'Gerade niemand.',
  liveFeed: 'Live-Feed',
  noEventsNow: 'Keine Ereignisse in den letzten 30 Minuten.',
  fromReferrer: 'von {referrer}',
};
