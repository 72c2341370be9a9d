// The catalogue's `journeys` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const journeys: WebCatalogue['journeys'] = {
  directionNames: { next: 'Pages suivantes', previous: 'Pages précédentes' },
  stepColumn: 'Étape {n}',
  startOfVisit: 'Début de la visite',
  endOfVisit: 'Fin de la visite',
  sessionsColumn: 'Visites',
  segmentNamed: 'Segment {name}',
  underFilters: 'Filtres : {filters}. ',
  changeOnDashboard: 'Les modifier dans le tableau de bord',
  noVisitThrough: "Aucune visite n'est passée par {page} sur cette période.",
  noVisitsInPeriod: 'Aucune visite sur cette période.',
  rawWindowNote: 'Les parcours sont comptés à partir du {day}, premier jour des événements individuels que ce site conserve (Conserver les événements individuels, dans ses paramètres).',
  anyPage: "N'importe quelle page",
  directionField: 'Sens',
  stepsField: 'Étapes',
  showJourneys: 'Afficher les parcours',
  directionOf: '{direction} de {page}',
  firstPages: 'Premières pages des visites',
  mostFrequent: ' : {paths} sur {sessions}.',
  pathsCount: { one: 'le parcours le plus fréquent', other: 'les {n} parcours les plus fréquents' },
  sessionsCount: { one: '{n} visite', other: '{n} visites' },
};
