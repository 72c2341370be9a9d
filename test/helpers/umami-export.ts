// Umami's data export as its own tools write it (its `website_event` rows joined with `session`,
// every field quoted as `\copy … FORCE_QUOTE *` writes them), for the import tests and the bench.

/** The columns of Umami's export, in its order. */
export const UMAMI_HEADER = [
  'website_id', 'session_id', 'visit_id', 'event_id', 'hostname', 'browser', 'os', 'device', 'screen', 'language', 'country', 'region', 'city',
  'url_path', 'url_query', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'referrer_path', 'referrer_query', 'referrer_domain',
  'page_title', 'gclid', 'fbclid', 'msclkid', 'ttclid', 'li_fat_id', 'twclid', 'event_type', 'event_name', 'tag', 'distinct_id', 'created_at', 'job_id',
] as const;

export type UmamiRow = Partial<Record<string, string>>;

/** One line of the export: `fields` quoted, with its line break. */
export const umamiLine = (fields: readonly string[]) => fields.map((f) => `"${f.replaceAll('"', '""')}"`).join(',') + '\n';

/** The export of `rows` under `header` (Umami's by default; another, to test a refusal). */
export function umamiCsv(rows: UmamiRow[], header: readonly string[] = UMAMI_HEADER): string {
  return umamiLine(header) + rows.map((row) => umamiLine(header.map((c) => row[c] ?? ''))).join('');
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
/** The `n`th UUID of `seed`'s (counted, as ids a database hands out in order are). */
const uuidOf = (seed: number, n: number) => `${hex(seed, 8)}-0000-4000-8000-${hex(n, 12)}`;

/** The `i`th line's path: one of 5 000 articles, or a path of its own `bytes` long. */
const pathOf = (i: number, bytes?: number) => (bytes === undefined ? `/article/${(i * 7919) % 5000}` : `/article/${i}/`.padEnd(bytes, 'abcdefghij'));

/**
 * Umami's export in which every line is a pageview of a new session (its own session_id and
 * visit_id), over `days` days ending the day before `until` (UTC), in time order, in pieces of
 * about 1 MB: the shape whose sessions an import cannot end early. `seed` makes another file's ids;
 * `pathBytes` makes every path that long, each its own (the longest a page keeps is 2048).
 */
export function* newSessionUmamiExport(lines: number, options: { hostname: string; days: number; until: number; seed: number; pathBytes?: number }): Generator<string> {
  const first = Math.floor(options.until / 86_400_000) * 86_400_000 - options.days * 86_400_000;
  const step = (options.days * 86_400_000) / lines;
  let piece = umamiLine(UMAMI_HEADER);
  for (let i = 0; i < lines; i++) {
    const created = new Date(first + Math.floor(i * step)).toISOString().replace('T', ' ').replace('Z', '');
    const row: UmamiRow = {
      website_id: '7f2c4e1a-1b7c-4c7e-9a55-2f0b6d3c9e11', session_id: uuidOf(options.seed, i), visit_id: uuidOf(options.seed + 1, i), event_id: uuidOf(options.seed + 2, i),
      hostname: options.hostname, browser: ['chrome', 'firefox', 'safari', 'ios', 'edge-chromium'][i % 5], os: ['Windows 10', 'Mac OS', 'iOS', 'Android OS', 'Linux'][i % 5],
      device: ['desktop', 'laptop', 'mobile', 'tablet'][i % 4], screen: ['1920x1080', '1366x768', '390x844', '1440x900'][i % 4], language: ['en-US', 'fr-FR', 'de-DE', 'es-ES'][i % 4],
      country: ['US', 'FR', 'DE', 'ES', 'GB', 'JP'][i % 6], url_path: pathOf(i, options.pathBytes), referrer_domain: ['google.com', '', 'news.ycombinator.com', 'duckduckgo.com'][i % 4],
      event_type: '1', created_at: created,
    };
    piece += umamiLine(UMAMI_HEADER.map((c) => row[c] ?? ''));
    if (piece.length >= 1 << 20) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}
