// The active filters, each with a button that removes it.
import { DIMENSION_LABELS, keyLabel } from '../lib/labels.js';
import type { Dimension, Filter } from '../lib/view-state.js';

export function FilterChips({ filters, onRemove }: { filters: readonly Filter[]; onRemove(dimension: Dimension): void }) {
  if (filters.length === 0) return null;
  return (
    <ul class="chips" aria-label="Active filters">
      {filters.map((f) => (
        <li key={f.dimension} class="chip">
          <span>
            {DIMENSION_LABELS[f.dimension]} is <strong>{keyLabel(f.dimension, f.value)}</strong>
          </span>
          <button type="button" aria-label={`Remove filter ${f.dimension}`} title={`Remove filter ${f.dimension}`} onClick={() => onRemove(f.dimension)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
