// One CSV field as svc writes it, in the browser (the dashboard's `Export CSV`) and on the server
// (the export's ZIP), and the text svc's import reads back from it. Free of server code: the
// dashboard's bundle imports it.
//
// A spreadsheet runs a text cell that begins with `=`, `+`, `-`, `@`, a tab, a carriage return or a
// line feed as a formula (the line breaks once it trims them): a UTM campaign such as
// `=HYPERLINK(...)` would run when the file is opened. Such text is written with a leading `'`,
// which spreadsheets show as text. Text that itself begins with `'` gets one more, so that a reader
// drops a leading `'` exactly when the writer added it. A negative number (`-5`, `-12.5`) is not a
// formula and stays as it is; `-1+1` and the like are marked.

export type CsvCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r\n]/;
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Whether written text needs the leading `'`: a spreadsheet would read it as a formula, or it begins with `'`. */
function needsMark(text: string): boolean {
  if (text.startsWith("'")) return true;
  return FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text);
}

/** The text a field holds once neutralised: a leading `'` added when needed. */
export function neutralisedText(text: string): string {
  return needsMark(text) ? `'${text}` : text;
}

/** The text written, from a field's text as read (its quotes undone): the inverse of neutralisedText. */
export function restoredText(text: string): string {
  return text.startsWith("'") && needsMark(text.slice(1)) ? text.slice(1) : text;
}

/** One field: neutralised when it is text, then quoted as RFC 4180 says when it must be; numbers written as numbers. */
export function csvField(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = neutralisedText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
