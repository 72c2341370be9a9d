// Goal and funnel-step patterns (docs/admin-api.md, Goals): a `page` pattern matches a whole path,
// `*` standing for any run of characters without `/` and `**` for any run of characters without a
// line terminator (\n, \r, U+2028, U+2029); every other character stands for itself. An `event`
// pattern is an exact event name.
//
// Patterns come from tenants and paths from visitors, so matching never backtracks: SQL engines get
// a regular expression for RE2 (DuckDB `regexp_matches`, ClickHouse `match`: linear-time automata),
// and JavaScript runs `compilePagePattern`, whose time is linear in the path's length for any pattern.
import { apiError, type ApiError } from './errors.js';

export interface Matcher {
  kind: 'page' | 'event';
  pattern: string;
}

/**
 * Limits of a page pattern, checked where goals and funnel steps are defined (`pagePatternProblem`).
 * A match costs one pass over the path per wildcard: 16 wildcards (more than any site's URL scheme
 * needs) keep a match of a 2 048-character path, the longest stored, within some 35 000 steps.
 */
export const PAGE_PATTERN_LIMITS = { maxLength: 512, maxWildcards: 16 } as const;

const SLASH = 0x2f;
const isLineTerminator = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

type Wildcard = 'segment' | 'any'; // `*`, `**`

/** A pattern as a first literal, then (wildcard, literal) pairs; a literal may be empty. */
interface Tokens {
  head: string;
  tail: Array<{ wildcard: Wildcard; literal: string }>;
}

/** Splits a pattern as it reads left to right: `**` before `*`, so `***` is `**` then `*`. */
function tokenize(pattern: string): Tokens {
  const tokens: Tokens = { head: '', tail: [] };
  let literal = '';
  const close = () => {
    if (tokens.tail.length === 0) tokens.head = literal;
    else tokens.tail[tokens.tail.length - 1]!.literal = literal;
    literal = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*') {
      literal += pattern[i];
      continue;
    }
    const wildcard: Wildcard = pattern[i + 1] === '*' ? 'any' : 'segment';
    if (wildcard === 'any') i++;
    close();
    tokens.tail.push({ wildcard, literal: '' });
  }
  close();
  return tokens;
}

/** The rule of PAGE_PATTERN_LIMITS a page pattern breaks (the HTTP layer words it for the client). */
export type PagePatternProblem = { rule: 'start' } | { rule: 'length' } | { rule: 'wildcards'; wildcards: number };

/** Why a page pattern is refused where goals and funnel steps are defined, or null when it is fine. */
export function pagePatternProblem(pattern: string): PagePatternProblem | null {
  if (!pattern.startsWith('/')) return { rule: 'start' };
  if (pattern.length > PAGE_PATTERN_LIMITS.maxLength) return { rule: 'length' };
  const wildcards = tokenize(pattern).tail.length;
  if (wildcards > PAGE_PATTERN_LIMITS.maxWildcards) return { rule: 'wildcards', wildcards };
  return null;
}

/** A page pattern's problem as the refusal a client reads, naming the request's `field`. */
export function pagePatternError(problem: PagePatternProblem, field: string): ApiError {
  switch (problem.rule) {
    case 'start':
      return apiError('INVALID_PARAMS', 'pagePatternStart', { field });
    case 'length':
      return apiError('INVALID_PARAMS', 'pagePatternLength', { field, max: PAGE_PATTERN_LIMITS.maxLength });
    case 'wildcards':
      return apiError('INVALID_PARAMS', 'pagePatternWildcards', { field, max: PAGE_PATTERN_LIMITS.maxWildcards, wildcards: problem.wildcards });
  }
}

/** Whether a page pattern has no wildcard: it matches one path, itself. */
export function pagePatternIsLiteral(pattern: string): boolean {
  return tokenize(pattern).tail.length === 0;
}

const escapeRegex = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
// `**` is a class rather than `.`: RE2's `.` excludes only \n in DuckDB and nothing in ClickHouse.
const WILDCARD_REGEX: Record<Wildcard, string> = { segment: '[^/]*', any: '[^\\n\\r\\x{2028}\\x{2029}]*' };

/** The pattern as an RE2 regular expression over the whole path, for SQL engines; never run by JavaScript. */
export function pagePatternRegex(pattern: string): string {
  const { head, tail } = tokenize(pattern);
  return `^${escapeRegex(head)}${tail.map((t) => WILDCARD_REGEX[t.wildcard] + escapeRegex(t.literal)).join('')}$`;
}

/** Knuth–Morris–Pratt prefix function: per prefix `s[0..i]`, the length of its longest proper border. */
function prefixFunction(s: string): Int32Array {
  const border = new Int32Array(s.length);
  for (let i = 1, k = 0; i < s.length; i++) {
    while (k > 0 && s.charCodeAt(i) !== s.charCodeAt(k)) k = border[k - 1]!;
    if (s.charCodeAt(i) === s.charCodeAt(k)) k++;
    border[i] = k;
  }
  return border;
}

/** A wildcard and the literal after it, ready to scan. */
interface Step {
  wildcard: Wildcard;
  literal: string;
  border: Int32Array;
}

/**
 * A matcher of one page pattern over paths. It keeps, after each literal, the set of path offsets
 * where the pattern read so far can end (one byte per offset), and extends it by one wildcard and
 * the literal after it in a single pass over the path (Knuth–Morris–Pratt finds the literal's
 * occurrences). One pass per wildcard: time O((wildcards + 1) × path length) for any pattern, no
 * backtracking, no allocation per character (the two offset sets are reused from path to path).
 */
export function compilePagePattern(pattern: string): (path: string) => boolean {
  const { head, tail } = tokenize(pattern);
  if (tail.length === 0) return (path) => path === pattern;
  const steps: Step[] = [];
  for (const { wildcard, literal } of tail) {
    const previous = steps[steps.length - 1];
    // Wildcards of one kind with nothing between them take the same runs as one.
    if (previous && previous.literal === '' && previous.wildcard === wildcard) {
      previous.literal = literal;
      previous.border = prefixFunction(literal);
    } else {
      steps.push({ wildcard, literal, border: prefixFunction(literal) });
    }
  }
  let ends = new Uint8Array(0);
  let next = new Uint8Array(0);
  return (path) => {
    if (!path.startsWith(head)) return false;
    const n = path.length;
    if (ends.length <= n) {
      ends = new Uint8Array(n + 1);
      next = new Uint8Array(n + 1);
    }
    ends.fill(0, 0, n + 1);
    ends[head.length] = 1;
    let from = head.length;
    for (const step of steps) {
      from = extend(path, step, from, ends, next);
      if (from < 0) return false;
      const swap = ends;
      ends = next;
      next = swap;
    }
    return ends[n] === 1;
  };
}

/**
 * From `ends` (1 at the offsets where the pattern read so far can end, none before `from`), sets
 * `next[0..n]` to the offsets where it can end after `step`'s wildcard and literal, and returns the
 * first of them, or -1 when there is none; `ends` is overwritten.
 */
function extend(path: string, step: Step, from: number, ends: Uint8Array, next: Uint8Array): number {
  const { literal, border } = step;
  const segment = step.wildcard === 'segment';
  const n = path.length;
  const m = literal.length;
  next.fill(0, 0, from);
  let first = -1;
  let matched = 0; // length of the longest prefix of `literal` ending at offset i, read from `from`
  for (let i = from; i <= n; i++) {
    if (i > from) {
      const c = path.charCodeAt(i - 1);
      // The wildcard's run starts at an end and takes only its characters: it can end at i too.
      if (ends[i - 1] === 1 && (segment ? c !== SLASH : !isLineTerminator(c))) ends[i] = 1;
      if (m > 0) {
        if (matched === m) matched = border[m - 1]!;
        while (matched > 0 && literal.charCodeAt(matched) !== c) matched = border[matched - 1]!;
        if (literal.charCodeAt(matched) === c) matched++;
      }
    }
    const end = matched === m ? ends[i - m]! : 0;
    next[i] = end;
    if (end === 1 && first < 0) first = i;
  }
  return first;
}

/** The matcher of a goal or funnel step on an event (name, page): the SQL predicate's twin. */
export function compileMatcher(m: Matcher): (name: string, page: string) => boolean {
  if (m.kind === 'event') return (name) => name === m.pattern;
  const matches = compilePagePattern(m.pattern);
  return (name, page) => name === 'pageview' && matches(page);
}
