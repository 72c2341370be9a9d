// A GA4 property read into a site's imported aggregates (docs/imports.md, "Google Analytics 4"): each
// report of ./reports.ts is asked for a window of days at a time, broken down by day (the `date`
// dimension) and paged through, each page's rows mapped and staged as they arrive, so that memory
// holds one page. Once every report is read, the staged rows are written exactly as a Plausible
// import's are (days holding events skipped, earlier imports' days replaced). A refusal, or any
// failure, removes what the job staged: never partial.
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import type { EventStore, TableRow } from '../../storage/events/types.js';
import { IMPORT_STAGING } from '../../stats/rollups/tables.js';
import { BadLine, isDay } from '../plausible.js';
import { ImportRefused, removeImport, REPORTED_LINES, STAGED_PER_WRITE, stagingRow, writeStagedImport, type ImportReport, type ImportTarget } from '../plausible-import.js';
import { GoogleClient, type GoogleClientOptions } from './google.js';
import type { ServiceAccountKey } from './key.js';
import { GA4_REPORTS, type Ga4Report, type Ga4Values } from './reports.js';

/** What a GA4 import reads: the property, with the key that has access to it, and its days. */
export interface Ga4Request {
  /** The property's numeric id. */
  property: string;
  key: ServiceAccountKey;
  /** The first day; null: the property's first day with data. */
  from: string | null;
  to: string;
}

export interface Ga4Options extends Omit<GoogleClientOptions, 'signal' | 'now' | 'beat'> {
  /** Rows asked per page (Google answers up to 250 000). */
  pageRows?: number;
  /** Days one report covers (each row is still one day's). */
  windowDays?: number;
}

/** The first day the Data API answers for. */
export const GA4_FIRST_DAY = '2015-08-14';
/** GA4 property ids are numbers (Admin, Property details). */
export const GA4_PROPERTY = /^[1-9]\d{0,19}$/;
const DEFAULT_PAGE_ROWS = 10_000;
/** A month of days per report: a year is 12 calls of each report, well inside a property's hourly quota. */
const DEFAULT_WINDOW_DAYS = 31;

/** A report's answer, as far as it is read (Google's RunReportResponse). */
interface ReportPage {
  dimensionHeaders?: Array<{ name?: unknown }>;
  metricHeaders?: Array<{ name?: unknown }>;
  rows?: Array<{ dimensionValues?: Array<{ value?: unknown }>; metricValues?: Array<{ value?: unknown }> }>;
  rowCount?: unknown;
}

interface ReportRow extends Ga4Values {
  /** The row's number in its report, from 1 across pages. */
  line: number;
}

const NUMBER = /^\d{1,15}(?:\.\d{1,20})?(?:[eE][+-]?\d{1,3})?$/;

/** Consecutive windows of at most `size` days covering `days`. */
function windowsOf(days: Period, size: number): Period[] {
  const windows: Period[] = [];
  for (let from = days.from; from <= days.to; from = addDays(from, size)) {
    const to = addDays(from, size - 1);
    windows.push({ from, to: to < days.to ? to : days.to });
  }
  return windows;
}

/** The request of one page of `spec` over `window`, by day. */
function reportRequest(spec: Pick<Ga4Report, 'dimensions' | 'metrics'>, window: Period, limit: number, offset: number): object {
  const dimensions = ['date', ...spec.dimensions];
  return {
    dateRanges: [{ startDate: window.from, endDate: window.to }],
    dimensions: dimensions.map((name) => ({ name })),
    metrics: spec.metrics.map((name) => ({ name })),
    // A fixed order, so that pages neither repeat nor skip rows.
    orderBys: dimensions.map((dimensionName) => ({ dimension: { dimensionName } })),
    limit: String(limit),
    offset: String(offset),
  };
}

/** The rows of a report, page after page (`pageDone` after each); values read by the answer's own headers. */
async function* reportRows(google: GoogleClient, property: string, spec: Pick<Ga4Report, 'dimensions' | 'metrics'>, window: Period, pageRows: number, pageDone: () => void): AsyncGenerator<ReportRow> {
  for (let offset = 0; ; ) {
    const page = (await google.runReport(property, reportRequest(spec, window, pageRows, offset))) as ReportPage;
    if (typeof page !== 'object' || page === null) throw new ImportRefused("Google's Data API answered something that is not a report");
    const position = (headers: ReportPage['dimensionHeaders'], names: readonly string[]) => {
      const found = new Map((Array.isArray(headers) ? headers : []).map((h, i) => [h?.name, i]));
      for (const name of names) if (!found.has(name)) throw new ImportRefused(`Google's Data API answered a report without its column ${name}`);
      return found;
    };
    const rows = Array.isArray(page.rows) ? page.rows : [];
    if (rows.length === 0) return;
    const dimensionAt = position(page.dimensionHeaders, ['date', ...spec.dimensions]);
    const metricAt = position(page.metricHeaders, spec.metrics);
    for (const [i, row] of rows.entries()) {
      const value = (list: Array<{ value?: unknown }> | undefined, at: number | undefined) => {
        const v = Array.isArray(list) && at !== undefined ? list[at]?.value : undefined;
        return typeof v === 'string' ? v : '';
      };
      yield {
        line: offset + i + 1,
        text: (name) => value(dimensionAt.has(name) ? row.dimensionValues : row.metricValues, dimensionAt.get(name) ?? metricAt.get(name)),
        number(name) {
          const text = value(row.metricValues, metricAt.get(name));
          if (!NUMBER.test(text)) throw new BadLine(`${name} is not a number ≥ 0 (${JSON.stringify(text.slice(0, 40))})`);
          return Number(text);
        },
      };
    }
    offset += rows.length;
    pageDone();
    // `rowCount` counts every row of the report; Google leaves it out when it is 0.
    if (typeof page.rowCount !== 'number' || offset >= page.rowCount) return;
  }
}

/** GA4's `date` (`YYYYMMDD`) as a day of `window`. */
function dayOf(values: Ga4Values, window: Period): string {
  const text = values.text('date');
  const day = /^\d{8}$/.test(text) ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}` : text;
  if (!isDay(day)) throw new BadLine(`date is not a day (${JSON.stringify(text.slice(0, 40))})`);
  if (day < window.from || day > window.to) throw new BadLine(`date ${day} is outside the report's days ${window.from} to ${window.to}`);
  return day;
}

/** The property's first day with sessions up to `to`; null when it has none. */
async function firstDay(google: GoogleClient, property: string, to: string): Promise<string | null> {
  const probe = { dimensions: [], metrics: ['sessions'] };
  for await (const row of reportRows(google, property, probe, { from: GA4_FIRST_DAY, to }, 1, () => {})) return dayOf(row, { from: GA4_FIRST_DAY, to });
  return null;
}

/**
 * Reads the GA4 property of `request` into the site's imported aggregates. `progress` hears the
 * fraction done now and then; `signal` ends the calls to Google and the waits between them.
 */
export async function importGa4(events: EventStore, target: ImportTarget, request: Ga4Request, options: Ga4Options & { signal: AbortSignal }, progress: (done: number) => void = () => {}): Promise<ImportReport> {
  try {
    return await readAndWrite(events, target, request, options, progress);
  } catch (err) {
    await removeImport(events, target);
    throw err;
  }
}

async function readAndWrite(events: EventStore, target: ImportTarget, request: Ga4Request, options: Ga4Options & { signal: AbortSignal }, progress: (done: number) => void): Promise<ImportReport> {
  let fraction = 0;
  const advance = (done: number) => progress((fraction = done));
  // Each call to Google reports the progress again: the job's lease is renewed however long Google keeps it waiting.
  const google = new GoogleClient(request.key, { ...options, beat: () => progress(fraction) });
  const pageRows = options.pageRows ?? DEFAULT_PAGE_ROWS;
  const report: ImportReport = { days: null, rows: 0, skippedRows: 0, skippedLines: [], skippedDays: [], files: GA4_REPORTS.map((r) => ({ name: r.name, table: r.table, rows: 0, skippedRows: 0, missingColumns: [] })) };
  const from = request.from ?? (await firstDay(google, request.property, request.to));
  if (from === null || from > request.to) return report;
  const windows = windowsOf({ from, to: request.to }, options.windowDays ?? DEFAULT_WINDOW_DAYS);
  let staged: TableRow[] = [];
  const flush = async () => {
    if (staged.length === 0) return;
    const rows = staged;
    staged = [];
    await events.appendRows(IMPORT_STAGING, rows);
  };
  const total = windows.length * GA4_REPORTS.length;
  let done = 0;
  for (const window of windows) {
    for (const [i, spec] of GA4_REPORTS.entries()) {
      const file = report.files[i]!;
      for await (const row of reportRows(google, request.property, spec, window, pageRows, () => advance((0.9 * done) / total))) {
        try {
          const day = dayOf(row, window);
          for (const [dimension, key, counts] of spec.rows(row)) staged.push(stagingRow(target, { day, dimension, key, counts }));
          file.rows++;
          report.rows++;
        } catch (err) {
          if (!(err instanceof BadLine)) throw err;
          file.skippedRows++;
          report.skippedRows++;
          if (report.skippedLines.length < REPORTED_LINES) report.skippedLines.push({ file: `${spec.name}, ${window.from} to ${window.to}`, line: row.line, reason: err.message });
        }
        if (staged.length >= STAGED_PER_WRITE) await flush();
      }
      advance((0.9 * ++done) / total);
    }
  }
  await flush();
  report.days = { from, to: request.to };
  report.skippedDays = await writeStagedImport(events, target, report.days);
  advance(1);
  return report;
}
