// The Pages panel details' `Web vitals` view: each page's 75th percentiles (docs/api.md, Web vitals),
// each rated Good, Needs improvement or Poor by the published thresholds (WEB_VITALS); when no page
// shown has any, how the tracker measures them.
import { WideTable } from './table.js';
import { formatRatioOf, formatUnits } from '../lib/format.js';
import { fill, fillNodes } from '../lib/i18n.js';
import { namesText } from '../lib/text/names.js';
import { dashboardText } from '../lib/text/dashboard.js';
import { VITAL_NAMES, WEB_VITALS, type WebVital } from '../../src/core/vocabulary.js';
import type { BreakdownRow } from '../../src/core/answers.js';

/** A vital as read: its rating, then its value (a layout shift score from its thousandths, the others in milliseconds). */
function shown(vital: WebVital, value: number | null | undefined): string {
  if (value == null) return '–';
  const { good, poor } = WEB_VITALS[vital];
  const rating = dashboardText.vitalRatings[value <= good ? 'good' : value <= poor ? 'fair' : 'poor'];
  return fill(dashboardText.labelled, { label: rating, value: vital === 'cls' ? formatRatioOf(value, 1000) : formatUnits(value, 'millisecond', 'short') });
}

export function WebVitals({ rows }: { rows: readonly BreakdownRow[] }) {
  if (rows.every((r) => VITAL_NAMES.every((vital) => r.vitals?.[vital] == null))) return <p class="muted empty">{fillNodes(dashboardText.noVitals, { attribute: <code>data-vitals</code> })}</p>;
  return (
    // A box of its own that scrolls sideways on a phone, reachable by keyboard (its cells hold no control).
    <WideTable
      region={dashboardText.webVitals}
      columns={[namesText.dimensionNames.page, ...VITAL_NAMES.map((vital) => vital.toUpperCase())]}
      rows={rows}
      row={(r) => (
        <tr key={r.key}>
          <th scope="row">{r.key}</th>
          {VITAL_NAMES.map((vital) => (
            <td>{shown(vital, r.vitals?.[vital])}</td>
          ))}
        </tr>
      )}
    />
  );
}
