// Reading one Plausible export into a site's imported aggregates (docs/imports.md): its lines are
// parsed as they stream out of the file (or out of each entry of the ZIP) and staged per import
// (the locations' cities, GeoNames ids, are looked up in a pass before, so staged keys are final);
// once every file is read, the staged rows of the days the site holds no events or rollups for
// replace, in one write per table, what earlier imports held on the export's days. A refusal, or
// any failure, removes what the import had staged or written: never partial.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Period } from '../core/period.js';
import { measureColumns, TRAFFIC_MEASURES } from '../stats/measures.js';
import { IMPORT_SCROLL_STAGING, IMPORT_STAGING, IMPORT_STAGING_TABLES, IMPORTED_DAILY, IMPORTED_DIM_DAILY, IMPORTED_DIM_MONTHLY, IMPORTED_SCROLL_DAILY, IMPORTED_TABLES, SCROLL_SUMS, SITE_DAILY } from '../stats/rollups/tables.js';
import { addMonths, firstOfMonth } from '../core/period.js';
import { addDays } from '../core/localtime.js';
import { dayRange } from '../stats/sql/filters.js';
import { sumsOf } from '../stats/sql/measures.js';
import { forgetImportedDays } from '../stats/imported-days.js';
import { sql, trusted, type Sql } from '../sql/sql.js';
import type { EventStore, TableRow } from '../storage/events/types.js';
import { restoredText } from '../core/csv-field.js';
import { csvRecords, type CsvRecord } from './csv.js';
import { asCollectedCityName, geonamesCityNames } from './geonames.js';
import { geonamesId, type CityNames } from './names.js';
import { BadLine, SVC_DIMENSIONS_TABLE, missingColumns, plausibleFileName, rowsOfLine, tableOfHeader, type ImportedRow, type ImportedScroll, type PlausibleTable } from './plausible.js';
import { isZipFile, openZipEntry, readZipDirectory, ZipRefused } from './zip.js';

/** An import refused whole (not one of the formats, a bomb, a header without a column): the reason is the user's answer. */
export class ImportRefused extends Error {}

/** How many skipped lines the report lists (all are counted). */
export const REPORTED_LINES = 100;
/** Rows staged per write. */
export const STAGED_PER_WRITE = 5_000;
/** Most distinct cities an import looks up (the table holds 138,000): ids past it keep their `geonames:<id>` key. */
const MAX_CITY_IDS = 200_000;

export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface ImportFile {
  name: string;
  /** The export's table it holds; null for a file that is not part of the export (ignored). */
  table: PlausibleTable | null;
  rows: number;
  skippedRows: number;
  /**
   * The columns of its table that an older export lacks and svc reads when present (docs/imports.md,
   * "Older exports"): the measures they give are unknown on its days, the keys not written.
   */
  missingColumns: string[];
}

export interface ImportReport {
  /** The days the export covers (from its files' names, else its lines); null when it holds none. */
  days: Period | null;
  /** Lines read into aggregates. */
  rows: number;
  skippedRows: number;
  /** The first skipped lines and why (REPORTED_LINES at most). */
  skippedLines: SkippedLine[];
  /** Rows the export marks as bots or whose browser is a robot, left out (GoatCounter's, Umami's). */
  skippedBots?: number;
  /** Custom events kept under another name the event-name rule allows (Umami's). */
  renamedEvents?: number;
  /** Days not written because the site holds collected or imported events on them. */
  skippedDays: string[];
  files: ImportFile[];
}

export interface ImportTarget {
  siteId: string;
  importId: string;
}

/** One CSV to read: its name (the table comes from it, else from its header) and its bytes. */
interface CsvSource {
  name: string;
  open(): Promise<AsyncIterable<Buffer>>;
  /** Its share of the work, for progress (compressed bytes). */
  weight: number;
}

/** A file of an upload before (or without) a table of the export: nothing read from it. */
export function ignoredFile(name: string): ImportFile {
  return { name, table: null, rows: 0, skippedRows: 0, missingColumns: [] };
}

/** The CSVs of a file on disk: the entries of a ZIP, or the file itself (named `name`). */
async function sourcesOf(path: string, name: string): Promise<{ csvs: CsvSource[]; ignored: string[] }> {
  if (await isZipFile(path)) {
    const entries = await readZipDirectory(path).catch((err: unknown) => {
      throw err instanceof ZipRefused ? new ImportRefused(err.message) : err;
    });
    const csvs: CsvSource[] = [];
    const ignored: string[] = [];
    for (const entry of entries) {
      if (entry.name.endsWith('/')) continue;
      if (entry.name.toLowerCase().endsWith('.csv')) csvs.push({ name: entry.name, open: () => openZipEntry(path, entry), weight: entry.compressedSize });
      else ignored.push(entry.name);
    }
    return { csvs, ignored };
  }
  const { size } = await stat(path);
  return { csvs: [{ name, open: async () => createReadStream(path, { highWaterMark: 256 * 1024 }), weight: size }], ignored: [] };
}

/**
 * Refuses (ImportRefused) a file that is not Plausible's export: a ZIP that is malformed, a bomb or
 * holds an unsafe name, or a CSV whose header lacks a column of its table. Reads the archive's
 * directory and each CSV's first line only.
 */
export async function checkPlausibleExport(path: string, name: string): Promise<void> {
  try {
    const { csvs, ignored } = await sourcesOf(path, name);
    let tables = 0;
    for (const csv of csvs) {
      for await (const record of csvRecords(await csv.open())) {
        if (tableOfRecord(csv.name, record, csvs.length === 1 && ignored.length === 0) !== null) tables++;
        break;
      }
    }
    if (tables === 0) throw new ImportRefused("the file holds none of the tables of Plausible's export");
  } catch (err) {
    // An entry refused as it is opened (its bytes run into another's) is refused like the directory.
    throw err instanceof ZipRefused ? new ImportRefused(err.message, { cause: err }) : err;
  }
}

/** A CSV's table, as its name or header tells, with its columns' positions and the columns an older export lacks. */
interface CsvTable {
  table: PlausibleTable;
  positions: Map<string, number>;
  missing: string[];
}

/**
 * The table and column positions a CSV's header gives (its name's table first); null for a file
 * that is no table of the export, refused when `alone` (the upload itself), else ignored.
 */
function tableOfRecord(name: string, record: CsvRecord, alone: boolean): CsvTable | null {
  if ('tooLong' in record) throw new ImportRefused(`${name}: the header line is too long`);
  const header = record.fields.map((h) => h.trim());
  const table = plausibleFileName(name)?.table ?? tableOfHeader(header);
  if (table === null) {
    if (alone) throw new ImportRefused(`${name}: not a file of Plausible's export (its header matches no table)`);
    return null;
  }
  const missing = missingColumns(table, header);
  if (missing.required.length > 0) throw new ImportRefused(`${name}: the ${table} table has no column ${missing.required.join(', ')}`);
  const positions = new Map(header.map((h, i) => [h, i]));
  if (positions.size !== header.length) throw new ImportRefused(`${name}: the header names a column twice`);
  return { table, positions, missing: missing.optional };
}

/**
 * Reads the export at `path` (`name`: the uploaded file's name, which gives a single CSV its table
 * and days) into the site's imported aggregates. `progress` hears the fraction done now and then.
 */
export async function importPlausible(events: EventStore, target: ImportTarget, path: string, name: string, progress: (done: number) => void = () => {}): Promise<ImportReport> {
  try {
    return await readAndWrite(events, target, path, name, progress);
  } catch (err) {
    await removeImport(events, target);
    if (err instanceof ZipRefused) throw new ImportRefused(err.message, { cause: err });
    throw err;
  }
}

async function readAndWrite(events: EventStore, target: ImportTarget, path: string, name: string, progress: (done: number) => void): Promise<ImportReport> {
  const { csvs, ignored } = await sourcesOf(path, name);
  const report: ImportReport = { days: null, rows: 0, skippedRows: 0, skippedLines: [], skippedDays: [], files: ignored.map(ignoredFile) };
  const totalWeight = csvs.reduce((sum, c) => sum + c.weight, 0) || 1;
  let doneWeight = 0;
  let staged: TableRow[] = [];
  let stagedScroll: TableRow[] = [];
  let first: string | null = null;
  let last: string | null = null;
  const flush = async () => {
    const [rows, scroll] = [staged, stagedScroll];
    [staged, stagedScroll] = [[], []];
    if (rows.length > 0) await events.appendRows(IMPORT_STAGING, rows);
    if (scroll.length > 0) await events.appendRows(IMPORT_SCROLL_STAGING, scroll);
  };
  const stage = (row: ImportedRow) => {
    staged.push(stagingRow(target, row));
    if (first === null || row.day < first) first = row.day;
    if (last === null || row.day > last) last = row.day;
  };
  const stageScroll = (s: ImportedScroll) => stagedScroll.push([target.siteId, s.day, target.importId, s.page, s.depthSum, s.depthVisitors]);
  // An export of svc's own gives every dimension's figures in its own table: Plausible's tables then give the site's only.
  const ownDimensions = csvs.some((c) => plausibleFileName(c.name)?.table === SVC_DIMENSIONS_TABLE);
  const alone = csvs.length === 1 && ignored.length === 0;
  const cityNames = ownDimensions ? new Map() : await cityNamesOf(csvs, alone);
  const sums = new FileSums();
  let read = 0;
  for (const csv of csvs) {
    const named = plausibleFileName(csv.name);
    const file: ImportFile = { ...ignoredFile(csv.name), table: named?.table ?? null };
    report.files.push(file);
    if (named) {
      if (report.days === null) report.days = { from: named.from, to: named.to };
      else report.days = { from: named.from < report.days.from ? named.from : report.days.from, to: named.to > report.days.to ? named.to : report.days.to };
    }
    let positions: Map<string, number> | null = null;
    let table: PlausibleTable | null = null;
    const skip = (line: number, reason: string) => {
      file.skippedRows++;
      report.skippedRows++;
      if (report.skippedLines.length < REPORTED_LINES) report.skippedLines.push({ file: csv.name, line, reason });
    };
    for await (const record of csvRecords(await csv.open())) {
      if (positions === null) {
        const found = tableOfRecord(csv.name, record, alone);
        if (found === null) break;
        ({ table, positions } = found);
        file.table = table;
        file.missingColumns = found.missing;
        continue;
      }
      if ('tooLong' in record) {
        skip(record.line, 'the line is too long');
        continue;
      }
      try {
        const { rows, scroll } = rowsOfLine(table!, positions, record.fields, named && { from: named.from, to: named.to }, cityNames);
        sums.add(rows, scroll);
        for (const row of rows) {
          if (!ownDimensions || row.dimension === null || table === SVC_DIMENSIONS_TABLE) stage(row);
        }
        // Staged whichever table gives the keys: the pages of svc's own export give the scroll depth its svc_dimensions lacks.
        if (scroll) stageScroll(scroll);
        file.rows++;
        report.rows++;
      } catch (err) {
        if (!(err instanceof BadLine)) throw err;
        skip(record.line, err.message);
      }
      if (staged.length + stagedScroll.length >= STAGED_PER_WRITE) await flush();
      if (++read % 10_000 === 0) progress((0.9 * doneWeight) / totalWeight);
    }
    await flush();
    doneWeight += csv.weight;
    progress((0.9 * doneWeight) / totalWeight);
  }
  if (!report.files.some((f) => f.table !== null)) throw new ImportRefused('the file holds none of the tables of Plausible\'s export');
  report.days ??= first !== null && last !== null ? { from: first, to: last } : null;
  if (report.days === null) return report;
  report.skippedDays = await writeStagedImport(events, target, report.days);
  progress(1);
  return report;
}

/**
 * The largest sum of one measure over a whole file: any sum of its rows (a day, a key, a month, with
 * another import's rows of the month beside them) then fits a BIGINT on every engine, and reads back
 * exactly as a JavaScript number. A line that would take a sum past it is refused with the reason.
 */
export const MAX_FILE_SUM = Number.MAX_SAFE_INTEGER;

/** The running sums of a file's measures per dimension (scroll depth's included), kept within MAX_FILE_SUM. */
class FileSums {
  private readonly sums = new Map<string, number>();

  /** Adds a line's rows, or throws BadLine (adding nothing) when a sum would pass MAX_FILE_SUM. */
  add(rows: readonly ImportedRow[], scroll: ImportedScroll | null): void {
    // Per dimension, as the engine sums them (a day's site row and its `pageview` event row apart).
    const values: Array<[string, number | null]> = rows.flatMap((row) => Object.entries(row.counts).map(([measure, value]): [string, number | null] => [`${row.dimension ?? 'site'} ${measure}`, value]));
    if (scroll) values.push(['page scroll_depth', scroll.depthSum], ['page pageleave_visitors', scroll.depthVisitors]);
    const line = new Map<string, number>();
    for (const [measure, value] of values) line.set(measure, (line.get(measure) ?? 0) + (value ?? 0));
    for (const [measure, value] of line) {
      if ((this.sums.get(measure) ?? 0) + value > MAX_FILE_SUM) throw new BadLine(`${measure.split(' ')[1]} takes the file's sum past ${MAX_FILE_SUM}, the largest svc keeps`);
    }
    for (const [measure, value] of line) this.sums.set(measure, (this.sums.get(measure) ?? 0) + value);
  }
}

/** A row of imported aggregates as the staging table holds it. */
export function stagingRow(target: ImportTarget, row: ImportedRow): TableRow {
  const c = row.counts;
  return [target.siteId, row.day, target.importId, row.dimension ?? '', row.key, c.visitors, c.pageviews, c.events, c.sessions, c.bounces, c.durationMs];
}

/**
 * Writes an import's staged rows of `days` (writeImport), with the memory the store gives imports;
 * the staging before it does not (its appends run on the event loop, where a pool under pressure spills).
 */
export function writeStagedImport(events: EventStore, target: ImportTarget, days: Period): Promise<string[]> {
  return events.whileImporting(() => writeImport(events, target, days));
}

/**
 * The keys of the cities the export's locations name (GeoNames ids) that svc's table of cities
 * holds: their names as svc's geolocation spells them (./geonames.ts). One pass over the locations
 * file before any row is staged, then one over the table, keeping only these ids.
 */
async function cityNamesOf(csvs: readonly CsvSource[], alone: boolean): Promise<CityNames> {
  const ids = new Set<number>();
  for (const csv of csvs) {
    const named = plausibleFileName(csv.name);
    if (named !== null && named.table !== 'locations') continue;
    let city: number | null = null;
    for await (const record of csvRecords(await csv.open())) {
      if (city === null) {
        const found = tableOfRecord(csv.name, record, alone);
        if (found?.table !== 'locations') break;
        city = found.positions.get('city')!;
        continue;
      }
      if ('tooLong' in record) continue;
      const id = geonamesId(restoredText(record.fields[city] ?? ''));
      if (id === null) continue;
      if (ids.size >= MAX_CITY_IDS && !ids.has(id)) break;
      ids.add(id);
    }
  }
  const names = await geonamesCityNames(ids);
  return new Map(Array.from(names, ([id, name]) => [id, asCollectedCityName(name)]));
}

const COLUMNS = measureColumns(TRAFFIC_MEASURES);

/**
 * Writes the staged rows into the imported aggregates, for the export's days but those the site
 * holds events or rollups on (returned, ascending). The rows of those days, whichever import wrote
 * them, are replaced in the four tables together (`replaceTogether`): a failure leaves the earlier
 * figures, or, on ClickHouse, some months rewritten, which `WriteInterrupted` tells the job to mend by
 * writing again.
 */
async function writeImport(events: EventStore, target: ImportTarget, days: Period): Promise<string[]> {
  const d = events.dialect;
  const summed = sumsOf(d, COLUMNS, 'o_');
  const { siteId, importId } = target;
  const native = sql`SELECT day FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}
    UNION ALL SELECT day FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}`;
  const staged = (dimension: 'site' | 'keys') =>
    sql`FROM ${trusted(IMPORT_STAGING.name)} WHERE site_id = ${siteId} AND import_id = ${importId} AND ${dayRange(d, 'day', days)}
      AND dimension ${trusted(dimension === 'site' ? '=' : '<>')} '' AND day NOT IN (${native})`;
  const skipped = await events.query<{ d: string }>(
    sql`SELECT DISTINCT ${trusted(d.dayText('day'))} AS d FROM ${trusted(IMPORT_STAGING.name)} WHERE site_id = ${siteId} AND import_id = ${importId}
      AND ${dayRange(d, 'day', days)} AND day IN (${native}) ORDER BY d`,
  );
  const scope = { siteId, days };
  const site: Sql = sql`SELECT site_id AS o_site, day AS o_day, import_id AS o_import, ${summed} ${staged('site')} GROUP BY site_id, day, import_id`;
  const keys: Sql = sql`SELECT site_id AS o_site, day AS o_day, import_id AS o_import, dimension AS o_dimension, key AS o_key, ${summed} ${staged('keys')}
    GROUP BY site_id, day, import_id, dimension, key`;
  const scroll: Sql = sql`SELECT site_id AS o_site, day AS o_day, import_id AS o_import, page AS o_page, ${sumsOf(d, SCROLL_SUMS, 'o_')}
    FROM ${trusted(IMPORT_SCROLL_STAGING.name)} WHERE site_id = ${siteId} AND import_id = ${importId} AND ${dayRange(d, 'day', days)} AND day NOT IN (${native})
    GROUP BY site_id, day, import_id, page`;
  // The months' sums from the new key rows and the daily rows the replacement leaves (outside its days).
  const months = { from: firstOfMonth(days.from), to: firstOfMonth(days.to) };
  const monthDays = { from: months.from, to: addDays(addMonths(months.to, 1), -1) };
  const kept = sql`SELECT site_id, day, import_id, dimension, key, ${trusted(COLUMNS.join(', '))} FROM ${trusted(IMPORTED_DIM_DAILY.name)}
    WHERE site_id = ${siteId} AND ${dayRange(d, 'day', monthDays)} AND NOT (${dayRange(d, 'day', days)})`;
  const outputs = [['o_site', 'site_id'], ['o_day', 'day'], ['o_import', 'import_id'], ['o_dimension', 'dimension'], ['o_key', 'key'], ...COLUMNS.map((c) => [`o_${c}`, c])];
  const renamed = trusted(outputs.map(([from, to]) => `${from} AS ${to}`).join(', '));
  const monthly: Sql = sql`SELECT site_id AS o_site, ${trusted(d.monthStart('day'))} AS o_month, import_id AS o_import, dimension AS o_dimension, key AS o_key, ${summed}
    FROM (${kept} UNION ALL SELECT ${renamed} FROM (${keys}) k) GROUP BY site_id, o_month, import_id, dimension, key`;
  try {
    await events.replaceTogether([
      { table: IMPORTED_DAILY, scope, rows: site },
      { table: IMPORTED_DIM_DAILY, scope, rows: keys },
      { table: IMPORTED_DIM_MONTHLY, scope: { siteId, days: months }, rows: monthly },
      { table: IMPORTED_SCROLL_DAILY, scope, rows: scroll },
    ]);
  } catch (err) {
    // The rows themselves do not fit (DuckDB checks every sum): writing again would fail again.
    if (NUMBERS_PAST_RANGE.test(String(err))) throw new ImportRefused(`the import's figures do not fit svc's numbers: ${String(err)}`);
    throw new WriteInterrupted(err);
  } finally {
    forgetImportedDays(siteId);
  }
  await clearStaging(events, target);
  return skipped.map((r) => r.d);
}

/**
 * An engine's error for a number past its range (DuckDB's `Out of Range Error: Overflow in addition of
 * INT64`; ClickHouse's codes 69 ARGUMENT_OUT_OF_BOUND, 321 VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, 407 DECIMAL_OVERFLOW).
 */
const NUMBERS_PAST_RANGE = /Out of Range Error|Overflow in|ClickHouse error (?:69|321|407):/;

/**
 * The write of an import's rows failed: DuckDB left the site's figures as they were, ClickHouse may
 * have rewritten some months. The job is taken again from its file, which writes the same rows.
 */
export class WriteInterrupted extends Error {
  constructor(cause: unknown) {
    super(`writing the import's figures failed: ${String(cause)}`, { cause });
  }
}

/** A day after any an import holds, inside every engine's DATE range (ClickHouse's Date reads 2149-06-06 as 1970). */
const LAST_DAY = '2105-12-31';

/** Everything of one import in the table, whatever its days. */
function allOf(target: ImportTarget) {
  return { siteId: target.siteId, days: { from: null, to: LAST_DAY }, where: { import_id: target.importId } };
}

async function clearStaging(events: EventStore, target: ImportTarget): Promise<void> {
  for (const table of IMPORT_STAGING_TABLES) await events.replaceRows(table, allOf(target), null);
}

/** Removes an import's rows: staged, and written (its days read as they would without it). */
export async function removeImport(events: EventStore, target: ImportTarget): Promise<void> {
  await clearStaging(events, target);
  try {
    for (const table of IMPORTED_TABLES) await events.replaceRows(table, allOf(target), null);
  } finally {
    forgetImportedDays(target.siteId);
  }
}
