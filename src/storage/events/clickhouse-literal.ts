// The one place where values become ClickHouse SQL text. ClickHouse 18.16 has no server-side query
// parameters, so each `?` of an `Sql` value is replaced here by a literal of its value; every other
// part of the text is trusted (constants and Dialect output, see src/sql/sql.ts).
import type { Sql, SqlValue } from '../../sql/sql.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Escapes of the bytes that have a short form in a ClickHouse string literal. */
const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0', '\b': '\\b', '\f': '\\f' };

/**
 * A string as a ClickHouse literal: quoted, with backslash, quote and every control character
 * (U+0000–U+001F, U+007F) escaped, so nothing inside can end the literal or be read as an escape;
 * other characters go as their UTF-8 bytes. A lone surrogate has no UTF-8 form: it is refused
 * rather than stored as U+FFFD.
 */
function stringLiteral(s: string): string {
  if (LONE_SURROGATE.test(s)) throw new Error('a string parameter holds a lone surrogate (not valid Unicode)');
  return `'${s.replace(/[\\'\u0000-\u001f\u007f]/g, (c) => SHORT_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}

const MIN_NORMAL = 2.2250738585072014e-308;

/** A negative number in parentheses: after a `-` of the text, `--5` would open a comment. */
const signed = (text: string) => (text.startsWith('-') ? `(${text})` : text);

/** The digits of a 64-bit integer; one beyond 64 bits is refused. */
function int64Text(value: bigint): string {
  if (value < INT64_MIN || value > INT64_MAX) throw new Error(`an integer parameter is outside 64 bits: ${value}`);
  return value.toString();
}

/**
 * A value as a ClickHouse literal; a number that is not finite or is subnormal, or an integer beyond
 * 64 bits, is refused.
 */
export function clickhouseLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'boolean':
      return value ? '1' : '0';
    case 'bigint':
      return signed(int64Text(value));
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`a number parameter is not finite: ${value}`);
      // The server's parser reads a subnormal as 0: refused rather than changed.
      if (value !== 0 && Math.abs(value) < MIN_NORMAL) throw new Error(`a number parameter is subnormal: ${value}`);
      // An integer's text is the value the number holds (beyond 2^53 too); others, the shortest exact form.
      return signed(Number.isInteger(value) ? BigInt(value).toString() : String(value));
    default:
      throw new Error(`not a SQL value: ${typeof value}`);
  }
}

/**
 * The text of `query` with each `?` placeholder replaced by the literal of its parameter, in order.
 * A `?` inside a quoted string, a quoted identifier or a comment of the text is not a placeholder.
 * The number of placeholders must equal the number of parameters.
 */
export function inlineParams(query: Sql): string {
  const { text, params } = query;
  let out = '';
  let next = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = quotedEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) throw new Error('unterminated comment in SQL text');
      out += text.slice(i, end + 2);
      i = end + 2;
    } else if (c === '?') {
      if (next >= params.length) throw new Error('more placeholders than parameters in SQL text');
      out += clickhouseLiteral(params[next++]!);
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (next !== params.length) throw new Error(`${params.length - next} parameters without a placeholder in SQL text`);
  return out;
}

/** Index just past the quoted token opening at `start` (backslash escapes, and a doubled quote). */
function quotedEnd(text: string, start: number): number {
  const quote = text[start]!;
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') i += 2;
    else if (c === quote && text[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  throw new Error('unterminated quoted token in SQL text');
}
