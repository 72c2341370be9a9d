// A time-zone field: type to search the IANA zones the service lists (a native datalist, so the
// browser's own keyboard handling applies). A name not in the list (UTC, an alias) is left for the
// server to judge: its answer shows next to the form.
import { useId } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useRead } from '../lib/hooks.js';
import { siteFieldsText } from '../lib/text/site-fields.js';

let zonesOnce: Promise<string[]> | undefined;
function timezones(): Promise<string[]> {
  zonesOnce ??= call('GET /timezones').then((body) => body.timezones);
  return zonesOnce;
}

export function TimezoneField({ value, onValue }: { value: string; onValue(value: string): void }) {
  const id = useId();
  const zones = useRead(timezones);
  const lower = value.toLowerCase();
  const listed = zones.data === undefined || zones.data.some((zone) => zone.toLowerCase() === lower);
  return (
    <div class="field">
      <label for={id}>{siteFieldsText.timeZone}</label>
      <input
        id={id}
        list={`${id}-zones`}
        value={value}
        autoComplete="off"
        spellcheck={false}
        required
        aria-describedby={`${id}-hint`}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
      <datalist id={`${id}-zones`}>
        {(zones.data ?? []).map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <small id={`${id}-hint`} class="hint">
        {zones.error ?? (listed ? siteFieldsText.timeZoneHint : siteFieldsText.unlistedZone)}
      </small>
    </div>
  );
}

/** The browser's own zone when the service lists it (a good default for a new site), else UTC. */
export async function defaultTimezone(): Promise<string> {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const listed = await timezones().then(
    (zones) => zones.includes(own),
    () => false,
  );
  return listed ? own : 'UTC';
}
