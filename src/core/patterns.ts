// Goal and funnel-step patterns (docs/admin-api.md, Goals): a `page` pattern matches a path with `*` standing for
// one path segment and `**` for any run of characters; an `event` pattern is an exact event name.
// The regular expression is the same for SQL engines (RE2/PCRE subset) and JavaScript.

export interface Matcher {
  kind: 'page' | 'event';
  pattern: string;
}

export function pagePatternRegex(pattern: string): string {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') {
      out += '[^/]*';
    } else {
      out += /[.+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
    }
  }
  return `${out}$`;
}

/** JavaScript twin of the SQL predicate, for funnels computed in memory. */
export function compileMatcher(m: Matcher): (name: string, page: string) => boolean {
  if (m.kind === 'event') return (name) => name === m.pattern;
  const regex = new RegExp(pagePatternRegex(m.pattern));
  return (name, page) => name === 'pageview' && regex.test(page);
}
