// Plausible's CSV export (docs/imports.md): which table a file holds, its columns, and how each of
// its lines becomes rows of imported aggregates (the site's own figures, or a dimension's key).
import { restoredText } from '../core/csv-field.js';
import { isDimension, NONE_KEY, type Dimension } from '../core/vocabulary.js';
import type { Measures } from '../stats/measures.js';
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

/**
 * A day's measures of one key, in the units of the rollups (durations in milliseconds): null where
 * the export's table has no column for it (unknown, never 0: docs/imports.md, "Older exports").
 */
export type Counts = Measures;

/** One row of imported aggregates: the site's own figures (dimension null) or one key's. */
export interface ImportedRow {
  day: string;
  dimension: Dimension | null;
  key: string;
  counts: Counts;
}

/**
 * A page's scroll depth sums of a day, as SCROLL_DAILY holds collected ones: the deepest scroll (a
 * percent) of each of its visitors, summed, and how many visitors that is.
 */
export interface ImportedScroll {
  day: string;
  page: string;
  depthSum: number;
  depthVisitors: number;
}

/** What one line gives: rows of imported aggregates, and a page's scroll depth sums where its table has them. */
export interface LineRows {
  rows: ImportedRow[];
  scroll: ImportedScroll | null;
}

/** A line's columns read by name. */
interface Line {
  /** A column's text; '' for a column the header lacks (one of the table's `optional`). */
  text(column: string): string;
  /** Whether the header has the column. */
  has(column: string): boolean;
  /** A column's count: a whole number ≥ 0 (`decimal`: a number ≥ 0). */
  count(column: string, decimal?: boolean): number;
  /** A count that may be unknown: null for one of the table's `optional` columns that the header lacks or the line leaves empty; else as `count`. */
  known(column: string, decimal?: boolean): number | null;
  /** The keys of the export's cities (GeoNames ids) that have a name. */
  cityNames: CityNames;
}

interface TableFormat {
  /** The columns every version of the table has, read by header name (Plausible's order is not relied on). */
  required: readonly string[];
  /**
   * The columns read that some versions lack (Plausible added them over time): a measure one gives
   * is unknown without it, a key it gives is not written (docs/imports.md, "Older exports").
   */
  optional: readonly string[];
  /** Optional columns under the name later versions give them (read where the header has it instead). */
  renamed?: Readonly<Record<string, string>>;
  rows(line: Line): Array<[Dimension | null, string, Counts]>;
  /** A page's scroll depth sums: its key and sums, null where the line has none. */
  scroll?(line: Line): Omit<ImportedScroll, 'day'> | null;
}

/** Milliseconds from seconds, a null (unknown) kept. */
const ms = (seconds: number | null) => (seconds === null ? null : Math.round(seconds * 1000));

/** The measures of a table that has Plausible's session columns (`sessions`: the column counting them). */
function sessionCounts(line: Line, sessions: string): Counts {
  const pageviews = line.known('pageviews');
  return {
    visitors: line.count('visitors'),
    pageviews,
    events: pageviews,
    sessions: line.count(sessions),
    bounces: line.known('bounces'),
    durationMs: ms(line.known('visit_duration', true)),
  };
}

/** The session columns of every version of the locations, devices, browsers and systems tables (pageviews came later). */
const SESSION_COLUMNS = ['visitors', 'visits', 'visit_duration', 'bounces'];
const PAGEVIEWS = ['pageviews'];

/** A table of one key column with Plausible's session columns. */
function keyTable(column: string, dimension: Dimension, key: (name: string) => string): TableFormat {
  return { required: ['date', column, ...SESSION_COLUMNS], optional: PAGEVIEWS, rows: (line) => [[dimension, key(line.text(column)), sessionCounts(line, 'visits')]] };
}

/**
 * The rows of a day's site figures: the site's own, and its pageviews as events named `pageview`,
 * which the event breakdown shows as collected data does.
 */
export function siteRows(counts: Counts): Array<[Dimension | null, string, Counts]> {
  return [
    [null, '', counts],
    ['event', 'pageview', { ...counts, sessions: null, bounces: null, durationMs: null }],
  ];
}

export const PLAUSIBLE_FORMATS: Readonly<Record<PlausibleTable, TableFormat>> = {
  visitors: {
    required: ['date', 'visitors', 'pageviews', 'bounces', 'visits', 'visit_duration'],
    optional: [],
    rows: (line) => {
      const pageviews = line.count('pageviews');
      return siteRows({ visitors: line.count('visitors'), pageviews, events: pageviews, sessions: line.count('visits'), bounces: line.count('bounces'), durationMs: ms(line.count('visit_duration', true)) });
    },
  },
  sources: {
    required: ['date', 'source', 'utm_medium', 'utm_campaign', ...SESSION_COLUMNS],
    optional: ['referrer', 'utm_source', ...PAGEVIEWS],
    rows: (line) => {
      const counts = sessionCounts(line, 'visits');
      const rows: Array<[Dimension, string, Counts]> = [
        ['referrer', referrerKey(line.text('source'), line.text('referrer')), counts],
        ['utm_medium', plainKey(line.text('utm_medium')), counts],
        ['utm_campaign', plainKey(line.text('utm_campaign')), counts],
      ];
      // Older exports fold utm_source into `source`: their visits' utm_source is not known.
      if (line.has('utm_source')) rows.push(['utm_source', plainKey(line.text('utm_source')), counts]);
      return rows;
    },
  },
  pages: {
    required: ['date', 'page', 'visitors', 'pageviews'],
    optional: ['hostname', 'visits', 'scroll_depth', 'pageleave_visitors'],
    // Plausible's scroll depth was first its visitors' deepest scrolls summed, over `pageleave_visitors`;
    // later its visits', over `total_scroll_depth_visits` (docs/imports.md).
    renamed: { scroll_depth: 'total_scroll_depth', pageleave_visitors: 'total_scroll_depth_visits' },
    scroll: (line) => {
      const depthSum = line.known('scroll_depth');
      const depthVisitors = line.known('pageleave_visitors');
      if (depthSum === null || depthVisitors === null) return null;
      // Each visitor's deepest scroll is a percent: more than 100 each is no scroll depth.
      if (depthSum > 100 * depthVisitors) throw new BadLine(`scroll depth ${depthSum} is more than 100 for each of its ${depthVisitors} visitors`);
      return depthVisitors === 0 ? null : { page: plainKey(line.text('page')), depthSum, depthVisitors };
    },
    rows: (line) => {
      const pageviews = line.count('pageviews');
      // The table has no bounces or durations in any version.
      const counts = { visitors: line.count('visitors'), pageviews, events: pageviews, sessions: line.known('visits'), bounces: null, durationMs: null };
      // A host's figures are its pages' added up (the export has no others): its visitors and visits
      // count a visitor once per page of the host they saw (docs/imports.md).
      const rows: Array<[Dimension, string, Counts]> = [['page', plainKey(line.text('page')), counts]];
      if (line.has('hostname')) rows.push(['hostname', pageHostname(line.text('hostname').trim()) ?? NONE_KEY, counts]);
      return rows;
    },
  },
  entry_pages: {
    required: ['date', 'entry_page', 'visitors', 'entrances', 'visit_duration', 'bounces'],
    optional: PAGEVIEWS,
    rows: (line) => [['entry', plainKey(line.text('entry_page')), sessionCounts(line, 'entrances')]],
  },
  exit_pages: {
    required: ['date', 'exit_page', 'visitors', 'exits'],
    optional: ['visit_duration', 'bounces', ...PAGEVIEWS],
    rows: (line) => [['exit', plainKey(line.text('exit_page')), sessionCounts(line, 'exits')]],
  },
  locations: {
    required: ['date', 'country', 'region', 'city', ...SESSION_COLUMNS],
    optional: PAGEVIEWS,
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
  devices: keyTable('device', 'device', (name) => mappedName(DEVICE_NAMES, name)),
  browsers: keyTable('browser', 'browser', (name) => mappedName(BROWSER_NAMES, name)),
  operating_systems: keyTable('operating_system', 'os', (name) => mappedName(OS_NAMES, name)),
  svc_dimensions: {
    // svc's export writes a measure it does not know (one imported from an older export) as an empty field.
    required: ['date', 'dimension', 'key', 'visitors'],
    optional: ['pageviews', 'events', 'visits', 'bounces', 'visit_duration'],
    rows: (line) => {
      const dimension = line.text('dimension');
      if (!isDimension(dimension)) throw new BadLine(`dimension ${JSON.stringify(dimension.slice(0, 40))} is not one of svc's`);
      const counts = {
        visitors: line.count('visitors'),
        pageviews: line.known('pageviews'),
        events: line.known('events'),
        sessions: line.known('visits'),
        bounces: line.known('bounces'),
        durationMs: ms(line.known('visit_duration', true)),
      };
      return [[dimension, line.text('key'), counts]];
    },
  },
  custom_events: {
    required: ['date', 'name', 'visitors', 'events'],
    optional: [],
    // A custom event is no pageview; the table has no visits, bounces or durations.
    rows: (line) => [['event', line.text('name'), { visitors: line.count('visitors'), pageviews: 0, events: line.count('events'), sessions: null, bounces: null, durationMs: null }]],
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

/**
 * The table a header is, whichever version of the export wrote it: of the tables whose every
 * required column it has, the one with the most of its columns read (a `sources` header holds the
 * `visitors` table's columns too); null for none, or a tie.
 */
export function tableOfHeader(header: readonly string[]): PlausibleTable | null {
  const names = new Set(header.map((h) => h.trim()));
  const read = (t: PlausibleTable) => [...PLAUSIBLE_FORMATS[t].required, ...PLAUSIBLE_FORMATS[t].optional].filter((c) => headerHas(t, names, c)).length;
  const fits = PLAUSIBLE_TABLES.filter((t) => PLAUSIBLE_FORMATS[t].required.every((c) => names.has(c))).sort((a, b) => read(b) - read(a));
  return fits.length > 0 && (fits.length === 1 || read(fits[0]!) > read(fits[1]!)) ? fits[0]! : null;
}

/**
 * The columns of a table a header lacks, in the table's order: `required` ones (the file is no
 * export of the table), and `optional` ones (an older export: unknown measures, keys not written).
 */
export function missingColumns(table: PlausibleTable, header: readonly string[]): { required: string[]; optional: string[] } {
  const names = new Set(header.map((h) => h.trim()));
  const { required, optional } = PLAUSIBLE_FORMATS[table];
  return { required: required.filter((c) => !names.has(c)), optional: optional.filter((c) => !headerHas(table, names, c)) };
}

/** The name a table's column has in a header: its own, else the one later versions renamed it to; undefined when it has neither. */
function nameInHeader(table: PlausibleTable, has: (name: string) => boolean, column: string): string | undefined {
  if (has(column)) return column;
  const later = PLAUSIBLE_FORMATS[table].renamed?.[column];
  return later !== undefined && has(later) ? later : undefined;
}

const headerHas = (table: PlausibleTable, names: ReadonlySet<string>, column: string) => nameInHeader(table, (n) => names.has(n), column) !== undefined;

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
 * The rows of one line of a table's file (and a page's scroll depth sums), given the header's column
 * positions, the days the file covers (null: not known, any day) and the names of the export's
 * cities. Throws BadLine with the reason.
 */
export function rowsOfLine(
  table: PlausibleTable,
  positions: ReadonlyMap<string, number>,
  fields: readonly string[],
  days: { from: string; to: string } | null,
  cityNames: CityNames = NO_CITY_NAMES,
): LineRows {
  if (fields.length !== positions.size) throw new BadLine(`${fields.length} fields where the header has ${positions.size}`);
  const headerName = (column: string) => nameInHeader(table, (n) => positions.has(n), column);
  // A field svc's export neutralised for spreadsheets reads as the text it was (other exports have no such marks).
  const text = (column: string) => {
    const name = headerName(column);
    return name === undefined ? '' : restoredText(fields[positions.get(name)!]!);
  };
  const count = (column: string, decimal = false) => {
    const value = text(column).trim();
    if (value.startsWith('-')) throw new BadLine(`negative ${column} (${value})`);
    if (!(decimal ? DECIMAL : WHOLE).test(value)) throw new BadLine(`${column} is not a count (${JSON.stringify(value.slice(0, 40))})`);
    return Number(value);
  };
  const optional = PLAUSIBLE_FORMATS[table].optional;
  const line: Line = {
    text,
    has: (column) => headerName(column) !== undefined,
    cityNames,
    count,
    known: (column, decimal) => (optional.includes(column) && text(column).trim() === '' ? null : count(column, decimal)),
  };
  const day = text('date').trim();
  if (!isDay(day)) throw new BadLine(`date is not a day (${JSON.stringify(day.slice(0, 40))})`);
  if (days && (day < days.from || day > days.to)) throw new BadLine(`date ${day} is outside the file's days ${days.from} to ${days.to}`);
  const format = PLAUSIBLE_FORMATS[table];
  const scroll = format.scroll?.(line) ?? null;
  return { rows: format.rows(line).map(([dimension, key, counts]) => ({ day, dimension, key, counts })), scroll: scroll && { day, ...scroll } };
}
