// The languages the dashboard and its mails are written in, how one is chosen from what a browser
// prefers (navigator.languages, or an Accept-Language header), and the two operations a catalogue
// entry needs: its `{name}` placeholders filled, and its plural form picked by Intl.PluralRules.
// The dashboard bundles this module: no Node code.

export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The catalogue's source, and the language of anything unknown or absent. */
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(text: unknown): text is Language {
  return (LANGUAGES as readonly unknown[]).includes(text);
}

/** The first of `preferred` (BCP 47 tags, most preferred first) whose language svc writes; English otherwise. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** An Accept-Language header's tags, most preferred first (by `q`, then by order); none for an absent header. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The locale that writes numbers and dates for `language`: the first preferred tag of that language
 * (`en-GB` keeps its day-month order), else the language itself.
 */
export function localeOf(language: Language, preferred: readonly string[]): string {
  return preferred.find((tag) => tag.toLowerCase().split(/[-_]/)[0] === language) ?? language;
}

/** An entry whose words follow a count: a form per plural category of Intl.PluralRules, `other` always. */
export type Plural = { readonly other: string } & { readonly [category in Exclude<Intl.LDMLPluralRule, 'other'>]?: string };

/** A template with its `{name}` placeholders replaced by `params` (a placeholder without a value stays as it is). */
export function fill(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in params ? String(params[name]) : placeholder));
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The form of `entry` for the count `n` in `locale`, filled with `params` (`{n}` is the caller's to give, formatted). */
export function plural(entry: Plural, n: number, locale: string, params: Readonly<Record<string, string | number>> = {}): string {
  let rules = pluralRules.get(locale);
  if (rules === undefined) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return fill(entry[rules.select(n)] ?? entry.other, params);
}
