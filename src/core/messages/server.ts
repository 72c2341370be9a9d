// The catalogue as the server writes mails with it: every language's sections loaded at once (a
// mail's language is its recipient's, one mail at a time), English for anything unknown.
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './language.js';
import type { MailCatalogue, WebCatalogue } from './catalogue.js';
import { REPORT_LOCALE } from '../figure-text.js';
import { names } from './en/common.js';
import { mail } from './en/mail.js';
import deWeb from './de/web.js';
import deMail from './de/mail.js';
import frWeb from './fr/web.js';
import frMail from './fr/mail.js';
import esWeb from './es/web.js';
import esMail from './es/mail.js';

/** The words a mail is written with, and the locale of its figures and dates. */
export interface MailWords {
  language: Language;
  locale: string;
  mail: MailCatalogue;
  names: WebCatalogue['names'];
}

const WORDS: Record<Language, MailWords> = {
  // English mails keep the CLI's figures (REPORT_LOCALE: 1,234 and 27 Nov 2026).
  en: { language: 'en', locale: REPORT_LOCALE, mail, names },
  de: { language: 'de', locale: 'de', mail: deMail, names: deWeb.names },
  fr: { language: 'fr', locale: 'fr', mail: frMail, names: frWeb.names },
  es: { language: 'es', locale: 'es', mail: esMail, names: esWeb.names },
};

/** The words of `language`; English when it is absent or not one svc writes. */
export function mailWords(language: string | null | undefined): MailWords {
  return WORDS[isLanguage(language) ? language : DEFAULT_LANGUAGE];
}
