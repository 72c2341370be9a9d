// The filter dialog's values: the listbox of the dimension's values over the view's period that the
// search field controls (the focus stays in the field, which names the picked option with
// aria-activedescendant), and the values an edited filter keeps, each with a button that removes it.
import { formatCount } from '../lib/format.js';
import { keyLabel, operatorLabel, valueLabel, type GoalNames } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { dashboardText } from '../lib/text/dashboard.js';
import { NONE_KEY, OTHER_KEY, OTHER_PAGE_KEY, type FilterDimension, type FilterOperator } from '../../src/core/vocabulary.js';
import type { BreakdownRow } from '../../src/core/answers.js';

/** Whether a listed value can be picked: `(other)` and `(other page)` name no value, and `(none)` is only worth excluding. */
export const pickable = (key: string, operator: FilterOperator): boolean => key !== OTHER_KEY && key !== OTHER_PAGE_KEY && (key !== NONE_KEY || operator === 'is_not');

/** The element id of the listed value at `index`, for the field's aria-activedescendant. */
export const optionId = (index: number): string => `filter-value-${index}`;

interface OptionsProps {
  dimension: FilterDimension;
  /** The site's goals' names, a goal filter's values. */
  goals: GoalNames | undefined;
  operator: FilterOperator;
  rows: readonly BreakdownRow[];
  /** The index of the picked row, -1 for none. */
  active: number;
  /** What the list is named: the dimension's values, or those that contain the typed text. */
  label: string;
  onPick(key: string): void;
}

/** The listed values: options to pick from, or (for `contains`) a plain list of what the text matches. */
export function ValueOptions({ dimension, goals, operator, rows, active, label, onPick }: OptionsProps) {
  const freeText = operator === 'contains';
  return (
    <ul id="filter-values" role={freeText ? undefined : 'listbox'} aria-label={label}>
      {rows.map((row, i) => {
        const off = !freeText && !pickable(row.key, operator);
        return (
          <li
            key={row.key}
            id={optionId(i)}
            role={freeText ? undefined : 'option'}
            aria-selected={freeText ? undefined : i === active}
            aria-disabled={off || undefined}
            title={off ? fill(dashboardText.noFilterWith, { key: row.key, operator: operatorLabel(operator) }) : undefined}
            // The focus stays in the search field, where the arrow keys and Enter work.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => !freeText && !off && onPick(row.key)}
          >
            <span class="value-key">{keyLabel(dimension, row.key, goals)}</span> <span class="muted">{formatCount(row.visitors)}</span>
          </li>
        );
      })}
    </ul>
  );
}

interface KeptProps {
  dimension: FilterDimension;
  goals: GoalNames | undefined;
  operator: FilterOperator;
  values: readonly string[];
  onRemove(value: string): void;
}

/** The values an edited filter keeps, each removable. */
export function KeptValues({ dimension, goals, operator, values, onRemove }: KeptProps) {
  if (values.length === 0) return null;
  return (
    <ul class="chips filter-kept" aria-label={dashboardText.valuesKept}>
      {values.map((value) => {
        const label = valueLabel(dimension, operator, value, goals);
        return (
          <li key={value} class="chip">
            <span>{label}</span>
            <button type="button" aria-label={fill(dashboardText.removeValue, { value: label })} onClick={() => onRemove(value)}>
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
