// Plausible's CSV export (docs/imports.md): which table a file holds, its columns, and how each of
// its lines becomes rows of imported aggregates (the site's own figures, or a dimension's key).
import { restoredText } from '../core/csv-field.js';
import { isDimension, NONE_KEY, type Dimension } from '../core/vocabulary.js';
import { pageHostname } from '../ingest/url-values.js';
import { BROWSER_NAMES, cityKey, DEVICE_NAMES, mappedName, OS_NAMES, plainKey, referrerKey, type CityNames } from './names.js';

/**
 * svc's own table of an export (./export.ts): every dimension's figures per day and key, which the
 * joint rows of Plausible's `sources` and `locations` cannot give back; when an upload holds it, its
 * rows stand for the dimensions and Plausible's tables give the site's figures only.
 */
export const SVC_DIMENSIONS_TABLE = 'svc_dimensions';

export const PLAUSIBLE_TABLES = [
  'visitors',
  'sources',
  'pages',
  'entry_pages',
  'exit_pages',
  'locations',
  'devices',
  'browsers',
  'operating_systems',
  'custom_events',
  SVC_DIMENSIONS_TABLE,
] as const;
export type PlausibleTable = (typeof PLAUSIBLE_TABLES)[number];

/** A day's measures of one key, in the units of the rollups (durations in milliseconds). */
export interface Counts {
  visitors: number;
  pageviews: number;
  events: number;
  sessions: number;
  bounces: number;
  durationMs: number;
}

/** One row of imported aggregates: the site's own figures (dimension null) or one key's. */
export interface ImportedRow {
  day: string;
  dimension: Dimension | null;
  key: string;
  counts: Counts;
}

/** A column's text and a column's count (a whole number ≥ 0; `decimal`: a number ≥ 0), read by name. */
interface Line {
  text(column: string): string;
  /** Whether the header has the column (for the columns a table may lack). */
  has(column: string): boolean;
  count(column: string, decimal?: boolean): number;
  /** The keys of the export's cities (GeoNames ids) that have a name. */
  cityNames: CityNames;
}

interface TableFormat {
  /** The columns read, by header name (Plausible's order, which is not relied on). */
  columns: readonly string[];
  rows(line: Line): Array<[Dimension | null, string, Counts]>;
}

const seconds = (line: Line) => Math.round(line.count('visit_duration', true) * 1000);

/** The measures of a table that has Plausible's session columns. */
function sessionCounts(line: Line, sessions: string): Counts {
  const pageviews = line.count('pageviews');
  return { visitors: line.count('visitors'), pageviews, events: pageviews, sessions: line.count(sessions), bounces: line.count('bounces'), durationMs: seconds(line) };
}

const SESSION_COLUMNS = ['visitors', 'visits', 'visit_duration', 'bounces', 'pageviews'];

/**
 * The rows of a day's site figures: the site's own, and its pageviews as events named `pageview`,
 * which the event breakdown shows as collected data does.
 */
export function siteRows(counts: Counts): Array<[Dimension | null, string, Counts]> {
  return [
    [null, '', counts],
    ['event', 'pageview', { ...counts, sessions: 0, bounces: 0, durationMs: 0 }],
  ];
}

export const PLAUSIBLE_FORMATS: Readonly<Record<PlausibleTable, TableFormat>> = {
  visitors: {
    columns: ['date', 'visitors', 'pageviews', 'bounces', 'visits', 'visit_duration'],
    rows: (line) => siteRows(sessionCounts(line, 'visits')),
  },
  sources: {
    columns: ['date', 'source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'pageviews', 'visitors', 'visits', 'visit_duration', 'bounces'],
    rows: (line) => {
      const counts = sessionCounts(line, 'visits');
      return [
        ['referrer', referrerKey(line.text('source'), line.text('referrer')), counts],
        ['utm_source', plainKey(line.text('utm_source')), counts],
        ['utm_medium', plainKey(line.text('utm_medium')), counts],
        ['utm_campaign', plainKey(line.text('utm_campaign')), counts],
      ];
    },
  },
  pages: {
    columns: ['date', 'page', 'visits', 'visitors', 'pageviews'],
    rows: (line) => {
      const pageviews = line.count('pageviews');
      const counts = { visitors: line.count('visitors'), pageviews, events: pageviews, sessions: line.count('visits'), bounces: 0, durationMs: 0 };
      // A host's figures are its pages' added up (the export has no others): its visitors and visits
      // count a visitor once per page of the host they saw (docs/imports.md).
      const rows: Array<[Dimension, string, Counts]> = [['page', plainKey(line.text('page')), counts]];
      if (line.has('hostname')) rows.push(['hostname', pageHostname(line.text('hostname').trim()) ?? NONE_KEY, counts]);
      return rows;
    },
  },
  entry_pages: {
    columns: ['date', 'entry_page', 'visitors', 'entrances', 'visit_duration', 'bounces', 'pageviews'],
    rows: (line) => [['entry', plainKey(line.text('entry_page')), sessionCounts(line, 'entrances')]],
  },
  exit_pages: {
    columns: ['date', 'exit_page', 'visitors', 'visit_duration', 'exits', 'bounces', 'pageviews'],
    rows: (line) => [['exit', plainKey(line.text('exit_page')), sessionCounts(line, 'exits')]],
  },
  locations: {
    columns: ['date', 'country', 'region', 'city', ...SESSION_COLUMNS],
    rows: (line) => {
      const counts = sessionCounts(line, 'visits');
      const country = line.text('country').trim().toUpperCase();
      return [
        ['country', /^[A-Z]{2}$/.test(country) && country !== 'ZZ' ? country : NONE_KEY, counts],
        ['region', plainKey(line.text('region')), counts],
        ['city', cityKey(line.text('city'), line.cityNames), counts],
      ];
    },
  },
  devices: { columns: ['date', 'device', ...SESSION_COLUMNS], rows: (line) => [['device', mappedName(DEVICE_NAMES, line.text('device')), sessionCounts(line, 'visits')]] },
  browsers: { columns: ['date', 'browser', ...SESSION_COLUMNS], rows: (line) => [['browser', mappedName(BROWSER_NAMES, line.text('browser')), sessionCounts(line, 'visits')]] },
  operating_systems: {
    columns: ['date', 'operating_system', ...SESSION_COLUMNS],
    rows: (line) => [['os', mappedName(OS_NAMES, line.text('operating_system')), sessionCounts(line, 'visits')]],
  },
  svc_dimensions: {
    columns: ['date', 'dimension', 'key', 'visitors', 'pageviews', 'events', 'visits', 'bounces', 'visit_duration'],
    rows: (line) => {
      const dimension = line.text('dimension');
      if (!isDimension(dimension)) throw new BadLine(`dimension ${JSON.stringify(dimension.slice(0, 40))} is not one of svc's`);
      const counts = { visitors: line.count('visitors'), pageviews: line.count('pageviews'), events: line.count('events'), sessions: line.count('visits'), bounces: line.count('bounces'), durationMs: seconds(line) };
      return [[dimension, line.text('key'), counts]];
    },
  },
  custom_events: {
    columns: ['date', 'name', 'visitors', 'events'],
    rows: (line) => [['event', line.text('name'), { visitors: line.count('visitors'), pageviews: 0, events: line.count('events'), sessions: 0, bounces: 0, durationMs: 0 }]],
  },
};

const FILE_NAME = new RegExp(`^(?:imported_)?(${PLAUSIBLE_TABLES.join('|')})_(\\d{8})_(\\d{8})\\.csv$`);

/** The table and days a file's name gives (`imported_<table>_<YYYYMMDD>_<YYYYMMDD>.csv`, folders ignored); null for another name. */
export function plausibleFileName(path: string): { table: PlausibleTable; from: string; to: string } | null {
  const m = FILE_NAME.exec(path.slice(path.lastIndexOf('/') + 1));
  if (!m) return null;
  const day = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  const from = day(m[2]!);
  const to = day(m[3]!);
  if (!isDay(from) || !isDay(to) || from > to) return null;
  return { table: m[1] as PlausibleTable, from, to };
}

/** The table whose columns a header holds (every column of exactly one table; the most specific wins). */
export function tableOfHeader(header: readonly string[]): PlausibleTable | null {
  const names = new Set(header.map((h) => h.trim()));
  const fits = PLAUSIBLE_TABLES.filter((t) => PLAUSIBLE_FORMATS[t].columns.every((c) => names.has(c)));
  fits.sort((a, b) => PLAUSIBLE_FORMATS[b].columns.length - PLAUSIBLE_FORMATS[a].columns.length);
  return fits[0] ?? null;
}

/** The columns of a table missing from a header, in the table's order. */
export function missingColumns(table: PlausibleTable, header: readonly string[]): string[] {
  const names = new Set(header.map((h) => h.trim()));
  return PLAUSIBLE_FORMATS[table].columns.filter((c) => !names.has(c));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The days an import may hold: inside every engine's DATE range, and after any web analytics began. */
export const IMPORT_DAYS = { from: '2000-01-01', to: '2100-12-31' } as const;

export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m || text < IMPORT_DAYS.from || text > IMPORT_DAYS.to) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

/** A line refused, with the reason the report gives. */
export class BadLine extends Error {}

const WHOLE = /^\d{1,15}$/;
const DECIMAL = /^\d{1,15}(?:\.\d{1,9})?$/;

const NO_CITY_NAMES: CityNames = new Map();

/**
 * The rows of one line of a table's file, given the header's column positions, the days the file
 * covers (null: not known, any day) and the names of the export's cities. Throws BadLine with the reason.
 */
export function rowsOfLine(
  table: PlausibleTable,
  positions: ReadonlyMap<string, number>,
  fields: readonly string[],
  days: { from: string; to: string } | null,
  cityNames: CityNames = NO_CITY_NAMES,
): ImportedRow[] {
  if (fields.length !== positions.size) throw new BadLine(`${fields.length} fields where the header has ${positions.size}`);
  // A field svc's export neutralised for spreadsheets reads as the text it was (other exports have no such marks).
  const text = (column: string) => restoredText(fields[positions.get(column)!]!);
  const line: Line = {
    text,
    has: (column) => positions.has(column),
    cityNames,
    count(column, decimal = false) {
      const value = text(column).trim();
      if (value.startsWith('-')) throw new BadLine(`negative ${column} (${value})`);
      if (!(decimal ? DECIMAL : WHOLE).test(value)) throw new BadLine(`${column} is not a count (${JSON.stringify(value.slice(0, 40))})`);
      return Number(value);
    },
  };
  const day = text('date').trim();
  if (!isDay(day)) throw new BadLine(`date is not a day (${JSON.stringify(day.slice(0, 40))})`);
  if (days && (day < days.from || day > days.to)) throw new BadLine(`date ${day} is outside the file's days ${days.from} to ${days.to}`);
  return PLAUSIBLE_FORMATS[table].rows(line).map(([dimension, key, counts]) => ({ day, dimension, key, counts }));
}
