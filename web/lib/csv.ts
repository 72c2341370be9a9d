// CSV text for the dashboard's `Export CSV` links (RFC 4180: CRLF between records), its fields
// written, and neutralised for spreadsheets, as the server's export writes them.
import { csvField, type CsvCell } from '../../src/core/csv-field.js';

/** A header row, then one record per row; every record ends with CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((record) => record.map(csvField).join(',') + '\r\n').join('');
}
