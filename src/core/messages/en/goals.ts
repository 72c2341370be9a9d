// The English catalogue's words of the goals and funnel pages (also a shared link's): the goals
// table, the list of funnels, a funnel's steps and drop-off. The editors in a site's settings have
// theirs (./goal-editor.ts). Placeholders are `{name}`; a count's words are a Plural. Metric,
// dimension and goal names are the `names` section's.
import type { Plural } from '../language.js';
import type { MatchKind } from '../../vocabulary.js';

export const goals = {
  goalsRegion: 'Goals and their conversions',
  uniqueColumn: 'Unique conversions',
  conversionsChange: 'Conversions change',
  rateChangeColumn: 'Rate change',
  conversionsChangeTitle: 'Change of conversions against the previous period, in percent',
  rateChangeTitle: 'Change of the conversion rate against the previous period, in percentage points',
  revenueColumn: 'Revenue',
  averageRevenue: 'Average revenue',
  currencyColumn: 'Currency',
  revenueIn: 'Revenue in {currency}',
  otherCurrencyNote: { one: '; {n} conversion in another currency is left out', other: '; {n} conversions in another currency are left out' } satisfies Plural,
  noGoalsOnSite: 'This site has no goals yet.',
  /** A goal's kind inside a sentence: `(page /pricing)`. */
  kindInSentence: { page: 'page', event: 'event' } satisfies Record<MatchKind, string>,
  /** Before a goal's required property values. */
  withProps: 'with',
  funnelsHeading: 'Funnels',
  /** The dashboard's `countedSinceNote` again: these pages do not bundle the dashboard section. */
  noFunnelsOnSite: 'This site has no funnels yet.',
  funnelSummary: { one: '{n} step within {minutes} min, version {version}', other: '{n} steps within {minutes} min, version {version}' } satisfies Plural,
  funnelWord: 'Funnel',
  versionField: 'Version',
  currentVersion: '{version} (current)',
  stepsWithin: '; steps completed within {minutes} min',
  enteredLabel: 'Entered',
  completedLabel: 'Completed',
  noVisitorLost: 'No visitor lost',
  visitorsLost: { one: '{n} visitor lost ({rate})', other: '{n} visitors lost ({rate})' } satisfies Plural,
  visitorsCount: { one: '{n} visitor', other: '{n} visitors' } satisfies Plural,
  fromStep: ' · {rate} from step {step}',
  stepWord: 'Step',
  /**
   * The names section's words for a step's kind and the funnel's rate, again: the funnel page reads
   * nothing else of that section, and bundling it would cost the page about 600 B gzip.
   */
  kindNames: { page: 'Page', event: 'Event' } satisfies Record<MatchKind, string>,
  conversionRateLabel: 'Conversion rate',
};
