// What a page in a language may show (issue 75): a catalogue entry of that language (each `{name}`
// a wildcard), API data, a name Intl gives in that language, a figure or a date written by Intl, or
// text without letters. The walker (walker.test.ts) asks this of every text it finds.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WebCatalogue } from '../../src/core/messages/catalogue.js';
import { LANGUAGES } from '../../src/core/messages/language.js';
import de from '../../src/core/messages/de/web.js';
import fr from '../../src/core/messages/fr/web.js';
import es from '../../src/core/messages/es/web.js';
import { ERRORS } from '../../src/core/errors.js';
import deErrors from '../../src/core/messages/de/errors.js';
import frErrors from '../../src/core/messages/fr/errors.js';
import esErrors from '../../src/core/messages/es/errors.js';
import { TOUR_LOCALES, type TourLanguage } from './tour.js';

const ENGLISH_DIR = fileURLToPath(new URL('../../src/core/messages/en/', import.meta.url));
/** The mails' section and the server-written pages' (plain-page.ts, no dashboard page): never on a dashboard page. */
const NOT_ON_PAGES = new Set(['mail.ts', 'plain-pages.ts']);

/** Every section the English files export (read from the folder, so that a new section is walked too). */
async function englishSections(): Promise<object[]> {
  const files = readdirSync(ENGLISH_DIR).filter((name) => name.endsWith('.ts') && !NOT_ON_PAGES.has(name));
  const modules = await Promise.all(files.map((name) => import(pathToFileURL(ENGLISH_DIR + name).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((m) => Object.values(m).filter((v): v is object => typeof v === 'object' && v !== null));
}

const TRANSLATED: Record<Exclude<TourLanguage, 'en'>, WebCatalogue> = { de, fr, es };

/** The server's refusals as /app/v1 writes them in each language (the error catalogue and its translations): a page shows them as they are. */
const REFUSALS: Record<TourLanguage, object[]> = { en: Object.values(ERRORS).map((code) => code.messages), de: [deErrors], fr: [frErrors], es: [esErrors] };

/** Every string of a section, its groups' and its plurals' forms. */
function strings(section: object, into: string[] = []): string[] {
  for (const value of Object.values(section)) {
    if (typeof value === 'string') into.push(value);
    else if (typeof value === 'object' && value !== null) strings(value, into);
  }
  return into;
}

const LETTER = /\p{L}/u;
const PLACEHOLDER = /\{\w+\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An entry as the texts it may show: the whole, each placeholder a lazy wildcard, and each piece
 * between placeholders on its own (a page that puts an element in a placeholder's place shows the
 * pieces as text nodes of their own). An entry without a letter outside its placeholders is skipped:
 * it would match anything.
 */
function entryPatterns(entry: string): { whole?: RegExp; pieces: string[] } {
  const pieces = entry.split(PLACEHOLDER).map((piece) => piece.replace(/\s+/g, ' ').trim()).filter((piece) => LETTER.test(piece));
  if (pieces.length === 0) return { pieces };
  const whole = new RegExp(`^${entry.replace(/\s+/g, ' ').trim().split(PLACEHOLDER).map(escape).join('[\\s\\S]*?')}$`, 'u');
  return { whole, pieces };
}

/** Two-letter codes AA…ZZ: every region and language Intl may name. */
const CODES = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));

/** The names Intl.DisplayNames gives regions and languages in `locale`, and each of the dashboard's languages in its own. */
function intlNames(locale: string): Set<string> {
  const names = new Set<string>();
  const regions = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const languages = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
  for (const code of CODES) {
    const region = regions.of(code);
    const language = languages.of(code.toLowerCase());
    if (region) names.add(region);
    if (language) names.add(language);
  }
  for (const language of LANGUAGES) names.add(new Intl.DisplayNames([language], { type: 'language' }).of(language)!);
  // A name may open a sentence or a menu's line: capitalised too (`français` as `Français`).
  return new Set([...names].flatMap((name) => [name, name.charAt(0).toLocaleUpperCase(locale) + name.slice(1)]));
}

const words = (text: string) => text.match(/\p{L}+/gu) ?? [];

/**
 * The words Intl writes figures and dates with in `locale`: months, weekdays and day periods (a date
 * may be only these), units, compact suffixes, relative times and list joins (only beside a digit).
 */
function intlWords(locale: string): { date: Set<string>; figure: Set<string> } {
  const date = new Set<string>();
  const figure = new Set<string>();
  const add = (into: Set<string>, text: string) => words(text).forEach((word) => into.add(word));
  for (let month = 0; month < 12; month++) {
    const at = new Date(Date.UTC(2026, month, 3 + month, 15));
    for (const options of [{ month: 'long' }, { month: 'short' }, { weekday: 'long' }, { weekday: 'short' }, { dateStyle: 'full' }, { dateStyle: 'medium' }, { day: 'numeric', month: 'short' }, { weekday: 'short', day: 'numeric', month: 'short' }, { hour: 'numeric' }, { timeStyle: 'short', hour12: true }] as const) {
      add(date, new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(at));
    }
  }
  for (const unit of ['second', 'minute', 'hour', 'day', 'week', 'month', 'year', 'percent'] as const) {
    for (const unitDisplay of ['narrow', 'short', 'long'] as const) for (const n of [1, 2, 5]) add(figure, new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay }).format(n));
    if (unit !== 'percent') for (const n of [-2, -1, 0, 1, 2]) add(figure, new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(n, unit));
  }
  for (const n of [1_500, 2_000_000, 3_000_000_000]) for (const compactDisplay of ['short', 'long'] as const) add(figure, new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay }).format(n));
  for (const type of ['conjunction', 'disjunction'] as const) add(figure, new Intl.ListFormat(locale, { type }).format(['1', '2', '3']));
  return { date, figure };
}

/** Whether a text reads as a figure or a date Intl wrote: its words all Intl's, with a digit unless they are all a date's. */
function figureOrDate(text: string, vocabulary: { date: Set<string>; figure: Set<string> }): boolean {
  const found = words(text);
  if (found.some((word) => !vocabulary.date.has(word) && !vocabulary.figure.has(word))) return false;
  return /\d/.test(text) || found.every((word) => vocabulary.date.has(word));
}

/** Leading and trailing marks that are no words (a flag, a bullet, brackets): taken off before asking API data and Intl. */
const bare = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** The product's name, which the layout puts after each page's title (`Sites · svc`). */
const PRODUCT = 'svc';
/** What pages put between the parts of a line (`France · Chrome · desktop`): each part is asked on its own. */
const SEPARATOR = ' · ';

export interface Acceptor {
  /** Whether `text` (trimmed) may show on a page in the language, given the API data the page received. */
  accepts(text: string, apiData: ReadonlySet<string>): boolean;
}

/** What a page in `language` may show. */
export async function acceptorOf(language: TourLanguage): Promise<Acceptor> {
  const sections = [...(language === 'en' ? await englishSections() : Object.values(TRANSLATED[language])), ...REFUSALS[language]];
  const patterns = sections.flatMap((section) => strings(section)).map(entryPatterns);
  const exact = new Set(patterns.flatMap((p) => p.pieces));
  const wholes = patterns.flatMap((p) => (p.whole ? [p.whole] : []));
  const locale = TOUR_LOCALES[language];
  const names = intlNames(locale);
  const vocabulary = intlWords(locale);
  const accepts = (text: string, apiData: ReadonlySet<string>): boolean => {
    if (!LETTER.test(text) || text === PRODUCT || exact.has(text) || wholes.some((pattern) => pattern.test(text))) return true;
    const core = bare(text);
    if (apiData.has(text) || apiData.has(core) || names.has(core) || figureOrDate(text, vocabulary)) return true;
    if (text.includes(SEPARATOR)) return text.split(SEPARATOR).every((part) => accepts(part.trim(), apiData));
    // A hint may be two entries in a row (each of one sentence or more): asked as a head and a rest at each sentence's end.
    const sentences = text.split(/(?<=[.!?])\s+(?=\p{Lu})/u);
    return sentences.slice(1).some((_, i) => accepts(sentences.slice(0, i + 1).join(' '), apiData) && accepts(sentences.slice(i + 1).join(' '), apiData));
  };
  return { accepts };
}
