// GoatCounter's CSV export (format version 2, one row per pageview) as lines of svc's NDJSON
// import (docs/imports.md): each row becomes the event a tracker would have sent, so that every
// read endpoint, funnels included, sees it like a collected one. Rows marked as bots are skipped.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { csvRecords, type CsvRecord } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { MAX_COMPRESSION_RATIO } from './zip.js';

/** The columns of GoatCounter's export, format version 2 (its header's first field is the version). */
export const GOATCOUNTER_COLUMNS = ['Path', 'Title', 'Event', 'UserAgent', 'Browser', 'System', 'Session', 'Bot', 'Referrer', 'Referrer scheme', 'Screen size', 'Location', 'FirstVisit', 'Date'] as const;

export interface GoatcounterSkips {
  /** The CSV line of each line handed on, in order (the NDJSON import numbers its lines 1, 2, …). */
  sourceLines: number[];
  /** The first and last day (UTC) of the rows handed on. */
  first: string | null;
  last: string | null;
  bots: number;
  /** Rows that are not one of the export's (fields missing, a date that is not RFC 3339). */
  badRows: number;
  lines: Array<{ line: number; reason: string }>;
}

export function newSkips(): GoatcounterSkips {
  return { sourceLines: [], first: null, last: null, bots: 0, badRows: 0, lines: [] };
}

/** How many bad rows the report lists. */
const REPORTED = 100;

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
 * A stand-in address per GoatCounter session (in fd00::/8, unique local: no network, no place, no
 * hosting provider), so that a session's pageviews share one visitor and one session in svc.
 */
function sessionAddress(session: string): string {
  const h = createHash('sha256').update(session).digest('hex');
  return `fd${h.slice(0, 2)}:${h.slice(2, 6)}:${h.slice(6, 10)}:${h.slice(10, 14)}:${h.slice(14, 18)}:${h.slice(18, 22)}:${h.slice(22, 26)}:${h.slice(26, 30)}`;
}

/**
 * How many sessions' last pageview the import remembers: an event row carries its name in `Path`,
 * not its page, so it is filed under its session's last pageview, as the tracker files an event
 * under the page it happens on (older sessions' events under `/`).
 */
const SESSIONS_REMEMBERED = 100_000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The NDJSON lines of GoatCounter's export, for a site on `domain`; `skips` counts what is left out. */
export async function* goatcounterLines(records: AsyncIterable<CsvRecord>, domain: string, skips: GoatcounterSkips): AsyncGenerator<string> {
  let positions: Map<string, number> | null = null;
  const lastPages = new Map<string, string>();
  const bad = (line: number, reason: string) => {
    skips.badRows++;
    if (skips.lines.length < REPORTED) skips.lines.push({ line, reason });
  };
  for await (const record of records) {
    if (positions === null) {
      // The version prefixes the first column's name: `"2,Path"` as GoatCounter quotes it, or `2,Path` unquoted.
      const fields = 'tooLong' in record ? [] : record.fields.map((h) => h.trim());
      const header = fields[0] === '2,Path' ? ['Path', ...fields.slice(1)] : fields[0] === '2' && fields[1] === 'Path' ? fields.slice(1) : null;
      if (header === null) throw new ImportRefused("not GoatCounter's export in format version 2 (its header starts with 2,Path,Title,…)");
      const missing = GOATCOUNTER_COLUMNS.filter((c) => !header.includes(c));
      if (missing.length > 0) throw new ImportRefused(`the GoatCounter export has no column ${missing.join(', ')}`);
      positions = new Map(header.map((h, i) => [h, i]));
      continue;
    }
    if ('tooLong' in record) {
      bad(record.line, 'the line is too long');
      continue;
    }
    if (record.fields.length !== positions.size) {
      bad(record.line, `${record.fields.length} fields where the header has ${positions.size}`);
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
      bad(record.line, `Date is not an RFC 3339 instant (${JSON.stringify(date.slice(0, 40))})`);
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
      // Most recent last, so that the oldest session is the one forgotten.
      lastPages.delete(session);
      lastPages.set(session, page);
      if (lastPages.size > SESSIONS_REMEMBERED) lastPages.delete(lastPages.keys().next().value!);
    }
    const line: Record<string, unknown> = {
      ts: date,
      ua: field('UserAgent') || writtenUserAgent(field('Browser'), field('System')),
      u: `https://${domain}${page}`,
      ip: sessionAddress(session),
    };
    if (event) line.e = path;
    // `h`: a referring page (host and path, without its scheme); other schemes name no page.
    if (referrer !== '' && field('Referrer scheme') === 'h') line.r = `https://${referrer}`;
    if (width) line.w = Number(width[1]);
    if (location) {
      line.country = location[1]!.toUpperCase();
      if (location[2]) line.region = `${line.country}-${location[2].toUpperCase()}`;
    }
    skips.sourceLines.push(record.line);
    const day = new Date(Date.parse(date)).toISOString().slice(0, 10);
    if (skips.first === null || day < skips.first) skips.first = day;
    if (skips.last === null || day > skips.last) skips.last = day;
    yield JSON.stringify(line) + '\n';
  }
  if (positions === null) throw new ImportRefused('the file is empty');
}

/** The bytes of a CSV file on disk, inflated when it is gzipped (GoatCounter sends `.csv.gz`), bounded like a ZIP entry. */
export async function openCsvFile(path: string, onRead: (bytes: number) => void = () => {}): Promise<AsyncIterable<Buffer>> {
  const { size } = await stat(path);
  const head = Buffer.alloc(2);
  const file = await open(path, 'r');
  try {
    await file.read(head, 0, 2, 0);
  } finally {
    await file.close();
  }
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  raw.on('data', (chunk) => onRead(chunk.length));
  if (head[0] !== 0x1f || head[1] !== 0x8b) return raw;
  return bounded(raw.pipe(createGunzip()), Math.max(size, 1) * MAX_COMPRESSION_RATIO);
}

async function* bounded(stream: AsyncIterable<Buffer> & { destroy(): void }, max: number): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > max) throw new ImportRefused(`the gzipped file expands more than ${MAX_COMPRESSION_RATIO} times (a gzip bomb)`);
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

/** Refuses (ImportRefused) a file whose first line is not GoatCounter's header. */
export async function checkGoatcounterExport(path: string): Promise<void> {
  const skips = newSkips();
  const lines = goatcounterLines(csvRecords(await openCsvFile(path)), 'example.com', skips);
  await lines.next();
  await lines.return(undefined);
}
