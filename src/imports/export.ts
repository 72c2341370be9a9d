// Export in Plausible's format (docs/imports.md, "Export"): a ZIP of one CSV per table of
// Plausible's export, computed from the site's rollups (their rolled-up days) and its imported
// aggregates, written as it is read (a month of one table in memory at a time).
//
// Plausible's `sources` and `locations` tables hold joint rows (a referrer with its UTM values, a
// country with its region and city), which svc does not keep: they carry each key's own figures
// (referrers alone, countries alone). The figures of every dimension are also written, per key, to
// `svc_dimensions_<from>_<to>.csv`, which svc's import reads instead of the tables when it is
// present: an export imported into svc answers as the site did. The site's annotations go to a file
// of their own (./annotations.ts), which svc's import reads back too. Text fields are neutralised for
// spreadsheets (../core/csv-field.ts), and svc's import takes the mark off again.
import { csvField } from '../core/csv-field.js';
import type { Period } from '../core/period.js';
import { addMonths, firstOfMonth } from '../core/period.js';
import { addDays } from '../core/localtime.js';
import { DIMENSIONS, NONE_KEY, type Dimension } from '../core/vocabulary.js';
import { exportDaysStatement, exportDimensionStatement, exportPageStatement, exportSiteStatement } from '../stats/sql/export.js';
import { trafficOf, type Measures } from '../stats/measures.js';
import type { EventReader } from '../storage/events/types.js';
import { PLAUSIBLE_BROWSER_NAMES, PLAUSIBLE_DEVICE_NAMES, PLAUSIBLE_OS_NAMES, plausibleName } from './names.js';
import { SVC_DIMENSIONS_TABLE } from './plausible.js';
import { zipStream, type ZipSource } from './zip.js';
import { annotationsCsv, ANNOTATIONS_FILE } from './annotations.js';
import type { Annotation } from '../core/answers.js';

/** A CSV field: text neutralised for spreadsheets, an unknown measure (null) empty (svc's import reads both back). */
type Field = string | number | null;

/** One CSV line of fields. */
const line = (values: readonly Field[]) => values.map((v) => (v === null ? '' : csvField(v))).join(',') + '\n';

/** Seconds from milliseconds: whole when they are, else to the millisecond (svc's import keeps them exact); null kept. */
const seconds = (ms: number | null) => (ms === null ? null : ms % 1000 === 0 ? String(ms / 1000) : (ms / 1000).toFixed(3));

/** An absent key as Plausible writes it. */
const plain = (key: string) => (key === NONE_KEY ? '' : key);

/** A page's scroll depth sums of a day, as Plausible's pages table gives them (`scroll_depth`, `pageleave_visitors`). */
interface ScrollSums {
  depthSum: number;
  depthVisitors: number;
}

/** A row's fields from its day, key and measures (and, for pages, the page's scroll depth sums, null where the day has none). */
type RowFields = (day: string, key: string, m: Measures, scroll: ScrollSums | null) => readonly Field[] | null;

interface DimensionTable {
  table: string;
  dimension: Dimension;
  header: string;
  /** Whether its rows carry the page's scroll depth sums (Plausible's pages table). */
  scroll?: true;
  row: RowFields;
}

function tables(domain: string): DimensionTable[] {
  const device = (key: string) => plausibleName(PLAUSIBLE_DEVICE_NAMES, key);
  const browser = (key: string) => plausibleName(PLAUSIBLE_BROWSER_NAMES, key);
  const os = (key: string) => plausibleName(PLAUSIBLE_OS_NAMES, key);
  const session = (m: Measures) => [m.visitors, m.sessions, seconds(m.durationMs), m.bounces, m.pageviews];
  return [
    {
      table: 'sources',
      dimension: 'referrer',
      header: 'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces',
      row: (day, key, m) => [day, key === NONE_KEY ? 'Direct / None' : key, '', '', '', '', '', '', m.pageviews, m.visitors, m.sessions, seconds(m.durationMs), m.bounces],
    },
    {
      table: 'pages',
      dimension: 'page',
      header: 'date,hostname,page,visits,visitors,pageviews,scroll_depth,pageleave_visitors',
      scroll: true,
      row: (day, key, m, scroll) => [day, domain, key, m.sessions, m.visitors, m.pageviews, scroll?.depthSum ?? null, scroll?.depthVisitors ?? null],
    },
    {
      table: 'entry_pages',
      dimension: 'entry',
      header: 'date,entry_page,visitors,entrances,visit_duration,bounces,pageviews',
      row: (day, key, m) => [day, plain(key), m.visitors, m.sessions, seconds(m.durationMs), m.bounces, m.pageviews],
    },
    {
      table: 'exit_pages',
      dimension: 'exit',
      header: 'date,exit_page,visitors,visit_duration,exits,bounces,pageviews',
      row: (day, key, m) => [day, plain(key), m.visitors, seconds(m.durationMs), m.sessions, m.bounces, m.pageviews],
    },
    {
      table: 'locations',
      dimension: 'country',
      header: 'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
      row: (day, key, m) => [day, plain(key), '', 0, ...session(m)],
    },
    { table: 'devices', dimension: 'device', header: 'date,device,visitors,visits,visit_duration,bounces,pageviews', row: (day, key, m) => [day, device(key), ...session(m)] },
    {
      table: 'browsers',
      dimension: 'browser',
      header: 'date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews',
      row: (day, key, m) => [day, browser(key), '', ...session(m)],
    },
    {
      table: 'operating_systems',
      dimension: 'os',
      header: 'date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews',
      row: (day, key, m) => [day, os(key), '', ...session(m)],
    },
  ];
}

/** A page row's scroll depth sums; null where the day holds none for it. */
function scrollOf(r: Record<string, unknown>): ScrollSums | null {
  const depthVisitors = Number(r.depth_visitors ?? 0);
  return depthVisitors > 0 ? { depthSum: Number(r.depth_sum), depthVisitors } : null;
}

/** The months of a period, each as the days of it inside the period. */
function months(days: Period): Period[] {
  const out: Period[] = [];
  for (let start = days.from; start <= days.to; ) {
    const end = addDays(addMonths(firstOfMonth(start), 1), -1);
    out.push({ from: start, to: end < days.to ? end : days.to });
    start = addDays(end, 1);
  }
  return out;
}

/** The first and last day the site holds rows for (rollups or imports), or null when it holds none. */
export async function siteHeldDays(events: EventReader, siteId: string): Promise<Period | null> {
  const [held] = await events.query<{ f: string | null; l: string | null }>(exportDaysStatement(events.dialect, siteId));
  return held?.f && held.l ? { from: held.f, to: held.l } : null;
}

export interface ExportScope {
  siteId: string;
  domain: string;
  days: Period;
  /** What siteHeldDays answers: only the months of `days` within it are read. */
  held: Period | null;
  /** The last rolled-up day: later days are not exported (they are not rolled up yet). */
  watermark: string | null;
  /** The site's annotations, every one (notes, whatever the days exported): a file of their own. */
  annotations: readonly Annotation[];
}

/** The file names of an export: Plausible's, with its first and last day. */
export function exportFileName(table: string, days: Period): string {
  return `imported_${table}_${days.from.replaceAll('-', '')}_${days.to.replaceAll('-', '')}.csv`;
}

/** The archive's note of the days it holds: imports ignore it (it is no CSV), people read it. */
export const EXPORT_README = 'README.txt';

function readmeText(domain: string, held: { first: string | null; last: string | null }, watermark: string | null): string {
  const days = held.first === null ? 'It holds no day.' : `First day held: ${held.first}\nLast day held: ${held.last}`;
  const rolled = watermark === null ? 'no day of collected traffic is rolled up yet' : `days of collected traffic are rolled up to ${watermark}`;
  return [
    `svc export of ${domain}, in Plausible's CSV format.`,
    days,
    `It holds the site's rolled-up days and its imported days; ${rolled}. Today and the days not yet rolled up are left out (a day is rolled up within about 40 minutes of its end).`,
    '',
  ].join('\n');
}

/** The export as ZIP bytes, produced as they are read. */
export function exportPlausible(events: EventReader, scope: ExportScope): AsyncGenerator<Buffer> {
  const { siteId, days, watermark } = scope;
  const d = events.dialect;
  // Only the months of `days` within the days the site holds are read: an export asked for a
  // century reads only the months that can hold rows.
  const read = scope.held && { from: days.from > scope.held.from ? days.from : scope.held.from, to: days.to < scope.held.to ? days.to : scope.held.to };
  const monthsHeld = read && read.from <= read.to ? months(read) : [];
  async function* dimensionLines(dimension: Dimension, row: RowFields, scroll = false): AsyncGenerator<string> {
    for (const month of monthsHeld) {
      const statement = scroll ? exportPageStatement(d, siteId, month, watermark) : exportDimensionStatement(d, siteId, month, watermark, dimension);
      const rows = await events.query<{ b: string; k: string } & Record<string, unknown>>(statement);
      let chunk = '';
      for (const r of rows) {
        const values = row(r.b, r.k, trafficOf(r), scrollOf(r));
        if (values) chunk += line(values);
      }
      if (chunk) yield chunk;
    }
  }
  // The first and last day of the site's rows, seen as they are written, for README.txt (written last).
  const held: { first: string | null; last: string | null } = { first: null, last: null };
  async function* visitors(): AsyncGenerator<string> {
    yield 'date,visitors,pageviews,bounces,visits,visit_duration\n';
    for (const month of monthsHeld) {
      const rows = await events.query<{ b: string } & Record<string, unknown>>(exportSiteStatement(d, siteId, month, watermark));
      if (rows.length > 0) {
        held.first ??= rows[0]!.b;
        held.last = rows[rows.length - 1]!.b;
      }
      yield rows.map((r) => {
        const m = trafficOf(r);
        return line([r.b, m.visitors, m.pageviews, m.bounces, m.sessions, seconds(m.durationMs)]);
      }).join('');
    }
  }
  async function* table(t: DimensionTable): AsyncGenerator<string> {
    yield t.header + '\n';
    yield* dimensionLines(t.dimension, t.row, t.scroll === true);
  }
  async function* customEvents(): AsyncGenerator<string> {
    yield 'date,name,link_url,path,visitors,events\n';
    yield* dimensionLines('event', (day, key, m) => (key === 'pageview' || key === 'engage' ? null : [day, key, '', '', m.visitors, m.events]));
  }
  async function* svcDimensions(): AsyncGenerator<string> {
    yield 'date,dimension,key,visitors,pageviews,events,visits,bounces,visit_duration\n';
    for (const dimension of DIMENSIONS) {
      yield* dimensionLines(dimension, (day, key, m) => [day, dimension, key, m.visitors, m.pageviews, m.events, m.sessions, m.bounces, seconds(m.durationMs)]);
    }
  }
  const sources: ZipSource[] = [
    { name: exportFileName('visitors', days), bytes: visitors() },
    ...tables(scope.domain).map((t) => ({ name: exportFileName(t.table, days), bytes: table(t) })),
    { name: exportFileName('custom_events', days), bytes: customEvents() },
    { name: `${SVC_DIMENSIONS_TABLE}_${days.from.replaceAll('-', '')}_${days.to.replaceAll('-', '')}.csv`, bytes: svcDimensions() },
    { name: ANNOTATIONS_FILE, bytes: annotationsCsv(scope.annotations) },
    { name: EXPORT_README, bytes: (async function* () { yield readmeText(scope.domain, held, watermark); })() },
  ];
  return zipStream(sources);
}
