// A site's imports (site settings): a file picker that uploads another tool's export, the list of
// imports with a progress bar per running one (read again every second while one runs) and, under
// it, the columns an older export lacks, Delete with confirmation, and the export of all the site's
// data in Plausible's format.
import { useEffect, useRef, useState } from 'preact/hooks';
import { upload } from '../lib/api.js';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { formatCount } from '../lib/format.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText, LoadState, Notice } from './feedback.js';
import { SelectField } from './fields.js';
import { WideTable } from './table.js';
import { Ga4Import } from './ga4-import.js';
import { EVENT_IMPORT_SOURCES, type ImportSource } from '../../src/core/vocabulary.js';
import type { ImportView } from '../../src/core/management.js';
import { missingColumnsText } from '../../src/core/import-report.js';

type Source = ImportSource;
/** A source as the list of imports and the Source choice name it. */
const SOURCE_NAMES: Record<Source, string> = { plausible: 'Plausible', goatcounter: 'GoatCounter', umami: 'Umami', ga4: 'Google Analytics 4' };
/** The file each source of an uploaded file exports, said under the Source choice (the choice itself stays short enough to read whole). */
const FILES: Partial<Record<Source, string>> = {
  plausible: "Plausible's CSV export (.zip or .csv)",
  goatcounter: "GoatCounter's CSV export (.csv or .csv.gz)",
  umami: "Umami's data export (.csv or .csv.gz)",
};
const SOURCES = Object.keys(FILES).map((source): [Source, string] => [source as Source, SOURCE_NAMES[source as Source]]);
const STATUS: Record<ImportView['status'], string> = { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' };

function Progress({ job }: { job: ImportView }) {
  if (job.status === 'done') return <span>Done</span>;
  if (job.status === 'failed') return <span class="error">Failed: {job.error}</span>;
  const pct = Math.floor(job.progress * 100);
  return (
    <span class="import-progress">
      <progress max={100} value={pct} aria-label={`Import ${job.importId}: ${STATUS[job.status]}`} />
      <span aria-hidden="true">{job.status === 'queued' ? 'Queued' : `${pct} %`}</span>
    </span>
  );
}

export function Imports({ siteId }: { siteId: string }) {
  const path = `/manage/sites/${encodeURIComponent(siteId)}`;
  const list = useRead(() => call('GET /manage/sites/:siteId/imports', { params: { siteId } }), [siteId]);
  const [source, setSource] = useState<Source>('plausible');
  const [started, setStarted] = useState<string | undefined>(undefined);
  const file = useRef<HTMLInputElement>(null);
  const send = useAction();
  const remove = useAction();
  const running = list.data?.imports.some((job) => job.status === 'queued' || job.status === 'running') ?? false;
  // While an import runs, its progress is read again every second.
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(list.reload, 1000);
    return () => clearTimeout(timer);
  }, [running, list.data]);
  const submit = (event: Event) => {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) return;
    void send.run(async () => {
      setStarted(undefined);
      const name = encodeURIComponent(chosen.name);
      await upload(`${path}/imports?source=${source}&name=${name}`, chosen);
      setStarted(chosen.name);
      if (file.current) file.current.value = '';
      list.reload();
    });
  };
  return (
    <section class="card" id="imports" aria-labelledby="imports-title">
      <h2 id="imports-title">Imports</h2>
      <p class="muted">
        Bring the site's history from another tool. Days on which this site already has visits are skipped; importing a newer export of the same tool replaces the days it covers.
      </p>
      <form class="form inline" aria-label="Import a file" onSubmit={submit}>
        <SelectField<Source> label="Source" value={source} onValue={setSource} options={SOURCES} hint={FILES[source]} />
        <div class="field">
          <label for={`${siteId}-import-file`}>Import file</label>
          <input ref={file} id={`${siteId}-import-file`} type="file" required accept=".zip,.csv,.gz,application/zip,text/csv,application/gzip" />
        </div>
        <div class="submit-cell">
          <button type="submit" disabled={send.busy}>
            {send.busy ? 'Uploading…' : 'Import'}
          </button>
        </div>
      </form>
      {started && <Notice>{started} is uploaded: its import runs below.</Notice>}
      <ErrorText message={send.error} />
      <Ga4Import siteId={siteId} onStarted={list.reload} />
      <LoadState state={list}>
        {({ imports }) => (
          <>
            <WideTable
              region="Imports"
              columns={['Source', 'File days', { label: 'Rows', numeric: true }, { label: 'Skipped', numeric: true }, 'Status', '']}
              rows={imports}
              empty={<p class="muted">No imports yet.</p>}
              row={(job) => (
                <tr key={job.importId}>
                  <td>{SOURCE_NAMES[job.source]}</td>
                  <td>{job.from ? `${job.from} to ${job.to}` : '—'}</td>
                  <td class="num">{formatCount(job.rows)}</td>
                  <td class="num" title={job.skippedDays.length > 0 ? `Days with visits already: ${job.skippedDays.join(', ')}` : undefined}>
                    {formatCount(job.skippedRows)}
                    {job.skippedDays.length > 0 ? ` rows, ${job.skippedDays.length} days` : ''}
                  </td>
                  <td>
                    <Progress job={job} />
                  </td>
                  <td>
                    <ConfirmButton
                      question={`Delete this import? Its ${EVENT_IMPORT_SOURCES.includes(job.source) ? 'events' : 'figures'} leave the site's statistics.`}
                      confirmLabel="Delete import"
                      label={`Delete the ${job.source} import of ${new Date(job.createdAt).toISOString().slice(0, 10)}`}
                      disabled={remove.busy}
                      onConfirm={() => void remove.run(async () => {
                        await call('DELETE /manage/sites/:siteId/imports/:importId', { params: { siteId, importId: job.importId } });
                        list.reload();
                      })}
                    >
                      Delete
                    </ConfirmButton>
                  </td>
                </tr>
              )}
            />
            {imports.map((job) => {
              const missing = missingColumnsText(job.files);
              return missing && (
                <p key={job.importId} class="muted" data-import-note={job.importId}>
                  {job.from ? `${job.from} to ${job.to}` : job.importId}: {missing}
                </p>
              );
            })}
          </>
        )}
      </LoadState>
      <ErrorText message={remove.error} />
      <h3>Export</h3>
      <p class="muted">All of the site's daily figures, in Plausible's CSV format (a ZIP), which svc, Plausible and others import.</p>
      <p class="muted">It holds the rolled-up days and the imported days: today is not rolled up yet, so it is left out. The archive's README.txt names its first and last day.</p>
      <a class="button-link" href={`/app/v1${path}/export`} download>
        Export all data
      </a>
    </section>
  );
}
