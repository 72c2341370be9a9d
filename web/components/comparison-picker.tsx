// The `Compare with` picker: what the KPI tiles and the chart compare the period with.
import { COMPARISONS, type Comparison } from '../../src/core/vocabulary.js';
import { periodText } from '../lib/text/period.js';

export function ComparisonPicker({ comparison, onChange }: { comparison: Comparison; onChange(comparison: Comparison): void }) {
  return (
    <div class="field comparison-select">
      <label for="comparison">{periodText.compareWith}</label>
      <select id="comparison" value={comparison} onChange={(event) => onChange((event.target as HTMLSelectElement).value as Comparison)}>
        {COMPARISONS.map((c) => (
          <option key={c} value={c}>
            {periodText.comparisons[c]}
          </option>
        ))}
      </select>
    </div>
  );
}
