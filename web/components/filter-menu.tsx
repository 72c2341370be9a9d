// `Filter`: a button that opens a small dialog to add a filter without finding its row in a panel,
// and the same dialog opened from a chip to edit its filter. The dialog takes a dimension (or `Goal`,
// whose values are the site's goals by name, or `Property` and one of the site's custom property
// keys: filter-rule.tsx), an operator (`is`, `is not`, `contains`; a goal `is` only) and a value. For `is` and `is not` the value is one of the dimension's values over
// the view's period, found by what a person reads (value-search.ts) and picked with the mouse or the
// arrow keys; a search that leaves one value picks it, so Enter applies it. For `contains` it is the
// typed text, the values it matches listed below it. A line under the field says the filter Apply
// makes (a live region: screen readers hear each pick). Applying adds the filter to the view; where the view filters the dimension with the same
// operator, the value joins that filter as an `or` (`Country is Germany or Austria`), else the filter
// replaces the view's on the dimension. An edited filter keeps its values (each removable) and Apply
// puts the filter in its place. Escape or `Cancel` closes the dialog.
import { useEffect, useRef, useState } from 'preact/hooks';
import { readBreakdown } from '../lib/breakdown.js';
import { useRead, useSettled } from '../lib/hooks.js';
import { dimensionLabel, inSentence, operatorLabel, type GoalNames } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { matchedByName, rowsNamed, valuesPage } from '../lib/value-search.js';
import { queryParams, withFilterValues, type ViewState } from '../../src/core/view-state.js';
import { ErrorText, Loading } from './feedback.js';
import { FilterSentence } from './filter-chips.js';
import { choiceOf, chosenDimension, dimensionChoices, keyOf, operatorsOf, PROPERTY_CHOICE, readGoalValues, usePropertyKeys, type DimensionChoice } from './filter-rule.js';
import { SelectField } from './fields.js';
import { KeptValues, optionId, pickable, ValueOptions } from './filter-values.js';
import type { BreakdownRow } from '../../src/core/answers.js';
import { CONTAINS_TEXT_LENGTH, FILTER_VALUES_MAX, GOAL_DIMENSION, joinFilterValues, makeFilter, type Filter, type FilterOperator } from '../../src/core/vocabulary.js';
import { frameText } from '../lib/text/frame.js';
import { namesText } from '../lib/text/names.js';
import { periodText } from '../lib/text/period.js';
import { dashboardText } from '../lib/text/dashboard.js';

/** Values listed for a search: enough to pick from, few enough to read at a glance. */
const VALUES_SHOWN = 20;
const SEARCH_PAUSE_MS = 250;

interface DialogProps {
  siteId: string;
  /** The view the filter goes into: its period (and its other filters) narrow the values listed. */
  state: ViewState;
  /** The filter of the chip being edited; absent when one is added. */
  editing?: Filter;
  /** The filter Apply makes: added to the view, or in place of the edited one. */
  onApply(filter: Filter): void;
  onClose(): void;
}

export function FilterDialog({ siteId, state, editing, onApply, onClose }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [choice, setChoice] = useState<DimensionChoice>(editing ? choiceOf(editing.dimension) : 'page');
  const [pickedKey, setPickedKey] = useState<string | null>(editing ? keyOf(editing.dimension) : null);
  const [operator, setOperator] = useState<FilterOperator>(editing?.operator ?? 'is');
  // The values the filter keeps besides the one picked: the edited filter's, until removed.
  const [kept, setKept] = useState<readonly string[]>(editing?.values ?? []);
  const [typed, setTyped] = useState('');
  // The picked value by its key, not its place: a list that changes as the search settles keeps a
  // pick it still shows and drops one it does not, with no effect racing the keys pressed meanwhile.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  // Enter pressed before the search settled: applied once it has, if it leaves a pick.
  const [enterPending, setEnterPending] = useState(false);
  const keys = usePropertyKeys(siteId, queryParams({ period: state.period, filters: [] }), choice === PROPERTY_CHOICE, editing ? keyOf(editing.dimension) : null);
  // The picked property key while the period has it, else the one carried by the most events.
  const propKey = choice !== PROPERTY_CHOICE ? null : pickedKey !== null && keys.keys.includes(pickedKey) ? pickedKey : (keys.keys[0] ?? null);
  const dimension = chosenDimension(choice, propKey);
  const search = useSettled(typed.trim(), SEARCH_PAUSE_MS);
  // A filter on the chosen dimension would hide its other values, and the edited one goes: they are listed without them.
  const listed = queryParams({ period: state.period, filters: state.filters.filter((f) => f.dimension !== dimension && f.dimension !== editing?.dimension) });
  const page = dimension ? valuesPage(dimension, search, VALUES_SHOWN) : undefined;
  const values = useRead<{ rows: BreakdownRow[]; names?: GoalNames } | undefined>(
    () => (dimension === GOAL_DIMENSION ? readGoalValues(siteId, listed) : dimension && page ? readBreakdown(siteId, listed, dimension, page) : Promise.resolve(undefined)),
    [siteId, listed.toString(), dimension, page?.search],
  );
  const read = values.loading ? [] : (values.data?.rows ?? []);
  const goals = values.data?.names;
  const rows = dimension && matchedByName(dimension) ? rowsNamed(dimension, read, search, VALUES_SHOWN, goals) : read;
  // `contains` takes the typed text itself: the values listed only show what it matches.
  const freeText = operator === 'contains';
  const settled = !values.loading && search === typed.trim();
  const pickables = freeText ? [] : rows.filter((row) => pickable(row.key, operator));
  // A search that leaves one value to pick has picked it.
  const single = settled && search !== '' && pickables.length === 1 ? pickables[0] : undefined;
  const chosen = pickables.find((row) => row.key === activeKey) ?? single;
  const active = chosen ? rows.indexOf(chosen) : -1;
  const pick = freeText ? typed.trim() || undefined : chosen?.key;
  // Enter applies the pick, or an edited filter's values while no search is typed; never a list not yet settled.
  const enterApplies = freeText || (settled && (typed.trim() === '' || chosen !== undefined));
  const applied = [...new Set([...kept, ...(pick === undefined ? [] : [pick])])].slice(0, FILTER_VALUES_MAX);
  const filter = dimension && applied.length > 0 ? makeFilter(dimension, operator, joinFilterValues(applied)) : undefined;
  // What the view holds after Apply on the filter's dimension: an added value may join a filter as an `or`.
  const outcome = filter && (editing ? filter : withFilterValues(state, filter).filters.find((f) => f.dimension === filter.dimension));
  const label = dimension ? inSentence(dimensionLabel(dimension)) : '';
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  useEffect(() => {
    if (!enterPending || !settled) return;
    setEnterPending(false);
    if (enterApplies) apply();
  }, [enterPending, settled]);

  /** The next value that can be picked from `from`, `step` (±1) at a time; `from` when there is none. */
  const move = (from: number, step: number) => {
    for (let i = from + step; i >= 0 && i < rows.length; i += step) if (pickable(rows[i]!.key, operator)) return i;
    return from;
  };
  const apply = () => {
    if (!filter) return;
    onApply(filter);
    dialog.current?.close();
  };
  /** A new dimension (or property key): the former's values mean nothing for it, and an operator it does not take gives way to `is`. */
  const rule = (next: { choice?: DimensionChoice; propKey?: string }) => {
    if (next.choice !== undefined) setChoice(next.choice);
    if (next.propKey !== undefined) setPickedKey(next.propKey);
    setActiveKey(undefined);
    setKept([]);
    const nextDimension = chosenDimension(next.choice ?? choice, next.propKey ?? propKey);
    if (nextDimension && !operatorsOf(nextDimension).includes(operator)) setOperator('is');
  };
  return (
    <dialog ref={dialog} class="filter-menu" aria-labelledby="filter-menu-title" onClose={onClose}>
      <h2 id="filter-menu-title">{editing ? dashboardText.editFilter : dashboardText.addFilter}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div class="filter-rule">
          <SelectField<DimensionChoice> label={dashboardText.dimensionField} value={choice} onValue={(next) => rule({ choice: next })} options={dimensionChoices()} />
          {propKey !== null && <SelectField label={namesText.propertyWord} value={propKey} onValue={(next) => rule({ propKey: next })} options={keys.keys.map((k) => [k, k])} />}
          <SelectField<FilterOperator> label={dashboardText.operatorField} value={operator} onValue={setOperator} options={operatorsOf(dimension ?? 'page').map((o) => [o, operatorLabel(o)])} />
        </div>
        {keys.error ? (
          <ErrorText message={keys.error} />
        ) : choice === PROPERTY_CHOICE && !keys.loading && !dimension ? (
          <p class="muted empty">{dashboardText.noCustomProperty}</p>
        ) : (
          <div class="field">
            <label for="filter-value">{freeText ? dashboardText.textField : dashboardText.valueField}</label>
            <input
              ref={field}
              id="filter-value"
              type="text"
              role={freeText ? undefined : 'combobox'}
              autoComplete="off"
              spellcheck={false}
              maxLength={CONTAINS_TEXT_LENGTH.max}
              aria-autocomplete={freeText ? undefined : 'list'}
              aria-expanded={freeText ? undefined : rows.length > 0}
              aria-controls={freeText ? undefined : 'filter-values'}
              aria-activedescendant={chosen ? optionId(active) : undefined}
              aria-describedby="filter-outcome"
              value={typed}
              onInput={(event) => {
                setTyped(event.currentTarget.value);
                setEnterPending(false);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  if (enterApplies) return;
                  event.preventDefault();
                  if (!settled) setEnterPending(true);
                  return;
                }
                const step = freeText ? 0 : event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
                if (!step) return;
                event.preventDefault();
                setActiveKey(rows[move(active, step)]?.key);
              }}
              autoFocus
            />
            {dimension && (
              <KeptValues
                dimension={dimension}
                goals={goals}
                operator={operator}
                values={kept}
                onRemove={(value) => {
                  setKept(kept.filter((v) => v !== value));
                  field.current?.focus();
                }}
              />
            )}
          </div>
        )}
        <p id="filter-outcome" role="status">
          {outcome && (
            <>
              {dashboardText.onApplyNote}
              <FilterSentence filter={outcome} goals={goals} />
            </>
          )}
        </p>
        {dimension && (
          <div class="filter-values" aria-busy={values.loading}>
            {values.error ? (
              <ErrorText message={values.error} />
            ) : values.loading ? (
              <Loading />
            ) : rows.length === 0 ? (
              <p class="muted empty">{search ? fill(dashboardText.noMatch, { dimension: label, search }) : dashboardText.noData}</p>
            ) : (
              <ValueOptions
                dimension={dimension}
                goals={goals}
                operator={operator}
                rows={rows}
                active={active}
                label={freeText && search ? fill(dashboardText.valuesContaining, { dimension: label, search }) : fill(dashboardText.valuesOf, { dimension: label })}
                onPick={setActiveKey}
              />
            )}
          </div>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={!filter}>
            {periodText.applyButton}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            {frameText.cancelButton}
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function FilterMenu({ siteId, state, onApply }: Pick<DialogProps, 'siteId' | 'state' | 'onApply'>) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" ref={button} class="filter-button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        {dashboardText.filterButton}
      </button>
      {open && (
        <FilterDialog
          siteId={siteId}
          state={state}
          onApply={onApply}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}
