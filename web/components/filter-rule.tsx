// What the filter dialog filters and how: the Dimension select's choices (the dimensions, and
// `Property`, then one of the custom property keys the site's events carry over the view's period, read
// here) and the operators each dimension takes.
import { readPropertyKeys, unfilteredView } from '../lib/breakdown.js';
import { DIMENSION_LABELS } from '../lib/labels.js';
import { useRead } from '../lib/read.js';
import { matchedByName } from '../lib/value-search.js';
import { DIMENSIONS, FILTER_OPERATORS, isPropertyDimension, PROPERTY_PREFIX, propertyKey, type Dimension, type FilterOperator, type QueryDimension } from '../../src/core/vocabulary.js';

/** The Dimension select's choice for custom properties, whose key is picked next. */
export const PROPERTY_CHOICE = 'property';
export type DimensionChoice = Dimension | typeof PROPERTY_CHOICE;

/** The Dimension select's choice for a filter's dimension. */
export const choiceOf = (dimension: QueryDimension): DimensionChoice => (isPropertyDimension(dimension) ? PROPERTY_CHOICE : dimension);

/** `contains` matches a key's text: offered where keys are what a person reads, not codes shown by name. */
export const operatorsOf = (dimension: QueryDimension): FilterOperator[] =>
  (Object.keys(FILTER_OPERATORS) as FilterOperator[]).filter((o) => o !== 'contains' || !matchedByName(dimension));

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
  const read = useRead(() => (chosen ? readPropertyKeys(siteId, period) : Promise.resolve(undefined)), chosen ? `${siteId}|${period}` : '');
  const keys = (read.data?.keys ?? []).map((k) => k.key).filter((k) => !k.includes(':'));
  if (kept !== null && !keys.includes(kept)) keys.unshift(kept);
  return { keys, loading: chosen && read.loading, error: read.error };
}

/** The filter's dimension as chosen: null while `Property` has no key yet. */
export const chosenDimension = (choice: DimensionChoice, propKey: string | null): QueryDimension | null =>
  choice !== PROPERTY_CHOICE ? choice : propKey === null ? null : `${PROPERTY_PREFIX}${propKey}`;

/** The Dimension select's options: the dimensions, then `Property`. */
export const DIMENSION_CHOICES = [...DIMENSIONS.map((d): [DimensionChoice, string] => [d, DIMENSION_LABELS[d]]), [PROPERTY_CHOICE, 'Property'] as [DimensionChoice, string]];

/** The key a `prop.<key>` dimension names, else null. */
export const keyOf = (dimension: QueryDimension): string | null => (isPropertyDimension(dimension) ? propertyKey(dimension) : null);
