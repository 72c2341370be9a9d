// The catalogue's `journeys` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const journeys: WebCatalogue['journeys'] = {
  directionNames: { next: 'Folgeseiten', previous: 'Vorherige Seiten' },
  stepColumn: 'Schritt {n}',
  startOfVisit: 'Beginn des Besuchs',
  endOfVisit: 'Ende des Besuchs',
  sessionsColumn: 'Besuche',
  segmentNamed: 'Segment {name}',
  underFilters: 'Filter: {filters}. ',
  changeOnDashboard: 'Im Dashboard ändern',
  noVisitThrough: 'Kein Besuch führte in diesem Zeitraum über {page}.',
  noVisitsInPeriod: 'Keine Besuche in diesem Zeitraum.',
  rawWindowNote: 'Pfade zählen ab {day}, dem ersten Tag der Einzelereignisse, die diese Website aufbewahrt (Einzelereignisse aufbewahren, in ihren Einstellungen).',
  anyPage: 'Beliebige Seite',
  directionField: 'Richtung',
  stepsField: 'Schritte',
  showJourneys: 'Pfade anzeigen',
  directionOf: '{direction} von {page}',
  firstPages: 'Erste Seiten der Besuche',
  mostFrequent: ': {paths} aus {sessions}.',
  pathsCount: { one: 'der häufigste Pfad', other: 'die {n} häufigsten Pfade' },
  sessionsCount: { one: '{n} Besuch', other: '{n} Besuchen' },
};
