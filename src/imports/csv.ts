// A streaming reader of CSV (RFC 4180: comma-separated, fields optionally in double quotes, `""` a
// quote inside them, a quoted field may hold line breaks), one record at a time with its line
// number, in memory bounded by the longest record it accepts.
import { StringDecoder } from 'node:string_decoder';

/** The longest record read, in characters; a longer one is reported as too long and skipped. */
export const MAX_RECORD_CHARS = 64 * 1024;

export type CsvRecord = { line: number; fields: string[] } | { line: number; tooLong: true };

/** Whether a text leaves a quoted field open (an odd count of quotes). */
function quotesOpen(text: string): boolean {
  let open = false;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) open = !open;
  return open;
}

/** The fields of one whole record (its line breaks inside quotes kept). */
export function splitRecord(text: string): string[] {
  if (!text.includes('"')) return text.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/**
 * The records of a byte stream of UTF-8 CSV, each with the number of its first line; blank lines
 * are skipped and a leading BOM dropped. A record over MAX_RECORD_CHARS is reported `tooLong`
 * (what is left of its line is dropped unread), never held whole.
 */
export async function* csvRecords(source: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  let first = true;
  /** A record whose quotes are still open at its last line's end. */
  let pending: { text: string; line: number } | null = null;
  /** Inside an over-long line, already reported: dropped up to its end. */
  let discarding = false;

  function* complete(piece: string): Generator<CsvRecord> {
    const startLine = pending?.line ?? line;
    const text = pending ? `${pending.text}\n${piece}` : piece;
    pending = null;
    // A CR before the line feed ends the record (CRLF), unless it is inside quotes: then it is the field's.
    const ending = text.endsWith('\r') ? 1 : 0;
    if (text.length - ending > MAX_RECORD_CHARS) yield { line: startLine, tooLong: true };
    else if (quotesOpen(text)) pending = { text, line: startLine };
    else if (text.length > ending) yield { line: startLine, fields: splitRecord(text.slice(0, text.length - ending)) };
  }

  function* take(text: string, final: boolean): Generator<CsvRecord> {
    rest += text;
    if (first && rest.length > 0) {
      if (rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
      first = false;
    }
    let start = 0;
    for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n', start)) {
      line++;
      const piece = rest.slice(start, nl);
      start = nl + 1;
      if (discarding) discarding = false;
      else yield* complete(piece);
    }
    rest = rest.slice(start);
    if (final) {
      if (rest.length > 0 && !discarding) {
        line++;
        yield* complete(rest);
      }
      rest = '';
      // Quotes never closed: the record ends with the file.
      const open = pending as { text: string; line: number } | null;
      if (open) yield { line: open.line, fields: splitRecord(open.text) };
      pending = null;
    } else if (rest.length > MAX_RECORD_CHARS && !discarding) {
      line++;
      yield { line: pending?.line ?? line, tooLong: true };
      line--; // counted again when its end arrives
      pending = null;
      rest = '';
      discarding = true;
    } else if (discarding) rest = '';
  }

  for await (const chunk of source) yield* take(decoder.write(chunk), false);
  yield* take(decoder.end(), true);
}
