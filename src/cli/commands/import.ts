// svc import FILE --site ID: streams an NDJSON file to the import endpoint, with a progress bar;
// a file over the server's lines per call goes in several calls, cut at site-local midnights
// (src/cli/import-plan.ts says why there).
import { createReadStream, statSync } from 'node:fs';
import { MAX_IMPORT_LINES } from '../../ingest/import-contract.js';
import { integer, optional, required } from '../args.js';
import { seg, type AdminClient } from '../client.js';
import { CliError, ServerRefusal } from '../errors.js';
import { planImport, type ImportCall } from '../import-plan.js';
import { formatFields, formatTable, ProgressBar, type Stream } from '../output.js';
import type { Noun } from '../types.js';
import { goatcounterImportCommand, plausibleImportCommand, umamiImportCommand } from './import-tool.js';
import { ga4ImportCommand } from './import-ga4.js';
import type { EventImportReport } from '../../core/management.js';

/** A file's import: the server's reports of its calls, summed. */
export interface ImportReport extends EventImportReport {
  /** Present when the file went in several calls: each call's lines and counts. */
  calls?: Array<{ firstLine: number; lastLine: number; accepted: number; rejected: number }>;
}

/** As many errors as one call's report lists. */
const REPORTED_ERRORS = 100;

/** How many of the report's errors the readable output lists. */
const SHOWN_ERRORS = 10;

/** The chunks of `source`, counted into the progress bar as they are handed to fetch. */
async function* counted(source: AsyncIterable<Buffer>, bar: ProgressBar | undefined): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    bar?.advance(chunk.length);
    yield chunk;
  }
  bar?.status('sent; waiting for the server to store the events…');
}

/** The report as text; `plannedCalls`, when more calls were planned than the report covers (an import that stopped). */
export function formatReport(report: ImportReport, plannedCalls?: number): string {
  const fields: Array<[string, string | number]> = [['accepted', report.accepted], ['rejected', report.rejected]];
  if (report.calls) {
    const made = plannedCalls !== undefined && plannedCalls > report.calls.length ? `${report.calls.length} of ${plannedCalls}` : `${report.calls.length}`;
    fields.push(['calls', `${made} (cut at the site's midnights)`]);
  }
  let text = formatFields(fields);
  if (report.errors.length > 0) {
    const shown = report.errors.slice(0, SHOWN_ERRORS);
    text += `\nfirst errors:\n` + formatTable(['LINE', 'REASON'], shown.map((e) => [e.line, e.reason]));
    const more = report.rejected - shown.length;
    if (more > 0) text += `… and ${more} more rejected line${more === 1 ? '' : 's'} (--json lists the first ${report.errors.length})\n`;
  }
  return text;
}

/** The site's time zone, found through its organisation (the admin API lists sites by organisation). */
async function siteTimeZone(client: AdminClient, siteId: string): Promise<string> {
  const { orgs } = await client.request<{ orgs: Array<{ id: string }> }>('GET', '/orgs');
  for (const org of orgs) {
    const { sites } = await client.request<{ sites: Array<{ id: string; timezone: string }> }>('GET', `/orgs/${seg(org.id)}/sites`);
    const site = sites.find((s) => s.id === siteId);
    if (site) return site.timezone;
  }
  throw new CliError('NOT_FOUND: site not found');
}

/** Refuses, in one line, a path that is not a file one can read. */
function checkRegularFile(file: string): void {
  try {
    if (!statSync(file).isFile()) throw new CliError(`cannot read ${file}: not a regular file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code ?? String(err)}`);
  }
}

async function* nothing(): AsyncGenerator<Buffer> {}

const sendCall = (client: AdminClient, siteId: string, source: AsyncIterable<Buffer>, bar: ProgressBar | undefined) =>
  client.request<ImportReport>('POST', `/sites/${seg(siteId)}/events/import`, undefined, {
    rawBody: counted(source, bar),
    contentType: 'application/x-ndjson',
  });

/** One report for the calls made: counts summed, line numbers the file's, the first 100 errors. */
function fileReport(calls: readonly ImportCall[], reports: readonly ImportReport[]): ImportReport {
  const errors = reports.flatMap((report, i) => report.errors.map((e) => ({ line: calls[i]!.firstLine + e.line - 1, reason: e.reason })));
  const report: ImportReport = {
    accepted: reports.reduce((n, r) => n + r.accepted, 0),
    rejected: reports.reduce((n, r) => n + r.rejected, 0),
    errors: errors.slice(0, REPORTED_ERRORS),
  };
  if (calls.length > 1) {
    report.calls = reports.map((r, i) => ({ firstLine: calls[i]!.firstLine, lastLine: calls[i]!.lastLine, accepted: r.accepted, rejected: r.rejected }));
  }
  return report;
}

/**
 * A call that failed: which lines are stored, and from which line to go on. A refusal the server
 * answered with its envelope below 500 stored nothing of the call; IMPORT_ROLLUPS_PENDING stored
 * all of it; after anything else (a dropped connection, a proxy's answer, a server error) the call
 * may have been stored or not.
 */
function stoppedAt(err: unknown, calls: readonly ImportCall[], failed: number): CliError {
  const call = calls[failed]!;
  const before = failed === 0 ? '' : `lines ${calls[0]!.firstLine}-${call.firstLine - 1} are stored; `;
  const what = `call ${failed + 1} of ${calls.length} (lines ${call.firstLine}-${call.lastLine}) failed: ${err instanceof Error ? err.message : String(err)}`;
  if (err instanceof ServerRefusal && err.code === 'IMPORT_ROLLUPS_PENDING') {
    const rest = call.lastLine < calls[calls.length - 1]!.lastLine ? `: to go on, run the same command with --from-line ${call.lastLine + 1}` : '';
    return new CliError(`${what}; lines ${calls[0]!.firstLine}-${call.lastLine} are stored${rest}`);
  }
  if (err instanceof ServerRefusal && err.status < 500) {
    return new CliError(`${what}; ${before}nothing from line ${call.firstLine} on was stored: to go on, run the same command with --from-line ${call.firstLine}`);
  }
  const next = call.lastLine + 1 <= calls[calls.length - 1]!.lastLine ? ` (or --from-line ${call.lastLine + 1} if it was stored)` : '';
  return new CliError(
    `${what}; ${before}whether this call was stored is not known: look at ${call.days ? `${call.days[0]} to ${call.days[1]}` : 'its days'} before running the same command with --from-line ${call.firstLine}${next}`,
  );
}

export interface ImportFileOptions {
  linesPerCall: number;
  fromLine: number;
  /** Where the progress bars are drawn (a TTY only). */
  progress: Stream;
  /** Called with what was stored when a call of several fails, before the error is thrown. */
  onStopped?: (stored: ImportReport, plannedCalls: number) => void;
}

/**
 * Imports lines fromLine… of an NDJSON file into a site: in one call when they fit, else in the
 * calls planImport cuts at the site's midnights, one after another. Resolves with one report.
 */
export async function importFile(client: AdminClient, siteId: string, file: string, options: ImportFileOptions): Promise<ImportReport> {
  const { linesPerCall, fromLine } = options;
  checkRegularFile(file);
  const planning = new ProgressBar(options.progress, 1);
  planning.status(`reading ${file}…`);
  const calls = await planImport(file, { linesPerCall, fromLine, siteTimeZone: () => siteTimeZone(client, siteId), now: Date.now() }).finally(() => planning.finish());
  const reports: ImportReport[] = [];
  for (const [i, call] of calls.entries()) {
    const bar = new ProgressBar(options.progress, call.end - call.start, calls.length > 1 ? `call ${i + 1}/${calls.length} ` : 'importing ');
    // An empty file is one empty call (createReadStream's `end` is inclusive: it cannot say "nothing").
    const source = call.end > call.start ? createReadStream(file, { start: call.start, end: call.end - 1, highWaterMark: 256 * 1024 }) : nothing();
    try {
      reports.push(await sendCall(client, siteId, source, bar));
    } catch (err) {
      if (calls.length === 1 && fromLine === 1) throw err;
      // What was stored is reported before the error (on stdout, in the usual form).
      if (reports.length > 0) options.onStopped?.(fileReport(calls, reports), calls.length);
      throw stoppedAt(err, calls, i);
    } finally {
      bar.finish();
    }
  }
  return fromLine === 1 && calls.length === 1 ? reports[0]! : fileReport(calls, reports);
}

export const importNoun: Noun = {
  name: 'import',
  summary: "import historical events from an NDJSON file, or another tool's export",
  commands: [
    {
      usage: 'svc import FILE --site ID [--from-line N] [--lines-per-call N]',
      summary:
        'stream an NDJSON file (one event a line: {ts, ua, u, ip?, r?, w?, l?, e?, p?, country?, region?, city?, browser?, os?, device?, session?}; FILE - reads stdin); returns once the events are queryable. ' +
        `A file over ${MAX_IMPORT_LINES} lines (--lines-per-call) goes in several calls, cut where no site-local day is on both sides; --from-line goes on with a stopped import`,
      options: { site: { type: 'string' }, 'from-line': { type: 'string' }, 'lines-per-call': { type: 'string' } },
      args: ['FILE'],
      example: 'svc import events-2024-05.ndjson --site k3f9a1b2c4d5',
      async run(inv) {
        const file = inv.positionals[0]!;
        const siteId = required(inv, 'site');
        const fromText = optional(inv, 'from-line');
        const perCallText = optional(inv, 'lines-per-call');
        const fromLine = fromText === undefined ? 1 : integer(inv, 'from-line', fromText, 1, Number.MAX_SAFE_INTEGER);
        const linesPerCall = perCallText === undefined ? MAX_IMPORT_LINES : integer(inv, 'lines-per-call', perCallText, 1, MAX_IMPORT_LINES);
        const client = inv.client();
        if (file === '-') {
          if (fromText !== undefined || perCallText !== undefined) inv.usage('--from-line and --lines-per-call need a FILE: standard input goes in one call');
          const report = await sendCall(client, siteId, process.stdin, undefined);
          inv.out.result(report, () => formatReport(report));
          return;
        }
        const report = await importFile(client, siteId, file, {
          linesPerCall,
          fromLine,
          progress: inv.out.stderr,
          onStopped: (stored, plannedCalls) => inv.out.result(stored, () => formatReport(stored, plannedCalls)),
        });
        inv.out.result(report, () => formatReport(report));
      },
    },
    plausibleImportCommand,
    goatcounterImportCommand,
    umamiImportCommand,
    ga4ImportCommand,
  ],
};
