// `Filter`: a button that opens a small dialog to add a filter without finding its row in a panel:
// a dimension, `is`, and one of the dimension's values over the view's period, found by a search
// (the read API's breakdown with `search`) and picked with the mouse or the arrow keys. Applying
// adds the filter to the view, replacing one on the same dimension. Escape or `Cancel` closes the
// dialog and the focus returns to the button.
import { useEffect, useRef, useState } from 'preact/hooks';
import { readBreakdown } from '../lib/breakdown.js';
import { formatCount } from '../lib/format.js';
import { useSettled } from '../lib/hooks.js';
import { DIMENSION_LABELS, inSentence, isAggregateKey, keyLabel } from '../lib/labels.js';
import { useRead } from '../lib/read.js';
import { queryParams, type ViewState } from '../../src/core/view-state.js';
import { ErrorText, Loading } from './feedback.js';
import { SelectField } from './fields.js';
import { DIMENSIONS, type Dimension } from '../../src/core/vocabulary.js';

/** Values listed for a search: enough to pick from, few enough to read at a glance. */
const VALUES_SHOWN = 20;
const SEARCH_PAUSE_MS = 250;

interface MenuProps {
  siteId: string;
  /** The view the filter is added to: its period (and its other filters) narrow the values listed. */
  state: ViewState;
  onApply(dimension: Dimension, value: string): void;
}

function FilterDialog({ siteId, state, onApply, onClose }: MenuProps & { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [dimension, setDimension] = useState<Dimension>('page');
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(-1);
  const search = useSettled(typed.trim(), SEARCH_PAUSE_MS);
  // A filter on the chosen dimension would hide its other values: they are listed without it.
  const view = queryParams({ period: state.period, filters: state.filters.filter((f) => f.dimension !== dimension) });
  const values = useRead(() => readBreakdown(siteId, view, dimension, { limit: VALUES_SHOWN, search }), [siteId, view, dimension, search].join('|'));
  const rows = values.loading ? [] : (values.data?.rows ?? []);
  const chosen = rows[active];
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    setActive(-1);
  }, [dimension, search]);
  useEffect(() => {
    if (active >= 0) document.getElementById(`filter-value-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  /** The next value that is a filter from `from`, `step` (±1) at a time; `from` when there is none. */
  const move = (from: number, step: number) => {
    for (let i = from + step; i >= 0 && i < rows.length; i += step) if (!isAggregateKey(rows[i]!.key)) return i;
    return from;
  };
  const apply = () => {
    if (!chosen || isAggregateKey(chosen.key)) return;
    onApply(dimension, chosen.key);
    dialog.current?.close();
  };
  const label = inSentence(DIMENSION_LABELS[dimension]);
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
          <SelectField<Dimension> label="Dimension" value={dimension} onValue={setDimension} options={DIMENSIONS.map((d) => [d, DIMENSION_LABELS[d]])} />
          <span class="filter-is">is</span>
        </div>
        <div class="field">
          <label for="filter-value">Value</label>
          <input
            id="filter-value"
            type="text"
            role="combobox"
            autoComplete="off"
            spellcheck={false}
            aria-autocomplete="list"
            aria-expanded={rows.length > 0}
            aria-controls="filter-values"
            aria-activedescendant={chosen ? `filter-value-${active}` : undefined}
            value={typed}
            onInput={(event) => setTyped(event.currentTarget.value)}
            onKeyDown={(event) => {
              const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
              if (!step) return;
              event.preventDefault();
              setActive(move(active, step));
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
            <ul id="filter-values" role="listbox" aria-label={`Values of ${label}`}>
              {rows.map((row, i) => {
                const aggregate = isAggregateKey(row.key);
                return (
                  <li
                    key={row.key}
                    id={`filter-value-${i}`}
                    role="option"
                    aria-selected={i === active}
                    aria-disabled={aggregate || undefined}
                    title={aggregate ? `${row.key} names no single value: not a filter` : undefined}
                    // The focus stays in the search field, where the arrow keys and Enter work.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => !aggregate && setActive(i)}
                  >
                    <span class="value-key">{keyLabel(dimension, row.key)}</span> <span class="muted">{formatCount(row.visitors)}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={!chosen}>
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
