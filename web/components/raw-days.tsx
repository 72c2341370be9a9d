// The `Keep single events` choice, on the Add site form and in a site's settings: how many days a
// site keeps its raw events, which is how far back filtered views reach.
import { RAW_DAYS_CHOICES } from '../../src/core/vocabulary.js';
import { SelectField } from './fields.js';

/**
 * What the span buys and costs. The disk figure is bench/raw-disk's (npm run bench:raw-disk): a year
 * of bench/query's traffic on DuckDB, measured at a fortieth of it and scaled (docs/operations.md).
 */
const WHAT_IT_KEEPS =
  'Filtered views (several filters at once, or a filter beside another breakdown) reach back this far, older days answer one filter at a time; at 20 000 pageviews a day, a year kept 13 months takes about 540 MB more disk than kept 30 days.';

/** `days` selected; a span set through the API that none of the choices names is offered as it is. */
export function RawDaysField({ days, onDays, note }: { days: number; onDays(days: number): void; note?: string }) {
  const choices: Array<{ days: number; label: string }> = [...RAW_DAYS_CHOICES];
  if (!choices.some((choice) => choice.days === days)) choices.push({ days, label: `${days} days` });
  choices.sort((a, b) => a.days - b.days);
  return (
    <SelectField
      label="Keep single events"
      value={String(days)}
      onValue={(value) => onDays(Number(value))}
      options={choices.map((choice) => [String(choice.days), choice.label])}
      hint={note ? `${WHAT_IT_KEEPS} ${note}` : WHAT_IT_KEEPS}
    />
  );
}
