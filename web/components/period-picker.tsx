// The `Period` picker: the presets of the vocabulary and a custom range of site-local days, with the site's
// time zone written beside it (every day of the dashboard is a day of that zone).
import { useEffect, useState } from 'preact/hooks';
import { PRESETS, type Preset } from '../../src/core/vocabulary.js';
import type { PeriodChoice } from '../../src/core/view-state.js';
import { periodText } from '../lib/text/period.js';
import { fillNodes } from '../lib/i18n.js';

const CUSTOM = 'custom';

export function PeriodPicker({
  period,
  timezone,
  resolved,
  onChange,
  customRequested,
}: {
  period: PeriodChoice;
  timezone: string;
  /** The days the last answer covered, to start a custom range from. */
  resolved?: { from: string; to: string };
  onChange(period: PeriodChoice): void;
  /** Changes each time the keyboard shortcut asks for the custom range. */
  customRequested?: number;
}) {
  const [custom, setCustom] = useState('from' in period);
  const [from, setFrom] = useState('from' in period ? period.from : resolved?.from ?? '');
  const [to, setTo] = useState('from' in period ? period.to : resolved?.to ?? '');
  const setRange = (range: { from: string; to: string } | undefined) => {
    if (!range) return;
    setFrom(range.from);
    setTo(range.to);
  };
  const openCustom = () => {
    setCustom(true);
    if (!from) setRange(resolved);
  };
  // The address changed (Back, a shortcut): the picker follows it.
  useEffect(() => {
    setCustom('from' in period);
    if ('from' in period) setRange(period);
  }, ['from' in period ? `${period.from}/${period.to}` : period.preset]);
  useEffect(() => {
    if (!customRequested) return;
    openCustom();
    setTimeout(() => document.getElementById('period-from')?.focus());
  }, [customRequested]);
  const selected = custom ? CUSTOM : 'preset' in period ? period.preset : CUSTOM;
  return (
    <div class="period">
      <div class="field period-select">
        <label for="period">{periodText.periodField}</label>
        <select
          id="period"
          value={selected}
          onChange={(event) => {
            const value = (event.target as HTMLSelectElement).value;
            if (value === CUSTOM) openCustom();
            else {
              setCustom(false);
              onChange({ preset: value as Preset });
            }
          }}
        >
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {periodText.presetNames[p]}
            </option>
          ))}
          <option value={CUSTOM}>{periodText.customRange}</option>
        </select>
      </div>
      {custom && (
        <form
          class="custom-range"
          onSubmit={(event) => {
            event.preventDefault();
            if (from && to) onChange({ from, to });
          }}
        >
          <div class="field">
            <label for="period-from">{periodText.fromField}</label>
            <input id="period-from" type="date" required value={from} max={to || undefined} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} />
          </div>
          <div class="field">
            <label for="period-to">{periodText.toField}</label>
            <input id="period-to" type="date" required value={to} min={from || undefined} onInput={(e) => setTo((e.target as HTMLInputElement).value)} />
          </div>
          <button type="submit">{periodText.applyButton}</button>
        </form>
      )}
      <p class="zone muted">{fillNodes(periodText.daysIn, { zone: <span class="tz">{timezone}</span> })}</p>
    </div>
  );
}
