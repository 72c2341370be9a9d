// An import's report in words, the same in the dashboard and the CLI: which columns of Plausible's
// tables an older export lacks (docs/imports.md, "Older exports"), and what that leaves unknown.
import type { ImportView } from './management.js';

/** The export's tables as people read them. */
const TABLE_WORDS: Readonly<Record<string, string>> = {
  sources: 'sources',
  pages: 'pages',
  entry_pages: 'entry pages',
  exit_pages: 'exit pages',
  locations: 'locations',
  devices: 'devices',
  browsers: 'browsers',
  operating_systems: 'operating systems',
  svc_dimensions: "svc's dimensions",
};

/** The columns a table may lack, as people read them. */
const COLUMN_WORDS: Readonly<Record<string, string>> = {
  pageviews: 'pageviews',
  visits: 'visits',
  bounces: 'bounces',
  visit_duration: 'visit duration',
  events: 'events',
  referrer: 'referrer URLs',
  utm_source: 'UTM sources',
  hostname: 'hostnames',
  scroll_depth: 'scroll depths',
  pageleave_visitors: 'scroll depth visitors',
};

/** `a`, `a and b`, `a, b and c`. */
function inWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The sentence that says which columns an import's files lack, per table; null when none lacks any
 * (a current export, or another tool's).
 */
export function missingColumnsText(files: ImportView['files']): string | null {
  const lacking = files.flatMap((f) =>
    f.table !== null && f.missingColumns.length > 0 ? [`${TABLE_WORDS[f.table] ?? f.table} without ${inWords(f.missingColumns.map((c) => COLUMN_WORDS[c] ?? c))}`] : [],
  );
  if (lacking.length === 0) return null;
  return `An older export: ${lacking.join('; ')}. What these columns give is unknown on its days, never counted as 0.`;
}
