// The active filters, each as a sentence (`Country is not Germany`) with a button that removes it.
// The removed chip's button leaves the page, so the focus moves to the chip that takes its place (or
// the one before it), and to the control named by `emptyFocusId` once no chip is left: never to the
// page's body.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { dimensionLabel, filterValueLabel, OPERATOR_LABELS } from '../lib/labels.js';
import type { Filter, FilterDimension } from '../../src/core/vocabulary.js';

export function FilterChips({ filters, onRemove, emptyFocusId }: { filters: readonly Filter[]; onRemove(dimension: FilterDimension): void; emptyFocusId: string }) {
  const list = useRef<HTMLUListElement>(null);
  const removedAt = useRef<number | null>(null);
  // A layout effect: the focus moves in the render that removes the chip, before the browser paints.
  useLayoutEffect(() => {
    const index = removedAt.current;
    if (index === null) return;
    removedAt.current = null;
    const buttons = list.current?.querySelectorAll('button') ?? [];
    const next = buttons[Math.min(index, buttons.length - 1)] ?? document.getElementById(emptyFocusId);
    next?.focus();
  }, [filters]);
  if (filters.length === 0) return null;
  return (
    <ul class="chips" aria-label="Active filters" ref={list}>
      {filters.map((f, index) => (
        <li key={f.dimension} class="chip">
          <span>
            {dimensionLabel(f.dimension)} {OPERATOR_LABELS[f.operator ?? 'is']} <strong>{filterValueLabel(f)}</strong>
          </span>
          <button
            type="button"
            aria-label={`Remove filter ${f.dimension}`}
            title={`Remove filter ${f.dimension}`}
            onClick={() => {
              removedAt.current = index;
              onRemove(f.dimension);
            }}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
