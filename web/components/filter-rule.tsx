// The filter dialog's rule: what it filters (one of the dimensions, or `Property` and then one of the
// custom property keys the site's events carry over the view's period) and how it compares it (the
// operators the dimension takes).
import { readPropertyKeys, unfilteredView } from '../lib/breakdown.js';
import { DIMENSION_LABELS, OPERATOR_LABELS } from '../lib/labels.js';
import { useRead } from '../lib/read.js';
import { matchedByName } from '../lib/value-search.js';
import { SelectField } from './fields.js';
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

interface RuleProps {
  choice: DimensionChoice;
  onChoice(choice: DimensionChoice): void;
  /** The property key, when the choice is `Property` and the period has one. */
  propKey: string | null;
  onPropKey(key: string): void;
  keys: PropertyKeys;
  operator: FilterOperator;
  onOperator(operator: FilterOperator): void;
}

/** The filter's dimension as chosen: null while `Property` has no key yet. */
export const chosenDimension = (choice: DimensionChoice, propKey: string | null): QueryDimension | null =>
  choice !== PROPERTY_CHOICE ? choice : propKey === null ? null : `${PROPERTY_PREFIX}${propKey}`;

export function RuleFields({ choice, onChoice, propKey, onPropKey, keys, operator, onOperator }: RuleProps) {
  const dimension = chosenDimension(choice, propKey);
  return (
    <div class="filter-rule">
      <SelectField<DimensionChoice>
        label="Dimension"
        value={choice}
        onValue={onChoice}
        options={[...DIMENSIONS.map((d): [DimensionChoice, string] => [d, DIMENSION_LABELS[d]]), [PROPERTY_CHOICE, 'Property']]}
      />
      {propKey !== null && <SelectField label="Property" value={propKey} onValue={onPropKey} options={keys.keys.map((k) => [k, k])} />}
      <SelectField<FilterOperator> label="Operator" value={operator} onValue={onOperator} options={operatorsOf(dimension ?? 'page').map((o) => [o, OPERATOR_LABELS[o]])} />
    </div>
  );
}

/** The key a `prop.<key>` dimension names, else null. */
export const keyOf = (dimension: QueryDimension): string | null => (isPropertyDimension(dimension) ? propertyKey(dimension) : null);
