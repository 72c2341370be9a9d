// The catalogue's `share` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const share: WebCatalogue['share'] = {
  viewsNav: 'Ansichten',
  lockedToFilters: 'Trichter und Echtzeit werden über diesen Link nicht geteilt: Er ist auf Filter beschränkt, und beide zählen jeden Besucher der Website. Ziele zählen mit seinen Filtern, im Bereich Ereignisse.',
  lockedToPages: 'Ziele, Trichter und Echtzeit werden über diesen Link nicht geteilt: Er ist auf Seiten beschränkt, über die Ziele hinausreichen können, und Trichter und Echtzeit zählen jeden Besucher der Website.',
  patternBefore: 'Seiten, die auf ',
  patternAfter: ' passen, werden aus Einzelereignissen gezählt, die diese Website nur für ihre letzten {days} Tage aufbewahrt: Der Zeitraum muss darin liegen, und ein Vergleich mit Tagen davor zeigt keine Vorwerte.',
  readOnlyNote: 'Geteiltes Dashboard, schreibgeschützt',
  sharedDashboard: 'Geteiltes Dashboard',
  openShared: 'Geteiltes Dashboard öffnen',
  passwordField: 'Passwort',
  openingNote: 'Wird geöffnet…',
  viewDashboard: 'Dashboard ansehen',
};
