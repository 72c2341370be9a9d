// svc import plausible FILE --site ID: uploads another tool's export (with a progress bar of the
// upload), waits for its job (a bar of the job's progress), and prints the job's report.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ImportView } from '../../core/management.js';
import { missingColumnsText } from '../../core/import-report.js';
import { required } from '../args.js';
import { seg, type AdminClient } from '../client.js';
import { CliError } from '../errors.js';
import { formatFields, formatTable, ProgressBar, renderProgress, type Stream } from '../output.js';
import type { Command } from '../types.js';
import type { ImportSource } from '../../storage/meta/import-types.js';

/** How often the job is asked for its progress. */
const POLL_MS = 500;
/** How many skipped days and lines the readable report lists. */
const SHOWN = 10;

export function formatImportReport(job: ImportView): string {
  const fields: Array<[string, string | number]> = [
    ['import', job.importId],
    ['status', job.status],
    ['days', job.from ? `${job.from} to ${job.to}` : '-'],
    ['rows', job.rows],
    ['skipped rows', job.skippedBots > 0 ? `${job.skippedRows} (${job.skippedBots} bots)` : job.skippedRows],
    ['skipped days', job.skippedDays.length === 0 ? 0 : `${job.skippedDays.length} (the site holds events on them): ${job.skippedDays.slice(0, SHOWN).join(', ')}${job.skippedDays.length > SHOWN ? ', …' : ''}`],
  ];
  if (job.renamedEvents > 0) fields.push(['renamed events', `${job.renamedEvents} (kept under a name of a-z, 0-9, _ and -)`]);
  if (job.error) fields.push(['error', job.error]);
  let text = formatFields(fields);
  if (job.files.length > 0) {
    const rows = job.files.map((f) => [f.name, f.table ?? '(ignored)', f.rows, f.skippedRows, f.missingColumns.join(', ') || '-']);
    text += '\n' + formatTable(['FILE', 'TABLE', 'ROWS', 'SKIPPED', 'MISSING COLUMNS'], rows);
  }
  const missing = missingColumnsText(job.files);
  if (missing) text += `\n${missing}\n`;
  if (job.skippedLines.length > 0) {
    text += '\nfirst skipped lines:\n' + formatTable(['FILE', 'LINE', 'REASON'], job.skippedLines.slice(0, SHOWN).map((l) => [l.file, l.line, l.reason]));
  }
  return text;
}

async function* counted(file: string, bar: ProgressBar): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    bar.advance(chunk.length);
    yield chunk;
  }
  bar.status('uploaded; checking the file…');
}

/** Uploads `file` as an import of `source`, then follows its job to its end. */
export async function importToolFile(client: AdminClient, source: ImportSource, siteId: string, file: string, progress: Stream): Promise<ImportView> {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new CliError(`cannot read ${file}: not a regular file`);
    size = stat.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const upload = new ProgressBar(progress, size, 'uploading ');
  const path = `/sites/${seg(siteId)}/imports?source=${source}&name=${encodeURIComponent(basename(file))}`;
  const { importId } = await client
    .request<{ importId: string }>('POST', path, undefined, { rawBody: counted(file, upload), contentType: file.toLowerCase().endsWith('.zip') ? 'application/zip' : 'text/csv' })
    .finally(() => upload.finish());
  return followImport(client, siteId, importId, progress);
}

/** Follows an import's job to its end, with a bar of its progress; resolves with the job as listed. */
export async function followImport(client: AdminClient, siteId: string, importId: string, progress: Stream): Promise<ImportView> {
  const bar = new ProgressBar(progress, 1, 'importing ');
  try {
    for (;;) {
      const { imports } = await client.request<{ imports: ImportView[] }>('GET', `/sites/${seg(siteId)}/imports`);
      const job = imports.find((j) => j.importId === importId);
      if (!job) throw new CliError(`import ${importId} is gone (deleted meanwhile)`);
      if (job.status === 'done' || job.status === 'failed') return job;
      bar.status(job.status === 'queued' ? 'queued: waiting for a worker…' : renderProgress(job.progress, 1).replace(/\s+\S+ \/ \S+$/, ''));
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    bar.finish();
  }
}

function importCommand(source: ImportSource, summary: string, example: string): Command {
  return {
    verb: source,
    usage: `svc import ${source} FILE --site ID`,
    summary,
    options: { site: { type: 'string' } },
    args: ['FILE'],
    example,
    async run(inv) {
      const job = await importToolFile(inv.client(), source, required(inv, 'site'), inv.positionals[0]!, inv.out.stderr);
      inv.out.result(job, () => formatImportReport(job));
      if (job.status === 'failed') throw new CliError(`the import failed: ${job.error}`);
    },
  };
}

export const plausibleImportCommand = importCommand(
  'plausible',
  "import Plausible's CSV export (the ZIP, or one of its CSV files) as daily aggregates; waits for the job and prints its report (days holding events are skipped; a later import replaces the days it covers)",
  'svc import plausible plausible-export.zip --site k3f9a1b2c4d5',
);

export const goatcounterImportCommand = importCommand(
  'goatcounter',
  "import GoatCounter's CSV export (format 2, .csv or .csv.gz) as events, through the NDJSON import; waits for the job and prints its report (bot rows skipped)",
  'svc import goatcounter goatcounter-export.csv.gz --site k3f9a1b2c4d5',
);

export const umamiImportCommand = importCommand(
  'umami',
  "import Umami's data export (its events with their sessions, .csv or .csv.gz) as events, through the NDJSON import; waits for the job and prints its report (robots, other event types and bad lines skipped)",
  'svc import umami umami-export.csv.gz --site k3f9a1b2c4d5',
);
