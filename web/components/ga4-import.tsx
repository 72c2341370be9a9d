// The Imports section's GA4 form: a property id and a service account's JSON key file, read in the
// browser and sent once, in the request that starts the import (svc uses it for the job and never
// stores it; docs/imports.md). The server says what is wrong with either.
import { useId, useRef, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction } from '../lib/hooks.js';
import { ErrorText, Notice } from './feedback.js';
import { TextField } from './fields.js';
import { siteSettingsText } from '../lib/text/site-settings.js';

export function Ga4Import({ siteId, onStarted }: { siteId: string; onStarted(): void }) {
  const keyId = useId();
  const [property, setProperty] = useState('');
  const [started, setStarted] = useState(false);
  const keyFile = useRef<HTMLInputElement>(null);
  const send = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const chosen = keyFile.current?.files?.[0];
    if (!chosen) return;
    void send.run(async () => {
      setStarted(false);
      await call('POST /manage/sites/:siteId/imports/ga4', { params: { siteId }, body: { property: property.trim(), key: await chosen.text() } });
      setStarted(true);
      if (keyFile.current) keyFile.current.value = '';
      onStarted();
    });
  };
  return (
    <>
      <h3>Google Analytics 4</h3>
      <p class="muted">{siteSettingsText.ga4Hint}</p>
      <form class="form inline" aria-label={siteSettingsText.ga4Import} onSubmit={submit}>
        <TextField label={siteSettingsText.ga4Property} value={property} onValue={setProperty} required placeholder="312345678" hint={siteSettingsText.ga4PropertyHint} />
        <div class="field">
          <label for={keyId}>{siteSettingsText.ga4Key}</label>
          <input ref={keyFile} id={keyId} type="file" required accept=".json,application/json" />
        </div>
        <div class="submit-cell">
          <button type="submit" disabled={send.busy}>
            {send.busy ? siteSettingsText.startingNote : siteSettingsText.ga4Import}
          </button>
        </div>
      </form>
      {started && <Notice>{siteSettingsText.ga4Started}</Notice>}
      <ErrorText message={send.error} />
    </>
  );
}
