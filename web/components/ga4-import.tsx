// The Imports section's GA4 form: a property id and a service account's JSON key file, read in the
// browser and sent once, in the request that starts the import (svc uses it for the job and never
// stores it; docs/imports.md). The server says what is wrong with either.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction } from '../lib/hooks.js';
import { ErrorText, Notice } from './feedback.js';
import { TextField } from './fields.js';
import { FileField } from './file-field.js';
import { siteSettingsText } from '../lib/text/site-settings.js';

export function Ga4Import({ siteId, onStarted }: { siteId: string; onStarted(): void }) {
  const [property, setProperty] = useState('');
  const [started, setStarted] = useState(false);
  const [keyFile, setKeyFile] = useState<File | undefined>(undefined);
  const send = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!keyFile) return;
    void send.run(async () => {
      setStarted(false);
      await call('POST /manage/sites/:siteId/imports/ga4', { params: { siteId }, body: { property: property.trim(), key: await keyFile.text() } });
      setStarted(true);
      setKeyFile(undefined);
      onStarted();
    });
  };
  return (
    <>
      <h3>Google Analytics 4</h3>
      <p class="muted">{siteSettingsText.ga4Hint}</p>
      <form class="form inline" aria-label={siteSettingsText.ga4Import} onSubmit={submit}>
        <TextField label={siteSettingsText.ga4Property} value={property} onValue={setProperty} required placeholder="312345678" hint={siteSettingsText.ga4PropertyHint} />
        <FileField label={siteSettingsText.ga4Key} accept=".json,application/json" file={keyFile} onFile={setKeyFile} />
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
