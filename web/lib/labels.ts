// Names shown for the breakdown dimensions and their keys, in the page's language.
import type { VNode } from 'preact';
import { Fragment, jsx } from 'preact/jsx-runtime';
import { countryName, GEONAMES_KEY } from '../../src/core/place-names.js';
import { fill } from '../../src/core/messages/language.js';
import { pageLocale } from './i18n.js';
import { GOAL_DIMENSION, isPropertyDimension, NONE_KEY, OTHER_KEY, OTHER_PAGE_KEY, propertyKey, type Filter, type FilterDimension, type FilterOperator, type GoalProps, type QueryDimension } from '../../src/core/vocabulary.js';
import { namesText } from './text/names.js';

/** The name shown for a dimension: a custom property's as `Property <key>`, the goal filter's as `Goal`. */
export function dimensionLabel(dimension: FilterDimension): string {
  if (dimension === GOAL_DIMENSION) return namesText.goalWord;
  return isPropertyDimension(dimension) ? fill(namesText.propertyNamed, { key: propertyKey(dimension) }) : namesText.dimensionNames[dimension];
}

const COUNTRY_CODE = /^[A-Z]{2}$/;

/**
 * A key as shown: a country code as its name in the browser's language, the referrer's `(none)` as
 * `Direct / None`, an imported city's `geonames:<id>` as `GeoNames city <id>`, a device class
 * capitalised (`Mobile`), a goal's id as its name (the id while unknown), anything else as it is
 * (the key itself, as filters and exports carry it, never changes).
 */
export function keyLabel(dimension: FilterDimension, key: string, goals?: GoalNames): string {
  if (dimension === GOAL_DIMENSION) return goals?.get(key) ?? key;
  if (dimension === 'referrer' && key === NONE_KEY) return namesText.noReferrer;
  if (dimension === 'device') return namesText.deviceNames[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
  if (dimension === 'city') return cityName(key);
  return dimension === 'country' ? countryName(key, pageLocale()) : key;
}

/** A city's key as shown: an imported city's `geonames:<id>` as `GeoNames city <id>`, any other as it is. */
function cityName(key: string): string {
  const id = GEONAMES_KEY.exec(key)?.[1];
  return id === undefined ? key : fill(namesText.geonamesCity, { id });
}

/** An operator as a sentence says it: `Country is not Germany`. */
export const operatorLabel = (operator: FilterOperator): string => namesText.operatorWords[operator];

/** The names of a site's goals by id (as a goal filter's values say them), as the goals answer lists them. */
export type GoalNames = ReadonlyMap<string, string>;

export const goalNamesOf = (goals: readonly { goalId: number; name: string }[] | undefined): GoalNames => new Map(goals?.map((g) => [String(g.goalId), g.name]));

/**
 * One value of a filter as shown: a key by its name, a goal by its name (its id while unknown), a
 * `contains` text quoted (it is text, not a value).
 */
export const valueLabel = (dimension: FilterDimension, operator: FilterOperator | undefined, value: string, goals?: GoalNames): string =>
  operator === 'contains' ? `“${value}”` : keyLabel(dimension, value, goals);

/**
 * A filter's values as shown: each key by its name, a goal by its name, a `contains` text quoted (it
 * is text, not a value), several joined in words (`Germany or Austria`, `/a, /b or /c`).
 */
export function filterValueLabel(filter: Filter, goals?: GoalNames): string {
  const labels = filter.values.map((value) => valueLabel(filter.dimension, filter.operator, value, goals));
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')}${namesText.orWord}${labels.at(-1)}`;
}

/** A country code's flag as emoji (its two regional indicator letters); '' for any other key. */
export function countryFlag(dimension: QueryDimension, key: string): string {
  if (dimension !== 'country' || !COUNTRY_CODE.test(key)) return '';
  return String.fromCodePoint(...Array.from(key, (letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

/** A label inside a sentence: "Page" as "page", "UTM source" as it is; German keeps a noun's capital ("für Land"). */
export const inSentence = (label: string): string => (pageLocale().startsWith('de') ? label : label.replace(/^[A-Z](?=[a-z])/, (initial) => initial.toLowerCase()));

/** Keys that name no single value (`(none)`, `(other)`, a page lock's `(other page)`): shown, never a filter. */
export const isAggregateKey = (key: string): boolean => key === NONE_KEY || key === OTHER_KEY || key === OTHER_PAGE_KEY;

/** A goal's required property values as shown: `plan = pro, seats = 3`. */
export const goalPropsLabel = (props: GoalProps): string =>
  Object.entries(props)
    .map(([key, value]) => `${key} = ${value}`)
    .join(', ');

/**
 * A breakdown key as a row shows it: its label, a country's name after its flag (decoration: screen
 * readers read the name alone). Here, beside the labels, rather than in a module of its own, which
 * the pages that show keys would load as a file of their own. Written as JSX compiles: Node's tests and the
 * server's type check read this module, without JSX.
 */
export function KeyLabel({ dimension, value }: { dimension: QueryDimension; value: string }): VNode {
  const flag = countryFlag(dimension, value);
  return jsx(Fragment, { children: [flag && jsx('span', { class: 'flag', 'aria-hidden': 'true', children: [flag, ' '] }), keyLabel(dimension, value)] });
}
