// The catalogue's `journeys` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const journeys: WebCatalogue['journeys'] = {
  directionNames: { next: 'Páginas siguientes', previous: 'Páginas anteriores' },
  stepColumn: 'Paso {n}',
  startOfVisit: 'Inicio de la visita',
  endOfVisit: 'Fin de la visita',
  sessionsColumn: 'Visitas',
  segmentNamed: 'Segmento {name}',
  underFilters: 'Filtros: {filters}. ',
  changeOnDashboard: 'Cambiarlos en el panel',
  noVisitThrough: 'Ninguna visita pasó por {page} en este periodo.',
  noVisitsInPeriod: 'No hay visitas en este periodo.',
  rawWindowNote: 'Los recorridos cuentan desde el {day}, el primer día de eventos individuales que conserva este sitio (Conservar eventos individuales, en sus ajustes).',
  anyPage: 'Cualquier página',
  directionField: 'Dirección',
  stepsField: 'Pasos',
  showJourneys: 'Mostrar recorridos',
  directionOf: '{direction} de {page}',
  firstPages: 'Primeras páginas de las visitas',
  mostFrequent: ': {paths} de {sessions}.',
  pathsCount: { one: 'el recorrido más frecuente', other: 'los {n} recorridos más frecuentes' },
  sessionsCount: { one: '{n} visita', other: '{n} visitas' },
};
