// GoatCounter's CSV export (format version 2, one row per pageview) as lines of svc's NDJSON
// import (docs/imports.md): each row becomes the event a tracker would have sent, so that every
// read endpoint, funnels included, sees it like a collected one. Rows marked as bots are skipped.
import type { ImportLineFields } from '../ingest/import.js';
import { detached, type CsvRecord } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { columnsOf, handOn, skipRow, standInAddresses, type RawEventFormat, type RawEventSkips } from './raw-events.js';

/** The columns of GoatCounter's export, format version 2 (its header's first field is the version). */
export const GOATCOUNTER_COLUMNS = ['Path', 'Title', 'Event', 'UserAgent', 'Browser', 'System', 'Session', 'Bot', 'Referrer', 'Referrer scheme', 'Screen size', 'Location', 'FirstVisit', 'Date'] as const;

// Without a User-Agent (GoatCounter keeps only its parsed browser and system for older rows), the
// event gets one written from them, which svc's parser reads back as the same families.
const BROWSER_UA: Record<string, string> = {
  Chrome: 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  Firefox: 'Gecko/20100101 Firefox/121.0',
  Safari: 'AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  Edge: 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  Opera: 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0',
};
const SYSTEM_UA: Record<string, string> = {
  Windows: 'Windows NT 10.0; Win64; x64',
  macOS: 'Macintosh; Intel Mac OS X 10_15_7',
  Linux: 'X11; Linux x86_64',
  Android: 'Linux; Android 14; K',
  iOS: 'iPhone; CPU iPhone OS 17_0 like Mac OS X',
};

function writtenUserAgent(browser: string, system: string): string {
  const family = (text: string, table: Record<string, string>) => table[Object.keys(table).find((k) => text.startsWith(k)) ?? ''];
  return `Mozilla/5.0 (${family(system, SYSTEM_UA) ?? SYSTEM_UA.Windows}) ${family(browser, BROWSER_UA) ?? BROWSER_UA.Chrome}`;
}

/**
 * How many sessions' last pageview the import remembers: an event row carries its name in `Path`,
 * not its page, so it is filed under its session's last pageview, as the tracker files an event
 * under the page it happens on (older sessions' events under `/`).
 */
const SESSIONS_REMEMBERED = 100_000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The column positions of GoatCounter's header, whose version prefixes the first column's name. */
function header(record: CsvRecord): Map<string, number> {
  // `"2,Path"` as GoatCounter quotes it, or `2,Path` unquoted.
  const fields = 'tooLong' in record ? [] : record.fields.map((h) => h.trim());
  const names = fields[0] === '2,Path' ? ['Path', ...fields.slice(1)] : fields[0] === '2' && fields[1] === 'Path' ? fields.slice(1) : null;
  if (names === null) throw new ImportRefused("not GoatCounter's export in format version 2 (its header starts with 2,Path,Title,…)");
  return columnsOf(names, GOATCOUNTER_COLUMNS, 'the GoatCounter export');
}

/** The import lines of GoatCounter's export, for a site on `domain`, a batch of records at a time; `skips` counts what is left out. */
async function* goatcounterLines(batches: AsyncIterable<CsvRecord[]>, domain: string, skips: RawEventSkips): AsyncGenerator<ImportLineFields[]> {
  const standInAddress = standInAddresses();
  let positions: Map<string, number> | null = null;
  const lastPages = new Map<string, string>();
  for await (const records of batches) {
    const lines: ImportLineFields[] = [];
    for (const record of records) {
      if (positions === null) {
        positions = header(record);
        continue;
      }
      if ('tooLong' in record) {
        skipRow(skips, record.line, 'the line is too long');
        continue;
      }
      if (record.fields.length !== positions.size) {
        skipRow(skips, record.line, `${record.fields.length} fields where the header has ${positions.size}`);
        continue;
      }
      const at = positions;
      const field = (name: (typeof GOATCOUNTER_COLUMNS)[number]) => record.fields[at.get(name)!]!.trim();
      if (field('Bot') !== '0' && field('Bot') !== '') {
        skips.bots++;
        continue;
      }
      const date = field('Date');
      if (!RFC3339.test(date) || Number.isNaN(Date.parse(date))) {
        skipRow(skips, record.line, `Date is not an RFC 3339 instant (${JSON.stringify(date.slice(0, 40))})`);
        continue;
      }
      const path = field('Path');
      const event = field('Event') === 'true';
      const location = /^([A-Za-z]{2})(?:-([A-Za-z0-9]{1,3}))?$/.exec(field('Location'));
      const width = /^(\d{1,6})[,x]/.exec(field('Screen size'));
      const referrer = field('Referrer');
      const session = field('Session') || `line ${record.line}`;
      const page = event ? (lastPages.get(session) ?? '/') : path.startsWith('/') ? path : '/';
      if (!event) {
        // Most recent last, so that the oldest session is the one forgotten. Detached: the map
        // outlives the records, whose text it would keep.
        lastPages.delete(session);
        lastPages.set(detached(session), detached(page));
        if (lastPages.size > SESSIONS_REMEMBERED) lastPages.delete(lastPages.keys().next().value!);
      }
      const line: Record<string, unknown> = {
        ts: date,
        ua: field('UserAgent') || writtenUserAgent(field('Browser'), field('System')),
        u: `https://${domain}${page}`,
        ip: standInAddress(session),
      };
      if (event) line.e = path;
      // `h`: a referring page (host and path, without its scheme); other schemes name no page.
      if (referrer !== '' && field('Referrer scheme') === 'h') line.r = `https://${referrer}`;
      if (width) line.w = Number(width[1]);
      if (location) {
        line.country = location[1]!.toUpperCase();
        if (location[2]) line.region = `${line.country}-${location[2].toUpperCase()}`;
      }
      handOn(skips, record.line, Date.parse(date));
      lines.push(line);
    }
    if (lines.length > 0) yield lines;
  }
  if (positions === null) throw new ImportRefused('the file is empty');
}

/** GoatCounter's CSV export (format version 2), `.csv` or `.csv.gz`. */
export const goatcounterFormat: RawEventFormat = { header, lines: goatcounterLines };
