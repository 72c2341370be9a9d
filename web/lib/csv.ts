// CSV text for the dashboard's `Export CSV` links (RFC 4180: CRLF between records, a field quoted
// when it holds a comma, a quote or a line break, quotes inside doubled).
//
// A text cell that begins with `=`, `+`, `-`, `@`, a tab, a carriage return or a line feed is a
// formula to a spreadsheet (or becomes one once the spreadsheet trims the leading line break): a page path such as `=HYPERLINK(...)` would run when the file is opened. Such a cell
// is written with a leading `'`, which spreadsheets show as text. Numbers are written as numbers:
// a negative change stays a number.

export type CsvCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r\n]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised when it is text that a spreadsheet would read as a formula, then quoted when needed. */
export function csvField(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row, then one record per row; every record ends with CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((record) => record.map(csvField).join(',') + '\r\n').join('');
}
