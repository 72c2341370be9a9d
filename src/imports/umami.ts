// Umami's data export (one CSV of its `website_event` rows joined with their session, docs/imports.md)
// as lines of svc's NDJSON import: each pageview and custom event becomes the event a tracker would
// have sent, its visitor Umami's session, its session Umami's visit, so that every read endpoint,
// funnels and journeys included, sees it like a collected one.
import { BUILT_IN_EVENTS, EVENT_NAME } from '../ingest/event-shape.js';
import type { ImportLineFields } from '../ingest/import.js';
import type { DeviceClass } from '../core/vocabulary.js';
import { detached, type CsvRecord } from './csv.js';
import { ImportRefused } from './plausible-import.js';
import { columnsOf, handOn, skipRow, standInAddresses, type RawEventFormat, type RawEventSkips } from './raw-events.js';

/** The columns svc reads (Umami's export has more, which are ignored; `visit_id` is read when present). */
export const UMAMI_COLUMNS = [
  'session_id',
  'hostname',
  'browser',
  'os',
  'device',
  'screen',
  'language',
  'country',
  'region',
  'city',
  'url_path',
  'url_query',
  'referrer_domain',
  'event_type',
  'event_name',
  'created_at',
] as const;

/**
 * Umami's browser words (the names its `BROWSERS` list gives, from the `detect-browser` package) →
 * svc's browser families, spelt as svc's User-Agent parser spells them; other words are kept.
 */
export const UMAMI_BROWSERS: Readonly<Record<string, string | null>> = {
  chrome: 'Chrome',
  crios: 'Chrome',
  'chromium-webview': 'Chrome',
  edge: 'Edge',
  'edge-chromium': 'Edge',
  'edge-ios': 'Edge',
  firefox: 'Firefox',
  fxios: 'Firefox',
  safari: 'Safari',
  ios: 'Safari',
  'ios-webview': 'Safari',
  opera: 'Opera',
  'opera-mini': 'Opera',
  samsung: 'Samsung Internet',
  yandexbrowser: 'Yandex',
  ie: 'Internet Explorer',
  android: 'Android Browser',
  silk: 'Silk',
  miui: 'MIUI Browser',
  facebook: 'Facebook',
  instagram: 'Instagram',
  kakaotalk: 'KakaoTalk',
  aol: 'AOL',
  bb10: 'BlackBerry',
  beaker: 'Beaker',
  // Umami's word for a browser it could not tell.
  browser: null,
};

/** Umami's operating systems (`detect-browser`'s names, as its `DESKTOP_OS` and `MOBILE_OS` list them) → svc's OS families. */
export const UMAMI_SYSTEMS: Readonly<Record<string, string>> = {
  'windows 3.11': 'Windows',
  'windows 95': 'Windows',
  'windows 98': 'Windows',
  'windows me': 'Windows',
  'windows 2000': 'Windows',
  'windows xp': 'Windows',
  'windows server 2003': 'Windows',
  'windows vista': 'Windows',
  'windows 7': 'Windows',
  'windows 8': 'Windows',
  'windows 8.1': 'Windows',
  'windows 10': 'Windows',
  'windows ce': 'Windows',
  'windows mobile': 'Windows',
  'mac os': 'macOS',
  ios: 'iOS',
  'android os': 'Android',
  'amazon os': 'Android',
  linux: 'Linux',
  'chrome os': 'ChromeOS',
  'open bsd': 'OpenBSD',
  'sun os': 'Solaris',
  'blackberry os': 'BlackBerry',
  qnx: 'QNX',
  beos: 'BeOS',
  'os/2': 'OS/2',
};

/** Umami's device words → svc's device classes; another word leaves the class to the screen's width. */
export const UMAMI_DEVICES: Readonly<Record<string, DeviceClass>> = { desktop: 'desktop', laptop: 'desktop', mobile: 'mobile', tablet: 'tablet' };

/** Browsers and systems Umami names that are robots: their rows are skipped as bots. */
const UMAMI_BOT_BROWSERS = new Set(['searchbot', 'curl', 'phantomjs']);
const UMAMI_BOT_SYSTEM = 'search bot';

/** Umami's `event_type`s that svc reads. */
const PAGEVIEW = '1';
const CUSTOM_EVENT = '2';

/**
 * The User-Agent of every imported line: the visitor is the stand-in address of Umami's session,
 * and the browser, OS and device are stated, so the text only has to read as a browser's.
 */
const IMPORTED_UA = 'Mozilla/5.0 (imported from Umami)';

const HOST = /^[a-z0-9](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*\.?(?::\d{1,5})?$/i;
/** Umami's `created_at`: as its exports write it (`2025-04-10 10:00:00.250`), as psql does (`…+00`), or ISO 8601. */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** Umami's `screen`, `1920x1080`. */
const SCREEN = /^\d{1,5}x\d{1,5}$/;
/** The query parameters the tracker reads from a page's URL (src/ingest/url-values.ts): UTM values and a tagged referrer. */
const KEPT_PARAMETER = /^(?:utm_.+|ref|source)$/;

/** `created_at` (UTC when it names no offset) in epoch milliseconds, or null when it is not an instant. */
export function umamiInstant(text: string): number | null {
  return exportInstant(text) ?? anyInstant(text);
}

/** The digit at `at` of `text` as a number, or NaN when it is not one. */
function digit(text: string, at: number): number {
  const d = text.charCodeAt(at) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

const pair = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * The instant of `created_at` as Umami's exports write it (`2025-04-10 10:00:00.250`, UTC, a year
 * from 1000 on), read a character at a time: every row has one. Null when the text is written any
 * other way, or names a time or day that does not exist; `anyInstant` reads it then.
 */
function exportInstant(text: string): number | null {
  const length = text.length;
  if ((length !== 19 && (length < 21 || length > 23)) || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return null;
  const separator = text.charCodeAt(10);
  if (separator !== SPACE && separator !== LETTER_T) return null;
  const year = pair(text, 0) * 100 + pair(text, 2);
  const month = pair(text, 5);
  const day = pair(text, 8);
  const hours = pair(text, 11);
  const minutes = pair(text, 14);
  const seconds = pair(text, 17);
  // A fraction of a second of one to three digits: `.25` is 250 ms, as Date.parse reads it.
  let ms = 0;
  if (length > 19) {
    if (text.charCodeAt(19) !== DOT) return null;
    for (let at = 20, scale = 100; at < 23; at++, scale /= 10) ms += at < length ? digit(text, at) * scale : 0;
  }
  // NaN (a character that is not a digit) fails every comparison.
  if (!(year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hours <= 23 && minutes <= 59 && seconds <= 59 && ms >= 0)) return null;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, ms);
}

const DASH = 0x2d;
const COLON = 0x3a;
const SPACE = 0x20;
const LETTER_T = 0x54;
const DOT = 0x2e;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `created_at` written any way umamiInstant takes (an offset, more digits of a second), read with Date.parse (exported for the test of the fast reading it backs). */
export function anyInstant(text: string): number | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [, year, month, day, time, zone] = m;
  // Date.parse rolls 2025-02-30 over to March: the day must exist.
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  const offset = zone === undefined || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.length > 3 ? zone.slice(-2) : '00'}`;
  const ms = Date.parse(`${year}-${month}-${day}T${time}${offset}`);
  return Number.isNaN(ms) ? null : ms;
}

/** A host name without `www.` and port, lowercased, for telling a self-referral. */
const bareHost = (host: string) => host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '').replace(/^www\./, '');

// The mapping tables as maps, for the words of the file (never `constructor` and the like).
const UMAMI_BROWSER_FAMILIES = new Map(Object.entries(UMAMI_BROWSERS));
const UMAMI_SYSTEM_FAMILIES = new Map(Object.entries(UMAMI_SYSTEMS));
const UMAMI_DEVICE_CLASSES = new Map(Object.entries(UMAMI_DEVICES));

/** `text` cut to `max` characters, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The column positions of Umami's header: refused, naming the file and the columns, when one svc reads is missing. */
function header(record: CsvRecord, fileName: string): Map<string, number> {
  const names = 'tooLong' in record ? [] : record.fields.map((h) => h.trim().toLowerCase());
  return columnsOf(names, UMAMI_COLUMNS, `${fileName}: the Umami export`);
}

/** A run of characters outside the event-name rule (docs/tracker.md) (once lowercased). */
const OUTSIDE_NAME = /[^a-z0-9_-]+/g;

/**
 * The event named by a custom event's `event_name` under the event-name rule of docs/tracker.md: lowercased, runs of other
 * characters dropped at the ends and made one `_` within (`Download PDF` → `download_pdf`), cut to
 * 64; undefined when nothing is left or the name is one of svc's own events.
 */
function eventName(text: string): string | undefined {
  const name = text.trim().toLowerCase().replace(/^[^a-z0-9_-]+|[^a-z0-9_-]+$/g, '').replace(OUTSIDE_NAME, '_').slice(0, 64);
  return EVENT_NAME.test(name) && !(BUILT_IN_EVENTS as readonly string[]).includes(name) ? name : undefined;
}

/** The page's URL: its host, its path and the query parameters the tracker reads. */
function pageUrl(host: string, path: string, query: string): string {
  let kept = '';
  if (query !== '') {
    const params = new URLSearchParams(query);
    const taken = new URLSearchParams();
    for (const [key, value] of params) if (KEPT_PARAMETER.test(key)) taken.append(key, value);
    kept = taken.size > 0 ? `?${taken}` : '';
  }
  return `https://${host}${path.startsWith('/') ? path : `/${path}`}${kept}`;
}

/**
 * Lines handed on at a time: each lives only while its group is checked and stored, not while a
 * whole CSV chunk's (700 or so) are, so that fewer of them outlive V8's young generation.
 */
const LINES_HANDED_ON = 128;

/** The positions of the columns a row is read from (-1: `visit_id`, absent from older exports). */
interface UmamiPositions {
  sessionId: number;
  visitId: number;
  hostname: number;
  browser: number;
  os: number;
  device: number;
  screen: number;
  language: number;
  country: number;
  region: number;
  city: number;
  urlPath: number;
  urlQuery: number;
  referrerDomain: number;
  eventType: number;
  eventName: number;
  createdAt: number;
}

/** The header's positions by name, looked up once for every row. */
function positionsOf(columns: Map<string, number>): UmamiPositions {
  const at = (name: string) => columns.get(name) ?? -1;
  return {
    sessionId: at('session_id'), visitId: at('visit_id'), hostname: at('hostname'), browser: at('browser'), os: at('os'), device: at('device'), screen: at('screen'),
    language: at('language'), country: at('country'), region: at('region'), city: at('city'), urlPath: at('url_path'), urlQuery: at('url_query'),
    referrerDomain: at('referrer_domain'), eventType: at('event_type'), eventName: at('event_name'), createdAt: at('created_at'),
  };
}

/** A row's field at `position`, trimmed ('' for a column the header does not have). */
const fieldAt = (fields: readonly string[], position: number): string => (position < 0 ? '' : fields[position]!.trim());

/** The import lines of Umami's export for a site on `domain`, a batch of records at a time; `skips` counts what is left out. */
async function* umamiLines(batches: AsyncIterable<CsvRecord[]>, domain: string, skips: RawEventSkips, fileName: string): AsyncGenerator<ImportLineFields[]> {
  const standInAddress = standInAddresses();
  let at: UmamiPositions | null = null;
  /** The header's count of fields, which every line must have (two columns may share a name). */
  let columns = 0;
  // Rows of the event types svc does not read (links, pixels, performance, …): counted, and listed once per type.
  const otherTypes = new Map<string, { line: number; rows: number }>();
  for await (const records of batches) {
    const lines: ImportLineFields[] = [];
    for (const record of records) {
      if (at === null) {
        at = positionsOf(header(record, fileName));
        columns = 'tooLong' in record ? 0 : record.fields.length;
        continue;
      }
      if ('tooLong' in record) {
        skipRow(skips, record.line, 'the line is too long');
        continue;
      }
      if (record.fields.length !== columns) {
        skipRow(skips, record.line, `${record.fields.length} fields where the header has ${columns}`);
        continue;
      }
      const fields = record.fields;
      const type = fieldAt(fields, at.eventType);
      if (type !== PAGEVIEW && type !== CUSTOM_EVENT) {
        if (!/^\d{1,2}$/.test(type)) {
          skipRow(skips, record.line, `event_type is not a number (${JSON.stringify(type.slice(0, 40))})`);
          continue;
        }
        skips.badRows++;
        const seen = otherTypes.get(type);
        if (seen) seen.rows++;
        else otherTypes.set(type, { line: record.line, rows: 1 });
        continue;
      }
      const browserField = fieldAt(fields, at.browser);
      const systemField = fieldAt(fields, at.os);
      const browserWord = browserField.toLowerCase();
      const systemWord = systemField.toLowerCase();
      if (UMAMI_BOT_BROWSERS.has(browserWord) || systemWord === UMAMI_BOT_SYSTEM) {
        skips.bots++;
        continue;
      }
      const createdAt = fieldAt(fields, at.createdAt);
      const ts = umamiInstant(createdAt);
      if (ts === null) {
        skipRow(skips, record.line, `created_at is not an instant (${JSON.stringify(createdAt.slice(0, 40))})`);
        continue;
      }
      const visitor = fieldAt(fields, at.sessionId);
      if (visitor === '') {
        skipRow(skips, record.line, 'session_id is empty');
        continue;
      }
      const host = fieldAt(fields, at.hostname) || domain;
      if (host.length > 253 || !HOST.test(host)) {
        skipRow(skips, record.line, `hostname is not a host name (${JSON.stringify(host.slice(0, 40))})`);
        continue;
      }
      let name: string | undefined;
      if (type === CUSTOM_EVENT) {
        const nameField = fieldAt(fields, at.eventName);
        name = eventName(nameField);
        if (name === undefined) {
          skipRow(skips, record.line, `event_name ${JSON.stringify(nameField.slice(0, 64))} leaves no event name svc takes (a-z, 0-9, _ and - once lowercased; not pageview, engage, outbound or download)`);
          continue;
        }
        if (name !== nameField.toLowerCase()) skips.renamedEvents++;
      }
      const visit = fieldAt(fields, at.visitId);
      if (visit.length > 128) {
        skipRow(skips, record.line, 'visit_id is longer than 128 characters');
        continue;
      }
      // Umami keeps the referrer's host; none when empty, `(none)`, or the page's own host.
      const referrer = fieldAt(fields, at.referrerDomain);
      const screen = fieldAt(fields, at.screen);
      const language = fieldAt(fields, at.language);
      const countryField = fieldAt(fields, at.country);
      const country = /^[A-Za-z]{2}$/.test(countryField) ? countryField.toUpperCase() : undefined;
      const regionField = fieldAt(fields, at.region);
      let region: string | undefined;
      if (/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(regionField)) region = regionField.toUpperCase();
      else if (country && /^[A-Za-z0-9]{1,3}$/.test(regionField)) region = `${country}-${regionField.toUpperCase()}`;
      const city = fieldAt(fields, at.city);
      const known = UMAMI_BROWSER_FAMILIES.get(browserWord);
      const browser = known === undefined ? (browserWord === '' ? null : cut(browserField, 64)) : known;
      // Every line has the same properties (undefined: not stated), so that the checks read them from one shape.
      const line: ImportLineFields = {
        ts,
        ua: IMPORTED_UA,
        u: pageUrl(host, fieldAt(fields, at.urlPath) || '/', fieldAt(fields, at.urlQuery)),
        ip: standInAddress(visitor),
        e: name,
        // Detached: the live session keeps its name, and would keep the record's text with it.
        session: visit === '' ? undefined : detached(visit),
        r: referrer !== '' && referrer !== '(none)' && referrer.length <= 253 && HOST.test(referrer) && bareHost(referrer) !== bareHost(host) ? `https://${referrer}/` : undefined,
        // parseInt reads the width, the digits before the `x`.
        w: SCREEN.test(screen) ? parseInt(screen, 10) : undefined,
        l: language === '' ? undefined : language,
        country,
        region,
        city: city === '' ? undefined : cut(city, 128),
        browser: browser ?? undefined,
        os: systemWord === '' ? undefined : (UMAMI_SYSTEM_FAMILIES.get(systemWord) ?? cut(systemField, 64)),
        device: UMAMI_DEVICE_CLASSES.get(fieldAt(fields, at.device).toLowerCase()),
      };
      handOn(skips, record.line, ts);
      lines.push(line);
    }
    // The records are let go before their lines are checked and stored: the CSV reader holds the
    // batch until it reads the next, and records kept that long outlive the young generation.
    records.length = 0;
    while (lines.length > 0) yield lines.splice(0, LINES_HANDED_ON);
  }
  if (at === null) throw new ImportRefused('the file is empty');
  for (const [type, { line, rows }] of otherTypes) {
    skips.lines.push({ line, reason: `event_type ${type} is neither a pageview (1) nor a custom event (2): ${rows} line${rows === 1 ? '' : 's'} of it skipped` });
  }
}

/** Umami's data export (its events joined with their sessions), `.csv` or `.csv.gz`. */
export const umamiFormat: RawEventFormat = { header, lines: umamiLines };
