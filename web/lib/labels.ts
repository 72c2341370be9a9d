// Names shown for the breakdown dimensions and their keys.
import { countryName } from '../../src/core/place-names.js';
import { isPropertyDimension, NONE_KEY, OTHER_KEY, propertyKey, type Dimension, type GoalProps, type QueryDimension } from '../../src/core/vocabulary.js';

export const DIMENSION_LABELS: Record<Dimension, string> = {
  page: 'Page',
  entry: 'Entry page',
  exit: 'Exit page',
  referrer: 'Referrer',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  country: 'Country',
  region: 'Region',
  city: 'City',
  browser: 'Browser',
  os: 'Operating system',
  device: 'Device',
  event: 'Event',
};

/** The name shown for a dimension: a custom property's as `Property <key>`. */
export function dimensionLabel(dimension: QueryDimension): string {
  return isPropertyDimension(dimension) ? `Property ${propertyKey(dimension)}` : DIMENSION_LABELS[dimension];
}

/** A key as shown: a country code as its name in the browser's language, anything else as it is. */
export const keyLabel = (dimension: QueryDimension, key: string): string => (dimension === 'country' ? countryName(key) : key);

/** A label inside a sentence: "Page" as "page", "UTM source" as it is. */
export const inSentence = (label: string): string => label.replace(/^[A-Z](?=[a-z])/, (initial) => initial.toLowerCase());

/** Keys that name no single value (`(none)`, `(other)`): shown, never a filter. */
export const isAggregateKey = (key: string): boolean => key === NONE_KEY || key === OTHER_KEY;

/** A goal's required property values as shown: `plan = pro, seats = 3`. */
export const goalPropsLabel = (props: GoalProps): string =>
  Object.entries(props)
    .map(([key, value]) => `${key} = ${value}`)
    .join(', ');
