// The catalogue's `siteFields` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const siteFields: WebCatalogue['siteFields'] = {
  timeZone: 'Zeitzone',
  timeZoneHint: 'Tippen Sie zum Suchen, zum Beispiel Europe/Berlin.',
  unlistedZone: 'Nicht in der Liste der Zeitzonen: Der Dienst prüft sie beim Speichern.',
  keepEvents: 'Einzelne Ereignisse aufbewahren',
  keepEventsHint:
    'So weit reichen gefilterte Ansichten zurück (mehrere Filter zugleich oder ein Filter neben einer weiteren Aufschlüsselung); ältere Tage beantworten einen Filter nach dem anderen. Bei 20.000 Seitenaufrufen am Tag belegt ein Jahr mit 13 Monaten Aufbewahrung etwa 540 MB mehr Speicher als mit 30 Tagen.',
};
