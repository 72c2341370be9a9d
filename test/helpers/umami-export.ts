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
