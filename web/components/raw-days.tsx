// The `Keep single events` choice, on the Add site form and in a site's settings: how many days a
// site keeps its raw events, which is how far back filtered views reach.
import { RAW_DAYS_CHOICES } from '../../src/core/vocabulary.js';
import { pageLocale } from '../lib/i18n.js';
import { siteFieldsText } from '../lib/text/site-fields.js';
import { SelectField } from './fields.js';

/**
 * `count` `unit`s in Intl's words for the page's locale (`13 months`, `13 Monate`): Intl itself, as
 * ../lib/format.ts's formatUnits does, whose module would bring the metric registry to the Add site form.
 */
const span = (count: number, unit: 'day' | 'month') => new Intl.NumberFormat(pageLocale(), { style: 'unit', unit, unitDisplay: 'long' }).format(count);

/** `days` selected; a span set through the API that none of the choices names is offered as it is. */
export function RawDaysField({ days, onDays, note }: { days: number; onDays(days: number): void; note?: string }) {
  const choices: Array<{ days: number; label: string }> = RAW_DAYS_CHOICES.map((choice) => ({ days: choice.days, label: span(choice.count, choice.unit) }));
  if (!choices.some((choice) => choice.days === days)) choices.push({ days, label: span(days, 'day') });
  choices.sort((a, b) => a.days - b.days);
  return (
    <SelectField
      label={siteFieldsText.keepEvents}
      value={String(days)}
      onValue={(value) => onDays(Number(value))}
      options={choices.map((choice) => [String(choice.days), choice.label])}
      hint={note ? `${siteFieldsText.keepEventsHint} ${note}` : siteFieldsText.keepEventsHint}
    />
  );
}
