// A site's imports (site settings): a file picker that uploads another tool's export, the list of
// imports with a progress bar per running one (read again every second while one runs) and, under
// it, the columns an older export lacks, Delete with confirmation, and the export of all the site's
// data in Plausible's format.
import { useEffect, useState } from 'preact/hooks';
import { upload } from '../lib/api.js';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { countText, formatCount, formatDay, formatRatio } from '../lib/format.js';
import { fill, pageLocale } from '../lib/i18n.js';
import { siteSettingsText } from '../lib/text/site-settings.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText, LoadState, Notice } from './feedback.js';
import { SelectField } from './fields.js';
import { FileField } from './file-field.js';
import { WideTable } from './table.js';
import { Ga4Import } from './ga4-import.js';
import { EVENT_IMPORT_SOURCES, type ImportSource } from '../../src/core/vocabulary.js';
import type { ImportView } from '../../src/core/management.js';
import { missingColumnsText } from '../../src/core/import-report.js';

type Source = ImportSource;
/** The sources of a file import, as the Source choice names them. */
const sourceChoices = () => (['plausible', 'goatcounter', 'umami'] as const).map((source): [Source, string] => [source, siteSettingsText.sourceNames[source]]);

/** An import's first and last day as the page's locale writes dates. */
const dayRange = (from: string, to: string | null) => fill(siteSettingsText.dayRangeText, { from: formatDay(from), to: formatDay(to ?? from) });

function Progress({ job }: { job: ImportView }) {
  if (job.status === 'done') return <span>{siteSettingsText.importStatus.done}</span>;
  if (job.status === 'failed') return <span class="error">{fill(siteSettingsText.failedWith, { error: job.error ?? '' })}</span>;
  const pct = Math.floor(job.progress * 100);
  return (
    <span class="import-progress">
      <progress max={100} value={pct} aria-label={fill(siteSettingsText.importOf, { id: job.importId, status: siteSettingsText.importStatus[job.status] })} />
      <span aria-hidden="true">{job.status === 'queued' ? siteSettingsText.importStatus.queued : formatRatio(pct / 100)}</span>
    </span>
  );
}

export function Imports({ siteId }: { siteId: string }) {
  const path = `/manage/sites/${encodeURIComponent(siteId)}`;
  const list = useRead(() => call('GET /manage/sites/:siteId/imports', { params: { siteId } }), [siteId]);
  const [source, setSource] = useState<Source>('plausible');
  const [started, setStarted] = useState<string | undefined>(undefined);
  const [file, setFile] = useState<File | undefined>(undefined);
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
    if (!file) return;
    void send.run(async () => {
      setStarted(undefined);
      const name = encodeURIComponent(file.name);
      await upload(`${path}/imports?source=${source}&name=${name}`, file);
      setStarted(file.name);
      setFile(undefined);
      list.reload();
    });
  };
  return (
    <section class="card" id="imports" aria-labelledby="imports-title">
      <h2 id="imports-title">{siteSettingsText.importsTitle}</h2>
      <p class="muted">{siteSettingsText.importsHint}</p>
      <form class="form inline" aria-label={siteSettingsText.importFileForm} onSubmit={submit}>
        <SelectField<Source> label={siteSettingsText.sourceLabel} value={source} onValue={setSource} options={sourceChoices()} hint={siteSettingsText.sourceFiles[source as keyof typeof siteSettingsText.sourceFiles]} />
        <FileField label={siteSettingsText.importFileLabel} accept=".zip,.csv,.gz,application/zip,text/csv,application/gzip" file={file} onFile={setFile} />
        <div class="submit-cell">
          <button type="submit" disabled={send.busy}>
            {send.busy ? siteSettingsText.uploadingNote : siteSettingsText.importButton}
          </button>
        </div>
      </form>
      {started && <Notice>{fill(siteSettingsText.uploaded, { file: started })}</Notice>}
      <ErrorText message={send.error} />
      <Ga4Import siteId={siteId} onStarted={list.reload} />
      <LoadState state={list}>
        {({ imports }) => (
          <>
            <WideTable
              region={siteSettingsText.importsTitle}
              columns={[siteSettingsText.sourceLabel, siteSettingsText.fileDays, { label: siteSettingsText.rowsColumn, numeric: true }, { label: siteSettingsText.skipped, numeric: true }, siteSettingsText.statusColumn, '']}
              rows={imports}
              empty={<p class="muted">{siteSettingsText.noImports}</p>}
              row={(job) => (
                <tr key={job.importId}>
                  <td>{siteSettingsText.sourceNames[job.source]}</td>
                  <td>{job.from ? dayRange(job.from, job.to) : '—'}</td>
                  <td class="num">{formatCount(job.rows)}</td>
                  <td class="num" title={job.skippedDays.length > 0 ? fill(siteSettingsText.daysWithVisits, { days: job.skippedDays.map((day) => formatDay(day)).join(', ') }) : undefined}>
                    {formatCount(job.skippedRows)}
                    {job.skippedDays.length > 0 ? countText(siteSettingsText.skippedDaysCount, job.skippedDays.length) : ''}
                  </td>
                  <td>
                    <Progress job={job} />
                  </td>
                  <td>
                    <ConfirmButton
                      question={EVENT_IMPORT_SOURCES.includes(job.source) ? siteSettingsText.deleteEventsQuestion : siteSettingsText.deleteFiguresQuestion}
                      confirmLabel={siteSettingsText.deleteImport}
                      label={fill(siteSettingsText.deleteImportOf, { source: siteSettingsText.sourceNames[job.source], date: formatDay(new Date(job.createdAt).toISOString().slice(0, 10)) })}
                      disabled={remove.busy}
                      onConfirm={() => void remove.run(async () => {
                        await call('DELETE /manage/sites/:siteId/imports/:importId', { params: { siteId, importId: job.importId } });
                        list.reload();
                      })}
                    >
                      {siteSettingsText.deleteButton}
                    </ConfirmButton>
                  </td>
                </tr>
              )}
            />
            {imports.map((job) => {
              const missing = missingColumnsText(job.files, siteSettingsText.importReportWords, pageLocale());
              return missing && (
                <p key={job.importId} class="muted" data-import-note={job.importId}>
                  {job.from ? dayRange(job.from, job.to) : job.importId}: {missing}
                </p>
              );
            })}
          </>
        )}
      </LoadState>
      <ErrorText message={remove.error} />
      <h3>{siteSettingsText.exportTitle}</h3>
      <p class="muted">{siteSettingsText.exportHint}</p>
      <p class="muted">{siteSettingsText.exportDays}</p>
      <a class="button-link" href={`/app/v1${path}/export`} download>
        {siteSettingsText.exportAll}
      </a>
    </section>
  );
}
