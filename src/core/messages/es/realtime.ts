// The catalogue's `realtime` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const realtime: WebCatalogue['realtime'] = {
  nowRegion: 'Ahora',
  visitorsNow: { one: 'visitante en los últimos 5 minutos', other: 'visitantes en los últimos 5 minutos' },
  minutesChart: { one: '{n} página vista en los últimos {minutes} minutos', other: '{n} páginas vistas en los últimos {minutes} minutos' },
  minutesCaption: 'Páginas vistas por minuto, últimos {minutes} minutos ({total} en total)',
  updatedNote: 'Actualizado a las {time} ({zone}); se actualiza cada {seconds} s',
  topWindow: 'últimos 30 minutos',
  titledWindow: '{title}, últimos 30 minutos',
  topTitles: { pages: 'Páginas', referrers: 'Referentes', countries: 'Países' },
  nobodyNow: 'Nadie en este momento.',
  liveFeed: 'Actividad en directo',
  noEventsNow: 'Ningún evento en los últimos 30 minutos.',
  fromReferrer: 'desde {referrer}',
};
