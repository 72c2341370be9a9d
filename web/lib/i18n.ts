// The page's language: the account's choice, else the one this browser last used (kept in
// localStorage, so that a page fetches its catalogue while it loads the session), else the
// browser's own (navigator.languages); English for anything else. A translation is a chunk of its
// own, imported only for its language; English is the source and needs none. Sections read their
// entries at render time, so the whole page follows the language loaded before it rendered.
import { DEFAULT_LANGUAGE, fill, isLanguage, localeOf, pickLanguage, type Language } from '../../src/core/messages/language.js';
import type { WebCatalogue } from '../../src/core/messages/catalogue.js';
import { setFigureLocale } from '../../src/core/figure-locale.js';

const STORED = 'svc-language';

const TRANSLATIONS: Record<Exclude<Language, 'en'>, () => Promise<{ default: WebCatalogue }>> = {
  de: () => import('../../src/core/messages/de/web.js'),
  fr: () => import('../../src/core/messages/fr/web.js'),
  es: () => import('../../src/core/messages/es/web.js'),
};

let language: Language = DEFAULT_LANGUAGE;
let locale: string = DEFAULT_LANGUAGE;
let translation: WebCatalogue | undefined;

/** The locale that writes the page's numbers and dates (`de`, or `en-GB` for an English reader in Britain). */
export const pageLocale = (): string => locale;

/** The language this browser last used, if any (storage may be refused: then none). */
function storedLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(STORED);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the page's language: `chosen` (the account's), else the one stored, else the browser's.
 * A catalogue that fails to load leaves the page in English.
 */
export async function loadLanguage(chosen?: Language | null): Promise<void> {
  try {
    if (chosen) localStorage.setItem(STORED, chosen);
    else if (chosen === null) localStorage.removeItem(STORED);
  } catch {
    // Storage refused: the account's choice still applies, from the session, once signed in.
  }
  const next = chosen ?? storedLanguage() ?? pickLanguage(navigator.languages);
  if (next !== language || (next !== 'en' && !translation)) {
    try {
      translation = next === 'en' ? undefined : (await TRANSLATIONS[next]()).default;
      language = next;
    } catch {
      translation = undefined;
      language = DEFAULT_LANGUAGE;
    }
  }
  locale = localeOf(language, navigator.languages);
  setFigureLocale(locale, translation?.names.pointChange);
  document.documentElement.lang = language;
}

/** A section of the catalogue in the page's language: its entries are read when used. */
export function section<S extends keyof WebCatalogue>(name: S, english: WebCatalogue[S]): WebCatalogue[S] {
  return new Proxy(english, { get: (source, key) => ((translation?.[name] ?? source) as Record<string | symbol, unknown>)[key] });
}

/**
 * `template` split at its `{name}` placeholders, each replaced by `parts[name]` (markup: a name in
 * bold, a link, a zone), so that the words around it stay the translation's, in its own order; a
 * placeholder without a part stays as written. fill() makes a string, this the nodes.
 */
export function fillNodes<T>(template: string, parts: Readonly<Record<string, T>>): Array<string | T> {
  return template.split(/\{(\w+)\}/).map((piece, index) => (index % 2 === 0 ? piece : piece in parts ? parts[piece]! : `{${piece}}`));
}

export { fill };
