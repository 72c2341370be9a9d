// The English catalogue's words of the journeys page: its choice of page, direction and steps, the
// table of paths and the notes around it. A count's words are a Plural.
import type { Plural } from '../language.js';
import type { JourneyDirection } from '../../vocabulary.js';

export const journeys = {
  directionNames: { next: 'Next pages', previous: 'Previous pages' } satisfies Record<JourneyDirection, string>,
  stepColumn: 'Step {n}',
  startOfVisit: 'Start of visit',
  endOfVisit: 'End of visit',
  sessionsColumn: 'Sessions',
  segmentNamed: 'Segment {name}',
  underFilters: 'Under {filters}. ',
  changeOnDashboard: 'Change them on the dashboard',
  noVisitThrough: 'No visit went through {page} in this period.',
  noVisitsInPeriod: 'No visits in this period.',
  rawWindowNote: 'Journeys count from {day}, the first day of single events this site keeps (Keep single events, in its settings).',
  anyPage: 'Any page',
  directionField: 'Direction',
  stepsField: 'Steps',
  showJourneys: 'Show journeys',
  directionOf: '{direction} of {page}',
  firstPages: 'First pages of visits',
  /** After the rows' heading: `{paths}` is `pathsCount`, `{sessions}` is `sessionsCount`. */
  mostFrequent: ': {paths} of {sessions}.',
  pathsCount: { one: 'the {n} most frequent path', other: 'the {n} most frequent paths' } satisfies Plural,
  sessionsCount: { one: '{n} session', other: '{n} sessions' } satisfies Plural,
};
