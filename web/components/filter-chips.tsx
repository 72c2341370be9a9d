// The active filters, each as a sentence (`Country is not Germany`) that opens the filter dialog to
// edit it, with a button that removes it. A removed chip's button leaves the page, so the focus moves
// to the chip that takes its place (or the one before it), and to the control named by `emptyFocusId`
// once no chip is left: never to the page's body. The edit dialog closed, the focus returns to the
// chip in the edited one's place.
import type { VNode } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { dimensionLabel, filterValueLabel, operatorLabel, type GoalNames } from '../lib/labels.js';
import type { Filter, FilterDimension } from '../../src/core/vocabulary.js';
import { fill } from '../lib/i18n.js';
import { dashboardText } from '../lib/text/dashboard.js';

/** A filter in words, its values in bold: `Country is not <b>Germany or Austria</b>`, `Goal is <b>Signup</b>`. */
export const FilterSentence = ({ filter, goals }: { filter: Filter; goals?: GoalNames }) => (
  <>
    {dimensionLabel(filter.dimension)} {operatorLabel(filter.operator ?? 'is')} <strong>{filterValueLabel(filter, goals)}</strong>
  </>
);

interface ChipsProps {
  filters: readonly Filter[];
  onRemove(dimension: FilterDimension): void;
  emptyFocusId: string;
  /** The site's goals' names, for a goal filter's chip. */
  goals?: GoalNames;
  /** The dialog that edits `filter`, calling `close` once it has closed. */
  editor(filter: Filter, close: () => void): VNode;
}

export function FilterChips({ filters, onRemove, emptyFocusId, goals, editor }: ChipsProps) {
  const list = useRef<HTMLUListElement>(null);
  // The place of the chip whose control left the page or opened the dialog: the focus goes back there.
  const focusAt = useRef<{ index: number; control: 'edit' | 'remove' } | null>(null);
  const [editing, setEditing] = useState<Filter | null>(null);
  // A layout effect: the focus moves in the render that removes the chip, before the browser paints.
  useLayoutEffect(() => {
    const at = focusAt.current;
    if (at === null || editing) return;
    focusAt.current = null;
    const controls = list.current?.querySelectorAll<HTMLButtonElement>(`button.chip-${at.control}`) ?? [];
    const next = controls[Math.min(at.index, controls.length - 1)] ?? document.getElementById(emptyFocusId);
    next?.focus();
  }, [filters, editing]);
  return (
    <>
      {filters.length > 0 && (
        <ul class="chips" aria-label={dashboardText.activeFilters} ref={list}>
          {filters.map((f, index) => (
            <li key={f.dimension} class="chip">
              <button
                type="button"
                class="chip-edit"
                aria-haspopup="dialog"
                onClick={() => {
                  focusAt.current = { index, control: 'edit' };
                  setEditing(f);
                }}
              >
                <FilterSentence filter={f} goals={goals} />
              </button>
              <button
                type="button"
                class="chip-remove"
                aria-label={fill(dashboardText.removeFilter, { dimension: dimensionLabel(f.dimension) })}
                title={fill(dashboardText.removeFilter, { dimension: dimensionLabel(f.dimension) })}
                onClick={() => {
                  focusAt.current = { index, control: 'remove' };
                  onRemove(f.dimension);
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {editing && editor(editing, () => setEditing(null))}
    </>
  );
}
