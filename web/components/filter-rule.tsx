// What the filter dialog filters and how: the Dimension select's choices (the dimensions, `Goal`, and
// `Property`, then one of the custom property keys the site's events carry over the view's period, read
// here), the operators each dimension takes, and the site's goals as a goal filter's values.
import { readPropertyKeys, unfilteredView } from '../lib/breakdown.js';
import { goalNamesOf, type GoalNames } from '../lib/labels.js';
import { useRead } from '../lib/hooks.js';
import { readSite } from '../lib/site.js';
import { matchedByName } from '../lib/value-search.js';
import { namesText } from '../lib/text/names.js';
import { DIMENSIONS, FILTER_OPERATORS, GOAL_DIMENSION, isPropertyDimension, PROPERTY_PREFIX, propertyKey, type Dimension, type FilterDimension, type FilterOperator } from '../../src/core/vocabulary.js';
import type { BreakdownRow, GoalsAnswer } from '../../src/core/answers.js';

/** The Dimension select's choice for custom properties, whose key is picked next. */
export const PROPERTY_CHOICE = 'property';
export type DimensionChoice = Dimension | typeof GOAL_DIMENSION | typeof PROPERTY_CHOICE;

/** The Dimension select's choice for a filter's dimension. */
export const choiceOf = (dimension: FilterDimension): DimensionChoice => (isPropertyDimension(dimension) ? PROPERTY_CHOICE : dimension);

/**
 * `contains` matches a key's text: offered where keys are what a person reads, not codes shown by
 * name; a goal filter takes `is` only (the API refuses the others).
 */
export const operatorsOf = (dimension: FilterDimension): FilterOperator[] =>
  dimension === GOAL_DIMENSION ? ['is'] : (Object.keys(FILTER_OPERATORS) as FilterOperator[]).filter((o) => o !== 'contains' || !matchedByName(dimension));

/**
 * The site's goals as a goal filter's values (`view`: the period and the other filters), as rows keyed
 * by goal id with their converters, and their names.
 */
export async function readGoalValues(siteId: string, view: URLSearchParams): Promise<{ rows: BreakdownRow[]; names: GoalNames }> {
  const { goals } = await readSite<GoalsAnswer>(siteId, { path: '/goals', params: view });
  return { rows: goals.map((g) => ({ key: String(g.goalId), visitors: g.uniqueConversions, views: g.conversions, pct: g.conversionRate })), names: goalNamesOf(goals) };
}

export interface PropertyKeys {
  /** The keys that can be filtered, the one carried by the most events first. */
  keys: string[];
  loading: boolean;
  error: string | undefined;
}

/**
 * The site's custom property keys over the view's period, read once `Property` is chosen; `kept` (an
 * edited filter's key) is listed even where the period has no event with it. A key holding `:` cannot
 * be filtered (the read API refuses it), so it is left out.
 */
export function usePropertyKeys(siteId: string, view: URLSearchParams, chosen: boolean, kept: string | null): PropertyKeys {
  const period = unfilteredView(view);
  const read = useRead(() => (chosen ? readPropertyKeys(siteId, period) : Promise.resolve(undefined)), [chosen && siteId, chosen && period.toString()]);
  const keys = (read.data?.keys ?? []).map((k) => k.key).filter((k) => !k.includes(':'));
  if (kept !== null && !keys.includes(kept)) keys.unshift(kept);
  return { keys, loading: chosen && read.loading, error: read.error };
}

/** The filter's dimension as chosen: null while `Property` has no key yet. */
export const chosenDimension = (choice: DimensionChoice, propKey: string | null): FilterDimension | null =>
  choice !== PROPERTY_CHOICE ? choice : propKey === null ? null : `${PROPERTY_PREFIX}${propKey}`;

/** The Dimension select's options: the dimensions, then `Goal` and `Property`, in the page's language. */
export const dimensionChoices = (): [DimensionChoice, string][] => [...DIMENSIONS.map((d): [DimensionChoice, string] => [d, namesText.dimensionNames[d]]), [GOAL_DIMENSION, namesText.goalWord], [PROPERTY_CHOICE, namesText.propertyWord]];

/** The key a `prop.<key>` dimension names, else null. */
export const keyOf = (dimension: FilterDimension): string | null => (isPropertyDimension(dimension) ? propertyKey(dimension) : null);
