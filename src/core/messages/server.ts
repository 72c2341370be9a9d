// The catalogue as the server writes mails and its own plain pages with it: every language's sections
// loaded at once (a mail's language is its recipient's, a page's its request's, one at a time),
// English for anything unknown.
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './language.js';
import type { MailCatalogue, PlainPagesCatalogue, WebCatalogue } from './catalogue.js';
import { REPORT_LOCALE } from '../figure-text.js';
import { names } from './en/common.js';
import { mail } from './en/mail.js';
import { orgSettings } from './en/org-settings.js';
import { plainPages } from './en/plain-pages.js';
import deWeb from './de/web.js';
import deMail from './de/mail.js';
import frWeb from './fr/web.js';
import frMail from './fr/mail.js';
import esWeb from './es/web.js';
import esMail from './es/mail.js';
import dePlainPages from './de/plain-pages.js';
import frPlainPages from './fr/plain-pages.js';
import esPlainPages from './es/plain-pages.js';

/** The words a mail is written with, and the locale of its figures and dates. */
export interface MailWords {
  language: Language;
  locale: string;
  mail: MailCatalogue;
  names: WebCatalogue['names'];
  /** The roles as the organisation's settings name them: an invitation's, a refusal's. */
  roles: WebCatalogue['orgSettings']['roleNames'];
}

const WORDS: Record<Language, MailWords> = {
  // English mails keep the CLI's figures (REPORT_LOCALE: 1,234 and 27 Nov 2026).
  en: { language: 'en', locale: REPORT_LOCALE, mail, names, roles: orgSettings.roleNames },
  de: { language: 'de', locale: 'de', mail: deMail, names: deWeb.names, roles: deWeb.orgSettings.roleNames },
  fr: { language: 'fr', locale: 'fr', mail: frMail, names: frWeb.names, roles: frWeb.orgSettings.roleNames },
  es: { language: 'es', locale: 'es', mail: esMail, names: esWeb.names, roles: esWeb.orgSettings.roleNames },
};

/** The words of `language`; English when it is absent or not one svc writes. */
export function mailWords(language: string | null | undefined): MailWords {
  return WORDS[isLanguage(language) ? language : DEFAULT_LANGUAGE];
}

const PLAIN_PAGES: Record<Language, PlainPagesCatalogue> = { en: plainPages, de: dePlainPages, fr: frPlainPages, es: esPlainPages };

/** The words of the pages the server writes itself (src/http/plain-page.ts) in `language`. */
export function plainPageWords(language: Language): PlainPagesCatalogue {
  return PLAIN_PAGES[language];
}
