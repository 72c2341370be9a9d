// Goal and funnel-step patterns (docs/admin-api.md, Goals): a `page` pattern matches a whole path,
// `*` standing for any run of characters without `/` and `**` for any run of characters without a
// line terminator (\n, \r, U+2028, U+2029); every other character stands for itself. An `event`
// pattern is an exact event name.
//
// Patterns come from tenants and paths from visitors, so matching never backtracks and never runs in
// the process: every match (goals, funnel steps, goal alert rules) is the engine's, on a regular
// expression for RE2 (DuckDB `regexp_matches`, ClickHouse `match`: linear-time automata).

export interface Matcher {
  kind: 'page' | 'event';
  pattern: string;
}

/**
 * Limits of a page pattern, checked where goals and funnel steps are defined (`pagePatternProblem`):
 * 16 wildcards are more than any site's URL scheme needs, and keep the automaton RE2 builds small.
 */
export const PAGE_PATTERN_LIMITS = { maxLength: 512, maxWildcards: 16 } as const;

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

/** Whether a page pattern has no wildcard: it matches one path, itself. */
export function pagePatternIsLiteral(pattern: string): boolean {
  return tokenize(pattern).tail.length === 0;
}

const escapeRegex = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
// `**` is a class rather than `.`: RE2's `.` excludes only \n in DuckDB and nothing in ClickHouse.
const WILDCARD_REGEX: Record<Wildcard, string> = { segment: '[^/]*', any: '[^\\n\\r\\x{2028}\\x{2029}]*' };

/** The pattern as an RE2 regular expression over the whole path, for SQL engines; never run by JavaScript (its RegExp backtracks). */
export function pagePatternRegex(pattern: string): string {
  const { head, tail } = tokenize(pattern);
  return `^${escapeRegex(head)}${tail.map((t) => WILDCARD_REGEX[t.wildcard] + escapeRegex(t.literal)).join('')}$`;
}
