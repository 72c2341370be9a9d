// The `Compare with` picker: what the KPI tiles and the chart compare the period with.
import { COMPARISONS, type Comparison } from '../../src/core/vocabulary.js';

/** Each comparison as the picker and the chart's legend name it, and as a tile writes it after `vs`. */
export const COMPARISON_LABELS: Record<Comparison, { option: string; versus: string }> = {
  previous: { option: 'Previous period', versus: 'previous period' },
  year: { option: 'A year earlier', versus: 'a year earlier' },
  off: { option: 'No comparison', versus: '' },
};

export function ComparisonPicker({ comparison, onChange }: { comparison: Comparison; onChange(comparison: Comparison): void }) {
  return (
    <div class="field comparison-select">
      <label for="comparison">Compare with</label>
      <select id="comparison" value={comparison} onChange={(event) => onChange((event.target as HTMLSelectElement).value as Comparison)}>
        {COMPARISONS.map((c) => (
          <option key={c} value={c}>
            {COMPARISON_LABELS[c].option}
          </option>
        ))}
      </select>
    </div>
  );
}
