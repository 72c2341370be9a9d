// An import's report in words, the same in the dashboard (in the page's language) and the CLI (in
// English): which columns of Plausible's tables an older export lacks (docs/imports.md, "Older
// exports"), and what that leaves unknown.
import type { ImportView } from './management.js';
import { fill } from './messages/language.js';
import { siteSettings } from './messages/en/site-settings.js';
import type { WebCatalogue } from './messages/catalogue.js';

type ReportWords = WebCatalogue['siteSettings']['importReportWords'];

/**
 * The sentence that says which columns an import's files lack, per table; null when none lacks any
 * (a current export, or another tool's). `words` and `locale` are the reader's; the list's `and` is Intl's.
 */
export function missingColumnsText(files: ImportView['files'], words: ReportWords = siteSettings.importReportWords, locale = 'en-GB'): string | null {
  const list = new Intl.ListFormat(locale, { type: 'conjunction' });
  const lacking = files.flatMap((f) =>
    f.table !== null && f.missingColumns.length > 0
      ? [fill(words.tableWithout, { table: words.tables[f.table] ?? f.table, columns: list.format(f.missingColumns.map((c) => words.columns[c] ?? c)) })]
      : [],
  );
  if (lacking.length === 0) return null;
  return fill(words.olderExport, { lacking: lacking.join('; ') });
}
