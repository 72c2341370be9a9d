// `Filter`: a button that opens a small dialog to add a filter without finding its row in a panel:
// a dimension, an operator (`is`, `is not`, `contains`) and a value. For `is` and `is not` the value
// is one of the dimension's values over the view's period, found by what a person reads
// (value-search.ts) and picked with the mouse or the arrow keys; for `contains` it is the typed text,
// the values it matches listed below it. Applying adds the filter to the view; where the view filters
// the dimension with the same operator, the value joins that filter as an `or` (`Country is Germany
// or Austria`), else the filter replaces the view's on the dimension. Escape or `Cancel` closes the
// dialog and the focus returns to the button.
import { useEffect, useRef, useState } from 'preact/hooks';
import { readBreakdown } from '../lib/breakdown.js';
import { formatCount } from '../lib/format.js';
import { useSettled } from '../lib/hooks.js';
import { DIMENSION_LABELS, filterValueLabel, inSentence, keyLabel, OPERATOR_LABELS } from '../lib/labels.js';
import { useRead } from '../lib/read.js';
import { matchedByName, rowsNamed, valuesPage } from '../lib/value-search.js';
import { queryParams, type ViewState } from '../../src/core/view-state.js';
import { ErrorText, Loading } from './feedback.js';
import { SelectField } from './fields.js';
import { CONTAINS_TEXT_LENGTH, DIMENSIONS, FILTER_OPERATORS, makeFilter, NONE_KEY, OTHER_KEY, OTHER_PAGE_KEY, type Dimension, type Filter, type FilterOperator } from '../../src/core/vocabulary.js';

/** Values listed for a search: enough to pick from, few enough to read at a glance. */
const VALUES_SHOWN = 20;
const SEARCH_PAUSE_MS = 250;

interface MenuProps {
  siteId: string;
  /** The view the filter is added to: its period (and its other filters) narrow the values listed. */
  state: ViewState;
  onApply(filter: Filter): void;
}

/** `contains` matches a key's text: offered where keys are what a person reads, not codes shown by name. */
const operatorsOf = (dimension: Dimension): FilterOperator[] => (Object.keys(FILTER_OPERATORS) as FilterOperator[]).filter((o) => o !== 'contains' || !matchedByName(dimension));

/** Whether a listed value can be picked: `(other)` and `(other page)` name no value, and `(none)` is only worth excluding. */
const pickable = (key: string, operator: FilterOperator): boolean => key !== OTHER_KEY && key !== OTHER_PAGE_KEY && (key !== NONE_KEY || operator === 'is_not');

function FilterDialog({ siteId, state, onApply, onClose }: MenuProps & { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [dimension, setDimension] = useState<Dimension>('page');
  const [operator, setOperator] = useState<FilterOperator>('is');
  const [typed, setTyped] = useState('');
  // The picked value by its key, not its place: a list that changes as the search settles keeps a
  // pick it still shows and drops one it does not, with no effect racing the keys pressed meanwhile.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const search = useSettled(typed.trim(), SEARCH_PAUSE_MS);
  // A filter on the chosen dimension would hide its other values: they are listed without it.
  const view = queryParams({ period: state.period, filters: state.filters.filter((f) => f.dimension !== dimension) });
  const page = valuesPage(dimension, search, VALUES_SHOWN);
  const values = useRead(() => readBreakdown(siteId, view, dimension, page), [siteId, view, dimension, page.search].join('|'));
  const read = values.loading ? [] : (values.data?.rows ?? []);
  const rows = matchedByName(dimension) ? rowsNamed(dimension, read, search, VALUES_SHOWN) : read;
  // `contains` takes the typed text itself: the values listed only show what it matches.
  const freeText = operator === 'contains';
  const active = freeText ? -1 : rows.findIndex((row) => row.key === activeKey && pickable(row.key, operator));
  const chosen = active >= 0 ? rows[active] : undefined;
  const value = freeText ? typed.trim() : chosen?.key;
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (active >= 0) document.getElementById(`filter-value-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  /** The next value that can be picked from `from`, `step` (±1) at a time; `from` when there is none. */
  const move = (from: number, step: number) => {
    for (let i = from + step; i >= 0 && i < rows.length; i += step) if (pickable(rows[i]!.key, operator)) return i;
    return from;
  };
  const apply = () => {
    if (!value) return;
    onApply(makeFilter(dimension, operator, value));
    dialog.current?.close();
  };
  const label = inSentence(DIMENSION_LABELS[dimension]);
  // The view's filter this one joins as an `or` (same dimension and operator).
  const joined = state.filters.find((f) => f.dimension === dimension && (f.operator ?? 'is') === operator);
  return (
    <dialog ref={dialog} class="filter-menu" aria-labelledby="filter-menu-title" onClose={onClose}>
      <h2 id="filter-menu-title">Add a filter</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div class="filter-rule">
          <SelectField<Dimension>
            label="Dimension"
            value={dimension}
            onValue={(next) => {
              setDimension(next);
              setActiveKey(undefined);
              if (!operatorsOf(next).includes(operator)) setOperator('is');
            }}
            options={DIMENSIONS.map((d) => [d, DIMENSION_LABELS[d]])}
          />
          <SelectField<FilterOperator> label="Operator" value={operator} onValue={setOperator} options={operatorsOf(dimension).map((o) => [o, OPERATOR_LABELS[o]])} />
        </div>
        {joined && (
          <p class="muted" id="filter-joins">
            Adds an “or” to {label} {OPERATOR_LABELS[operator]} {filterValueLabel(joined)}.
          </p>
        )}
        <div class="field">
          <label for="filter-value">{freeText ? 'Text' : 'Value'}</label>
          <input
            id="filter-value"
            type="text"
            role={freeText ? undefined : 'combobox'}
            autoComplete="off"
            spellcheck={false}
            maxLength={CONTAINS_TEXT_LENGTH.max}
            aria-autocomplete={freeText ? undefined : 'list'}
            aria-expanded={freeText ? undefined : rows.length > 0}
            aria-controls={freeText ? undefined : 'filter-values'}
            aria-activedescendant={chosen ? `filter-value-${active}` : undefined}
            value={typed}
            onInput={(event) => setTyped(event.currentTarget.value)}
            onKeyDown={(event) => {
              const step = freeText ? 0 : event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
              if (!step) return;
              event.preventDefault();
              setActiveKey(rows[move(active, step)]?.key);
            }}
            autoFocus
          />
        </div>
        <div class="filter-values" aria-busy={values.loading}>
          {values.error ? (
            <ErrorText message={values.error} />
          ) : values.loading ? (
            <Loading />
          ) : rows.length === 0 ? (
            <p class="muted empty">{search ? `No ${label} matches “${search}”.` : 'No data for this period.'}</p>
          ) : (
            <ul id="filter-values" role={freeText ? undefined : 'listbox'} aria-label={freeText && search ? `Values of ${label} that contain “${search}”` : `Values of ${label}`}>
              {rows.map((row, i) => {
                const off = !freeText && !pickable(row.key, operator);
                return (
                  <li
                    key={row.key}
                    id={`filter-value-${i}`}
                    role={freeText ? undefined : 'option'}
                    aria-selected={freeText ? undefined : i === active}
                    aria-disabled={off || undefined}
                    title={off ? `${row.key} is no filter with “${OPERATOR_LABELS[operator]}”` : undefined}
                    // The focus stays in the search field, where the arrow keys and Enter work.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => !freeText && !off && setActiveKey(row.key)}
                  >
                    <span class="value-key">{keyLabel(dimension, row.key)}</span> <span class="muted">{formatCount(row.visitors)}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={!value}>
            Apply
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function FilterMenu(props: MenuProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" ref={button} class="filter-button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        Filter
      </button>
      {open && (
        <FilterDialog
          {...props}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}
