// The catalogue's `realtime` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const realtime: WebCatalogue['realtime'] = {
  nowRegion: 'Maintenant',
  visitorsNow: { one: 'visiteur ces 5 dernières minutes', other: 'visiteurs ces 5 dernières minutes' },
  minutesChart: { one: '{n} page vue ces {minutes} dernières minutes', other: '{n} pages vues ces {minutes} dernières minutes' },
  minutesCaption: 'Pages vues par minute, {minutes} dernières minutes ({total} au total)',
  updatedNote: 'Mis à jour à {time} ({zone}) ; actualisé toutes les {seconds} s',
  topWindow: '30 dernières minutes',
  titledWindow: '{title}, 30 dernières minutes',
  topTitles: { pages: 'Pages', referrers: 'Référents', countries: 'Pays' },
  nobodyNow: 'Personne en ce moment.',
  liveFeed: 'Flux en direct',
  noEventsNow: 'Aucun événement ces 30 dernières minutes.',
  fromReferrer: 'depuis {referrer}',
};
