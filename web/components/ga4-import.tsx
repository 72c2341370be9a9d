// The Imports section's GA4 form: a property id and a service account's JSON key file, read in the
// browser and sent once, in the request that starts the import (svc uses it for the job and never
// stores it; docs/imports.md). The server says what is wrong with either.
import { useId, useRef, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction } from '../lib/hooks.js';
import { ErrorText, Notice } from './feedback.js';
import { TextField } from './fields.js';

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
      <p class="muted">
        Reads the property's daily figures through Google's Data API, from its first day to yesterday, with the JSON key of a service account that is a Viewer of the property. The key is sent once to start the import and never stored.
      </p>
      <form class="form inline" aria-label="Import from Google Analytics 4" onSubmit={submit}>
        <TextField label="GA4 property id" value={property} onValue={setProperty} required placeholder="312345678" hint="A number: Admin, Property details" />
        <div class="field">
          <label for={keyId}>Service account key (JSON)</label>
          <input ref={keyFile} id={keyId} type="file" required accept=".json,application/json" />
        </div>
        <div class="submit-cell">
          <button type="submit" disabled={send.busy}>
            {send.busy ? 'Starting…' : 'Import from Google Analytics 4'}
          </button>
        </div>
      </form>
      {started && <Notice>The import from Google Analytics 4 started: it runs below.</Notice>}
      <ErrorText message={send.error} />
    </>
  );
}
