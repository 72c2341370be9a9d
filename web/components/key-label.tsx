// A breakdown key as a row shows it: its label (labels.ts), a country's name after its flag. The flag
// is decoration: screen readers read the name alone.
import { countryFlag, keyLabel } from '../lib/labels.js';
import type { QueryDimension } from '../../src/core/vocabulary.js';

export function KeyLabel({ dimension, value }: { dimension: QueryDimension; value: string }) {
  const flag = countryFlag(dimension, value);
  return (
    <>
      {flag && (
        <span class="flag" aria-hidden="true">
          {flag}{' '}
        </span>
      )}
      {keyLabel(dimension, value)}
    </>
  );
}
