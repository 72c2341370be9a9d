// A streaming reader of CSV (RFC 4180: comma-separated, fields optionally in double quotes, `""` a
// quote inside them, a quoted field may hold line breaks), one record at a time with its line
// number, in memory bounded by the longest record it accepts and in time linear in its input: each
// character is looked at a fixed number of times, however many lines a quoted field spans.
import { StringDecoder } from 'node:string_decoder';
import { EventLoopTurns } from '../core/turns.js';

/** The longest record read, in characters; a longer one is reported as too long and skipped. */
export const MAX_RECORD_CHARS = 64 * 1024;

export type CsvRecord = { line: number; fields: string[] } | { line: number; tooLong: true };

/**
 * The fields of one whole record (its line breaks inside quotes kept); a quoted field never closed
 * runs to the end. The text between quotes and between separators is taken a slice at a time, each
 * character looked at once.
 */
export function splitRecord(text: string): string[] {
  return splitFields(text, true)!;
}

/**
 * splitRecord's fields; null when a quoted field is left open at the end and `openEnd` does not take
 * that. `expected` fields are made room for at once (the records of a file have as many as its header).
 */
function splitFields(text: string, openEnd: boolean, expected = 0): string[] | null {
  if (!text.includes('"')) return text.split(',');
  const fields = new Array<string>(expected);
  let count = 0;
  let field = '';
  let at = 0;
  for (;;) {
    // The usual quoted field (most exports quote every field): `"…"` at a field's start, without `""`
    // inside, then a separator or the end, taken in one slice. (Within a field, a quoted piece is
    // never followed by a quote: `""` is a quote inside it.)
    if (field === '' && text.charCodeAt(at) === QUOTE) {
      const close = text.indexOf('"', at + 1);
      const after = close + 1;
      if (close !== -1 && (after === text.length || text.charCodeAt(after) === COMMA)) {
        fields[count++] = text.slice(at + 1, close);
        if (after === text.length) {
          fields.length = count;
          return fields;
        }
        at = after + 1;
        continue;
      }
    }
    let end = at;
    while (end < text.length && text.charCodeAt(end) !== COMMA && text.charCodeAt(end) !== QUOTE) end++;
    field += text.slice(at, end);
    if (end === text.length) break;
    at = end + 1;
    if (text.charCodeAt(end) === COMMA) {
      fields[count++] = field;
      field = '';
      continue;
    }
    // A quoted piece: up to the quote that closes it, `""` a quote inside; unclosed, it runs to the end.
    for (;;) {
      const close = text.indexOf('"', at);
      if (close === -1) {
        if (!openEnd) return null;
        field += text.slice(at);
        at = text.length;
        break;
      }
      field += text.slice(at, close);
      at = close + 1;
      if (text.charCodeAt(at) !== QUOTE) break;
      field += '"';
      at++;
    }
  }
  fields[count++] = field;
  fields.length = count;
  return fields;
}

const COMMA = 0x2c;
const QUOTE = 0x22;

/** Whether `piece` holds an odd count of double quotes. */
function oddQuotes(piece: string): boolean {
  let odd = false;
  for (let at = piece.indexOf('"'); at !== -1; at = piece.indexOf('"', at + 1)) odd = !odd;
  return odd;
}

/**
 * Cuts decoded text into records as it comes. A record ends at the end of a line where its quotes
 * are closed: every quote, `""` included, opens or closes a quoted field, so the parity of the
 * record's quote count, kept as its pieces come, tells whether a line break is inside a field.
 */
class RecordCutter {
  /** Lines ended so far. */
  private line = 0;
  /** The line the record being read starts on. */
  private recordLine = 1;
  /** The record's ended lines (each without its line break). */
  private recordLines: string[] = [];
  /** The pieces of the line not yet ended (a line may span chunks). */
  private lineParts: string[] = [];
  /** Characters held: the record's lines, the line breaks between them, and the current line's pieces. */
  private chars = 0;
  /** Whether a quoted field is open at the end of what the record holds. */
  private quoted = false;
  /** The record was reported too long: the rest of its current line is dropped unread. */
  private skipping = false;
  private first = true;
  /** The fields of the last record split on one line: the next likely has as many. */
  private fieldCount = 0;

  /** The records that `text` completes. */
  read(text: string): CsvRecord[] {
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    const records: CsvRecord[] = [];
    let start = 0;
    // Each piece is searched alone: a search of the whole text from a line's start could run far past its end.
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const record = this.endLine(text.slice(start, nl));
      if (record !== null) records.push(record);
      start = nl + 1;
    }
    const refused = this.continueLine(text.slice(start));
    if (refused !== null) records.push(refused);
    return records;
  }

  /** The records left at the end of the input: its last line, and a quoted field never closed, which ends with the file. */
  end(): CsvRecord[] {
    const records: CsvRecord[] = [];
    const last = this.lineParts.length > 0 ? this.endLine('') : null;
    if (last !== null) records.push(last);
    if (this.recordLines.length > 0) records.push({ line: this.recordLine, fields: splitRecord(this.recordLines.join('\n')) });
    this.startRecord();
    return records;
  }

  /**
   * Counts a piece of the current line (a slice of the text read, not yet joined to anything) into
   * the record: the record refused once it passes the limit by more than one character (the line's
   * last character may be the carriage return of a CRLF, which the record does not keep).
   */
  private count(piece: string): CsvRecord | null {
    if (this.chars + piece.length > MAX_RECORD_CHARS + 1) return this.refused();
    this.chars += piece.length;
    if (oddQuotes(piece)) this.quoted = !this.quoted;
    return null;
  }

  /** A piece of a line that goes on in the next text. */
  private continueLine(piece: string): CsvRecord | null {
    if (this.skipping || piece === '') return null;
    const refused = this.count(piece);
    if (refused === null) this.lineParts.push(piece);
    else this.skipping = true;
    return refused;
  }

  /** The last piece of a line, and the record it completes (null: none, or a blank line). */
  private endLine(piece: string): CsvRecord | null {
    this.line++;
    if (this.skipping) {
      this.skipping = false;
      this.startRecord();
      return null;
    }
    // The usual record, one whole line: split at once, its quotes counted on the way. A quoted field
    // left open (the record goes on) takes the way below, which counts them first.
    if (this.lineParts.length === 0 && this.recordLines.length === 0) {
      const line = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
      if (line === '') {
        this.startRecord();
        return null;
      }
      const fields = line.length <= MAX_RECORD_CHARS ? splitFields(line, false, this.fieldCount) : null;
      if (fields !== null) {
        this.fieldCount = fields.length;
        const first = this.recordLine;
        this.startRecord();
        return { line: first, fields };
      }
    }
    const refused = this.count(piece);
    if (refused !== null) return refused;
    let line = piece;
    if (this.lineParts.length > 0) {
      line = this.lineParts.join('') + line;
      this.lineParts = [];
    }
    // A CR before the line feed ends the record (CRLF), unless a quoted field is open: then it is the field's.
    if (!this.quoted && line.endsWith('\r')) {
      line = line.slice(0, -1);
      this.chars--;
    }
    if (this.chars > MAX_RECORD_CHARS) return this.refused();
    if (this.quoted) {
      this.recordLines.push(line);
      this.chars++; // the line break the next line joins the record with
      return null;
    }
    let record = line;
    if (this.recordLines.length > 0) {
      this.recordLines.push(line);
      record = this.recordLines.join('\n');
    }
    const first = this.recordLine;
    this.startRecord();
    return record === '' ? null : { line: first, fields: splitRecord(record) };
  }

  /** The record reported too long, and dropped. */
  private refused(): CsvRecord {
    const record: CsvRecord = { line: this.recordLine, tooLong: true };
    this.startRecord();
    return record;
  }

  /** The next record starts on the next line. */
  private startRecord(): void {
    this.recordLine = this.line + 1;
    if (this.recordLines.length > 0) this.recordLines = [];
    if (this.lineParts.length > 0) this.lineParts = [];
    this.chars = 0;
    this.quoted = false;
  }
}

/**
 * The records of a byte stream of UTF-8 CSV, each with the number of its first line; blank lines
 * are skipped and a leading BOM dropped. A record over MAX_RECORD_CHARS is reported `tooLong`
 * (what is left of its line is dropped unread), never held whole: reading resumes at the next
 * line. The event loop is given back every few milliseconds, between records.
 */
export async function* csvRecords(source: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord> {
  const turns = new EventLoopTurns();
  for await (const batch of csvBatches(source)) {
    for (const record of batch) {
      yield record;
      const turn = turns.step();
      if (turn) await turn;
    }
  }
}

/**
 * csvRecords' records, handed over a chunk of the stream's at a time (a step of an async iterator
 * per record costs as much as reading it): for readers that turn many records into a few calls.
 * The event loop is given back every few milliseconds, between batches.
 */
export async function* csvBatches(source: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord[]> {
  const cutter = new RecordCutter();
  const turns = new EventLoopTurns({ stepsPerCheck: 1 });
  for await (const text of decoded(source)) {
    const batch = cutter.read(text);
    if (batch.length === 0) continue;
    yield batch;
    const turn = turns.step();
    if (turn) await turn;
  }
  const last = cutter.end();
  if (last.length > 0) yield last;
}

/**
 * The most bytes decoded into one string. V8 allocates a string of 128 KiB or more in its
 * large-object space, which costs about 40 times as much a byte as a smaller one (4.6 against
 * 0.12 ns, measured): a 256 KiB read is decoded in four pieces.
 */
const DECODED_BYTES = 64 * 1024;

/** The text of a byte stream of UTF-8, DECODED_BYTES at most a piece (a character split between two pieces comes whole with the second). */
async function* decoded(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length; at += DECODED_BYTES) yield decoder.write(chunk.subarray(at, at + DECODED_BYTES));
  }
  yield decoder.end();
}

/**
 * A copy of a record's field that holds nothing of the text it was cut from. A field is a slice of
 * its piece of decoded text (up to 64 KiB, DECODED_BYTES): a field kept past its record (a map's
 * key, a session's name) would keep that whole piece alive and copied by every young-generation
 * collection. Joining a character before it makes a new string, whose slice then refers to it alone.
 */
export function detached(field: string): string {
  return ` ${field}`.slice(1);
}
